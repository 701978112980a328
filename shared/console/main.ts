import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, onUnauthorized, storeCredentials, storedCredentials } from './api.js';
import { CompanyTimeZone } from './company.js';
import { parseHash, VIEWS, type ViewId } from './logic.js';
import { html } from './ui.js';
import { Buyers } from './views/buyers.js';
import { Calls } from './views/calls.js';
import { Leads } from './views/leads.js';
import { LiveCalls } from './views/live-calls.js';
import { Numbers } from './views/numbers.js';
import { Offers } from './views/offers.js';
import { Reports } from './views/reports.js';
import { SignIn } from './views/sign-in.js';
import { Webhooks } from './views/webhooks.js';

/**
 * The operator console (docs/console.md): a sign-in form, then one view per part of the business,
 * chosen by the URL's hash (`#/calls/123`), so links and the back button work without server routes.
 */
const VIEW_COMPONENTS: Record<ViewId, (props: { id?: string }) => unknown> = {
  live: LiveCalls,
  calls: Calls,
  buyers: Buyers,
  offers: Offers,
  numbers: Numbers,
  leads: Leads,
  reports: Reports,
  webhooks: Webhooks,
};

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return hash;
}

function App() {
  const [signedIn, setSignedIn] = useState(Boolean(storedCredentials()));
  const hash = useHash();
  const route = parseHash(hash);
  const main = useRef<HTMLElement>(null);
  useEffect(() => onUnauthorized(() => setSignedIn(false)), []);
  // The company's time zone, read once per sign-in; views wait for it (null) so their first
  // requests already use it. Undefined (missing, or the read failed): views use the browser's.
  const [timeZone, setTimeZone] = useState<string | undefined | null>(null);
  useEffect(() => {
    if (!signedIn) return setTimeZone(null);
    let current = true;
    api<{ company?: { time_zone?: string } }>('/company').then(
      (answer) => current && setTimeZone(answer.company?.time_zone || undefined),
      () => current && setTimeZone(undefined),
    );
    return () => {
      current = false;
    };
  }, [signedIn]);
  // A new view moves focus to its heading, so keyboard and screen reader users start there
  // (also once the company's zone is read: the view appears only then).
  const loaded = timeZone !== null;
  useEffect(() => {
    main.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [route.view, route.id, loaded]);

  if (!signedIn) return html`<${SignIn} onSignedIn=${() => setSignedIn(true)} />`;
  const View = VIEW_COMPONENTS[route.view];
  const signOut = () => {
    storeCredentials(undefined);
    setSignedIn(false);
  };
  return html`<div class="shell">
    <a class="skip" href="#main" onClick=${(event: Event) => { event.preventDefault(); main.current?.querySelector<HTMLElement>('h1')?.focus(); }}>Skip to content</a>
    <header class="top">
      <span class="brand">Call tracking console</span>
      <nav aria-label="Views">
        <ul>${VIEWS.map((view) => html`<li><a href=${`#/${view.id}`} aria-current=${route.view === view.id ? 'page' : undefined}>${view.label}</a></li>`)}</ul>
      </nav>
      <button type="button" class="link" onClick=${signOut}>Sign out</button>
    </header>
    <main id="main" ref=${main}>
      ${timeZone === null
        ? html`<p role="status">Loading…</p>`
        : html`<${CompanyTimeZone.Provider} value=${timeZone}><${View} key=${`${route.view}/${route.id ?? ''}`} id=${route.id} /></${CompanyTimeZone.Provider}>`}
    </main>
  </div>`;
}

render(html`<${App} />`, document.getElementById('app')!);
