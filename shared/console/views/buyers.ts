import { api } from '../api.js';
import { capBars, exclusionReasons, type CapBar } from '../logic.js';
import { Empty, ErrorBox, html, rowsOf, Section, useAction, useApi } from '../ui.js';

/** Every buyer with its caps as bars (refreshed every 5 s: concurrency is live), pause/unpause, and why recent pings left it out. */
function Bar({ bar, owner }: { bar: CapBar; owner: number }) {
  const percent = Math.round(bar.fraction * 100);
  const labelId = `cap-${owner}-${bar.key}`;
  return html`<div class="cap">
    <span class="cap-label" id=${labelId}>${bar.label}</span>
    <div class=${`bar${bar.full ? ' full' : ''}`} role="meter" aria-labelledby=${labelId} aria-valuemin="0" aria-valuemax=${bar.limit} aria-valuenow=${Math.min(bar.used, bar.limit)} aria-valuetext=${`${bar.used} of ${bar.limit}${bar.full ? ', at its cap' : ''}`} data-cap=${bar.key} data-full=${bar.full ? 'true' : 'false'}>
      <div class="fill" style=${{ width: `${percent}%` }}></div>
    </div>
    <span class="cap-value">${bar.used} / ${bar.limit}</span>
  </div>`;
}

function BuyerCard({ buyer, logs, onChanged }: { buyer: Record<string, any>; logs: Array<Record<string, unknown>>; onChanged: () => Promise<void> }) {
  const toggle = useAction();
  const bars = capBars(buyer);
  const reasons = exclusionReasons(logs, Number(buyer.id));
  const setPaused = async () => {
    if (await toggle.run(() => api(`/buyers/${buyer.id}`, { method: 'PUT', body: { paused: !buyer.paused } }))) await onChanged();
  };
  return html`<article class="card" data-buyer-id=${buyer.id} aria-labelledby=${`buyer-${buyer.id}`}>
    <header>
      <h2 id=${`buyer-${buyer.id}`}>${buyer.name}</h2>
      ${buyer.paused ? html`<span class="badge paused">Paused</span>` : html`<span class="badge active">Active</span>`}
      ${buyer.maxed_out_by ? html`<span class="badge warn">At cap: ${String(buyer.maxed_out_by).replace(/_/g, ' ')}</span>` : null}
      <button type="button" disabled=${toggle.busy} onClick=${setPaused} aria-label=${`${buyer.paused ? 'Unpause' : 'Pause'} ${buyer.name}`}>${buyer.paused ? 'Unpause' : 'Pause'}</button>
    </header>
    <${ErrorBox} error=${toggle.error} />
    ${bars.length ? html`<div class="caps">${bars.map((bar) => html`<${Bar} key=${bar.key} bar=${bar} owner=${buyer.id} />`)}</div>` : html`<p class="hint">No caps set.</p>`}
    ${reasons.length
      ? html`<details><summary>Left out of ${reasons.length} recent ping${reasons.length === 1 ? '' : 's'}</summary><ul>${reasons.map((entry) => html`<li>${entry.at}: ${entry.reason.replace(/_/g, ' ')}</li>`)}</ul></details>`
      : null}
  </article>`;
}

export function Buyers() {
  const loaded = useApi('/buyers?per_page=500&order=name&order_dir=asc', 5000);
  const pings = useApi('/inbound_webhook_logs?per_page=50');
  const buyers = rowsOf(loaded.data, 'buyers');
  const logs = rowsOf(pings.data, 'inbound_webhook_logs');
  return html`<${Section} title="Buyers" loaded=${loaded} what="buyers">
    <p class="hint">Cap usage against each limit; concurrency is the calls connected or ringing now. Refreshed every 5 seconds.</p>
    ${buyers.length === 0 ? html`<${Empty}>No buyers yet.<//>` : html`<div class="cards">${buyers.map((buyer) => html`<${BuyerCard} key=${buyer.id} buyer=${buyer} logs=${logs} onChanged=${loaded.reload} />`)}</div>`}
  <//>`;
}
