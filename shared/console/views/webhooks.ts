import { deliveryOutcome, formatTime } from '../logic.js';
import { Empty, html, rowsOf, Section, useApi } from '../ui.js';

/**
 * Subscriptions and outgoing webhooks with their recent deliveries (webhook_logs): failures
 * highlighted, dead-lettered ones (no attempt left) marked. The API offers no redrive, so none here
 * (docs/events.md: `npm run redrive`, or SQS's move task in AWS).
 */
export function Webhooks() {
  const subscriptions = useApi('/subscriptions?per_page=500');
  const outgoing = useApi('/outgoing_webhooks?per_page=500');
  const logs = useApi('/webhook_logs?per_page=100', 10_000);
  const entries = rowsOf(logs.data, 'webhook_logs');
  const failuresOf = (match: (entry: Record<string, any>) => boolean) => entries.filter((entry) => match(entry) && entry.success !== true).length;
  const subscriptionRows = rowsOf(subscriptions.data, 'subscriptions');
  const outgoingRows = rowsOf(outgoing.data, 'outgoing_webhooks');
  return html`<${Section} title="Webhooks" loaded=${subscriptions} what="subscriptions">
    <h2>Subscriptions</h2>
    ${subscriptionRows.length === 0
      ? html`<${Empty}>No subscriptions.<//>`
      : html`<table class="grid" aria-label="Subscriptions">
          <thead><tr><th scope="col">Event</th><th scope="col">Target URL</th><th scope="col">Enabled</th><th scope="col" class="num">Recent failures</th></tr></thead>
          <tbody>${subscriptionRows.map((row) => html`<tr key=${row.id}><td>${row.event}</td><td class="url">${row.target_url}</td><td>${row.enabled === false ? 'No' : 'Yes'}</td><td class="num">${failuresOf((entry) => entry.subscription_id === row.id)}</td></tr>`)}</tbody>
        </table>`}
    <h2>Outgoing webhooks</h2>
    ${outgoingRows.length === 0
      ? html`<${Empty}>No outgoing webhooks.<//>`
      : html`<table class="grid" aria-label="Outgoing webhooks">
          <thead><tr><th scope="col">Name</th><th scope="col">Event</th><th scope="col" class="num">Recent failures</th></tr></thead>
          <tbody>${outgoingRows.map((row) => html`<tr key=${row.id}><td>${row.name ?? `#${row.id}`}</td><td>${row.event ?? row.events ?? ''}</td><td class="num">${failuresOf((entry) => entry.outgoing_webhook_id === row.id)}</td></tr>`)}</tbody>
        </table>`}
    <h2>Recent deliveries</h2>
    <p class="hint">Newest first, refreshed every 10 seconds. A delivery with no attempt left is dead-lettered; redrive it with <code>npm run redrive</code> (or SQS's move task in AWS) once the receiver is fixed.</p>
    ${logs.loading && !logs.data
      ? html`<p class="loading" role="status">Loading deliveries…</p>`
      : entries.length === 0
        ? html`<${Empty}>No deliveries in the last 30 days.<//>`
        : html`<table class="grid" aria-label="Recent deliveries">
            <thead><tr><th scope="col">When</th><th scope="col">Kind</th><th scope="col">Event</th><th scope="col">Target</th><th scope="col">Attempt</th><th scope="col">Outcome</th><th scope="col">Status code</th><th scope="col">Error</th></tr></thead>
            <tbody>
              ${entries.map((entry) => {
                const outcome = deliveryOutcome(entry);
                return html`<tr key=${entry.id} class=${`delivery ${outcome}`} data-outcome=${outcome} data-subscription-id=${entry.subscription_id ?? ''}>
                  <td>${formatTime(entry.created_at)}</td>
                  <td>${entry.kind}</td>
                  <td>${entry.event ?? ''}</td>
                  <td class="url">${entry.target_url}</td>
                  <td class="num">${entry.attempt}${entry.max_attempts ? ` of ${entry.max_attempts}` : ''}</td>
                  <td><span class=${`badge ${outcome}`}>${outcome === 'delivered' ? 'Delivered' : outcome === 'failed' ? 'Failed' : 'Dead-lettered'}</span></td>
                  <td class="num">${entry.status_code ?? '—'}</td>
                  <td>${entry.error ?? entry.response_excerpt ?? ''}</td>
                </tr>`;
              })}
            </tbody>
          </table>`}
  <//>`;
}
