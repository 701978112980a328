import type { RoutingBuyer } from '../routing/route-buyers.js';
import { isRtbBuyer } from './bid-settings.js';

/**
 * Bids ranked with the fixed ones (docs/rtb.md, "Ranking"). A bidding buyer takes part only with
 * a live bid, and then as a buyer whose number is the one it returned and whose price is its bid:
 * its record is overlaid, so the routing core (caps, claims, conversions, payouts, reports) treats
 * it as any buyer. Once any bid is in, every buyer of the call or ping is ranked by what it pays
 * (route_by_type revenue: highest first, weighted random among equal prices). Pure.
 */
export interface PlacedBid {
  buyer_id: number;
  amount: number;
  /** E.164 to dial, or null with `sip`. */
  number: string | null;
  sip: string | null;
  /** ISO time the bid lapses. */
  expires_at: string;
  bid_id: string | null;
}

/** Bids by buyer id (as stored on a call, a ping's log entry and a reservation). */
export type BidsByBuyer = Readonly<Record<string, PlacedBid>>;

/**
 * Bids a call, ping log entry or reservation keeps: the best ones (a bid is some 150 bytes, and a
 * call item is rewritten by every webhook and held to DynamoDB's 400 KB).
 */
export const KEPT_BIDS = 25;

/** The best `KEPT_BIDS` bids (by amount; the rest cannot be dialed then). */
export function keptBids(bids: BidsByBuyer): Record<string, PlacedBid> {
  const entries = Object.entries(bids);
  if (entries.length <= KEPT_BIDS) return { ...bids };
  return Object.fromEntries(entries.sort((a, b) => b[1].amount - a[1].amount).slice(0, KEPT_BIDS));
}

/** The bids still live at `now`. */
export function liveBids(bids: BidsByBuyer | undefined, now: Date): Record<string, PlacedBid> {
  return Object.fromEntries(Object.entries(bids ?? {}).filter(([, bid]) => Date.parse(bid.expires_at) > now.getTime()));
}

/** A bidding buyer's record as it takes part with `bid`: dialed at the returned number, paying the bid. */
export function bidderRecord(record: Record<string, unknown>, bid: PlacedBid): Record<string, unknown> {
  return {
    ...record,
    number: bid.number ?? bid.sip,
    current_conversion_revenue: bid.amount,
    // The bid is the price of this call, whatever the buyer's schedule says.
    buyer_conversions_schedule: [],
    route_by_type: 'revenue',
  };
}

/**
 * The buyers as they take part given `bids`: bidding buyers without a bid left out, those with
 * one overlaid (bidderRecord), and every buyer ranked by price once any bid is in. Buyers of an
 * offer without bidding buyers come back as they were.
 */
export function withBids(buyers: readonly RoutingBuyer[], bids: BidsByBuyer | undefined): RoutingBuyer[] {
  if (!buyers.some((buyer) => isRtbBuyer(buyer.record))) return [...buyers];
  const anyBid = Object.keys(bids ?? {}).length > 0;
  return buyers.flatMap((buyer) => {
    if (!isRtbBuyer(buyer.record)) return [anyBid ? { ...buyer, record: { ...buyer.record, route_by_type: 'revenue' } } : buyer];
    const bid = bids?.[String(buyer.record.id)];
    return bid ? [{ ...buyer, record: bidderRecord(buyer.record, bid) }] : [];
  });
}

/** Best bid first, keeping the given order among equal bids (the ping's answer). */
export function bestFirst<T extends { bid: number | null }>(list: readonly T[]): T[] {
  return list
    .map((item, index) => ({ item, index }))
    .sort((a, b) => (b.item.bid ?? -Infinity) - (a.item.bid ?? -Infinity) || a.index - b.index)
    .map(({ item }) => item);
}
