import { useState } from 'preact/hooks';
import { api, ApiError, storeCredentials, type Credentials } from '../api.js';
import { ErrorBox, html } from '../ui.js';

/**
 * The sign-in form: a key pair (the API's Basic auth) or a user's auth_token. The credentials are
 * tried on a small request before they are kept: a wrong pair shows the API's own error here.
 */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [mode, setMode] = useState<'keys' | 'token'>('keys');
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const credentials: Credentials =
      mode === 'keys'
        ? { kind: 'keys', publicKey: String(form.get('public_key') ?? '').trim(), privateKey: String(form.get('private_key') ?? '').trim() }
        : { kind: 'token', authToken: String(form.get('auth_token') ?? '').trim() };
    setBusy(true);
    setError(undefined);
    try {
      await api('/offers?per_page=1&columns=id', { as: credentials });
      storeCredentials(credentials);
      onSignedIn();
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  };

  return html`<main class="sign-in">
    <h1>Sign in to the console</h1>
    <p>Use an API key pair of your company, or a user's auth token. They are kept in this tab only, until it closes.</p>
    <form onSubmit=${submit} aria-describedby="sign-in-note">
      ${mode === 'keys'
        ? html`<label for="public-key">Public key</label>
            <input id="public-key" name="public_key" autocomplete="username" required spellcheck="false" />
            <label for="private-key">Private key</label>
            <input id="private-key" name="private_key" type="password" autocomplete="current-password" required />`
        : html`<label for="auth-token">Auth token</label>
            <input id="auth-token" name="auth_token" type="password" autocomplete="current-password" required />`}
      <${ErrorBox} error=${error} />
      <button type="submit" disabled=${busy}>${busy ? 'Signing in…' : 'Sign in'}</button>
    </form>
    <p id="sign-in-note">
      <button type="button" class="link" onClick=${() => setMode(mode === 'keys' ? 'token' : 'keys')}>
        ${mode === 'keys' ? "Use a user's auth token instead" : 'Use a key pair instead'}
      </button>
    </p>
  </main>`;
}
