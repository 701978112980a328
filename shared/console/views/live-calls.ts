import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { formatDuration, liveState, secondsSince } from '../logic.js';
import { Empty, ErrorBox, html, rowsOf, Section, useAction, useApi } from '../ui.js';

/** Calls in progress, asked for every 2 seconds; rows are keyed by call, so a refresh only changes what changed. */
export const LIVE_REFRESH_MS = 2000;

export function LiveCalls() {
  const loaded = useApi('/calls/live_calls?per_page=500', LIVE_REFRESH_MS);
  const hangUp = useAction();
  const [ending, setEnding] = useState<number | undefined>();
  const calls = rowsOf(loaded.data, 'calls');
  const now = Date.now();
  const end = async (id: number) => {
    setEnding(id);
    await hangUp.run(() => api(`/calls/${id}`, { method: 'DELETE' }));
    setEnding(undefined);
    await loaded.reload();
  };
  return html`<${Section} title="Live calls" loaded=${loaded} what="live calls">
    <p class="hint">Refreshed every 2 seconds. <span aria-live="polite">${calls.length} in progress.</span></p>
    <${ErrorBox} error=${hangUp.error} />
    ${calls.length === 0
      ? html`<${Empty}>No calls in progress.<//>`
      : html`<table class="grid" aria-label="Calls in progress">
          <thead><tr><th scope="col">Caller</th><th scope="col">Offer</th><th scope="col">Traffic source</th><th scope="col">Buyer</th><th scope="col">State</th><th scope="col">Duration</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>
            ${calls.map(
              (call) => html`<tr key=${call.id} data-call-id=${call.id}>
                <td>${call.caller_number}</td>
                <td>${call.offer ?? '—'}</td>
                <td>${call.traffic_source ?? '—'}</td>
                <td>${call.buyer ?? '—'}</td>
                <td><span class=${`badge state-${liveState(call).toLowerCase()}`}>${liveState(call)}</span></td>
                <td class="num">${formatDuration(secondsSince(call.created_at, now))}</td>
                <td><button type="button" class="danger" disabled=${ending === call.id} onClick=${() => end(call.id)} aria-label=${`Hang up the call from ${call.caller_number}`}>Hang up</button></td>
              </tr>`,
            )}
          </tbody>
        </table>`}
  <//>`;
}
