import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { allLoaded, Empty, ErrorBox, html, rowsOf, Section, useAction, useApi } from '../ui.js';

/** Tracking numbers: buy one for an offer, point one at another offer. */
function NumberRow({ number, offers, onChanged }: { number: Record<string, any>; offers: Array<Record<string, any>>; onChanged: () => Promise<void> }) {
  const change = useAction();
  const point = async (event: Event) => {
    const offerId = Number((event.target as HTMLSelectElement).value);
    if (await change.run(() => api(`/phone_numbers/${number.id}`, { method: 'PUT', body: { offer_id: offerId } }))) await onChanged();
  };
  return html`<tr key=${number.id}>
    <td>${number.number}</td>
    <td>
      <label class="sr-only" for=${`offer-of-${number.id}`}>Offer of ${number.number}</label>
      <select id=${`offer-of-${number.id}`} value=${number.offer_id ?? ''} onChange=${point} disabled=${change.busy}>
        ${number.offer_id ? null : html`<option value="">No offer</option>`}
        ${offers.map((offer) => html`<option value=${offer.id}>${offer.name}</option>`)}
      </select>
      <${ErrorBox} error=${change.error} />
    </td>
    <td>${number.traffic_source?.name ?? '—'}</td>
    <td>${number.status ?? ''}</td>
  </tr>`;
}

export function Numbers() {
  const loaded = useApi('/phone_numbers?per_page=500');
  const offersLoaded = useApi('/offers?per_page=500&columns=id,name');
  const offers = rowsOf(offersLoaded.data, 'offers');
  const numbers = rowsOf(loaded.data, 'phone_numbers');
  const buy = useAction();
  const [offerId, setOfferId] = useState('');
  const purchase = async (event: Event) => {
    event.preventDefault();
    if (await buy.run(() => api('/phone_numbers', { method: 'POST', body: { offer_id: Number(offerId || offers[0]?.id) } }))) await loaded.reload();
  };
  return html`<${Section} title="Numbers" loaded=${allLoaded(loaded, offersLoaded)} what="numbers">
    <form class="filters" onSubmit=${purchase} aria-label="Buy a number">
      <label>Offer <select value=${offerId} onChange=${(event: Event) => setOfferId((event.target as HTMLSelectElement).value)}>${offers.map((offer) => html`<option value=${offer.id}>${offer.name}</option>`)}</select></label>
      <button type="submit" disabled=${buy.busy || offers.length === 0}>Buy a number</button>
    </form>
    <${ErrorBox} error=${buy.error} />
    ${numbers.length === 0
      ? html`<${Empty}>No tracking numbers yet.<//>`
      : html`<table class="grid" aria-label="Tracking numbers">
          <thead><tr><th scope="col">Number</th><th scope="col">Offer</th><th scope="col">Traffic source</th><th scope="col">Status</th></tr></thead>
          <tbody>${numbers.map((number) => html`<${NumberRow} key=${number.id} number=${number} offers=${offers} onChanged=${loaded.reload} />`)}</tbody>
        </table>`}
  <//>`;
}
