import { allLoaded, Empty, html, namesById, rowsOf, Section, useApi } from '../ui.js';

/** Offers with the buyers they route to and the tracking numbers that point at them. */
export function Offers() {
  const loaded = useApi('/offers?per_page=500');
  const buyers = useApi('/buyers?per_page=500&columns=id,name');
  const numbers = useApi('/phone_numbers?per_page=500');
  const offers = rowsOf(loaded.data, 'offers');
  const buyerNames = namesById(buyers.data, 'buyers');
  const numbersOf = (offerId: number) => rowsOf(numbers.data, 'phone_numbers').filter((number) => number.offer_id === offerId);
  return html`<${Section} title="Offers" loaded=${allLoaded(loaded, buyers, numbers)} what="offers">
    ${offers.length === 0
      ? html`<${Empty}>No offers yet.<//>`
      : html`<table class="grid" aria-label="Offers">
          <thead><tr><th scope="col">Offer</th><th scope="col">Buyers</th><th scope="col">Tracking numbers</th><th scope="col">Time zone</th></tr></thead>
          <tbody>
            ${offers.map(
              (offer) => html`<tr key=${offer.id}>
                <td>${offer.name}</td>
                <td>${(offer.buyer_ids ?? []).map((id: number) => buyerNames.get(id) ?? `#${id}`).join(', ') || '—'}</td>
                <td>${numbersOf(offer.id).map((number) => number.number).join(', ') || '—'}</td>
                <td>${offer.time_zone ?? ''}</td>
              </tr>`,
            )}
          </tbody>
        </table>`}
  <//>`;
}
