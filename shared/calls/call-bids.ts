import { askForBids } from '../bidding/ask-bids.js';
import { countWin } from '../bidding/bid-log.js';
import { bidderRecord, keptBids, withBids, type BidsByBuyer, type PlacedBid } from '../bidding/bid-ranking.js';
import { isRtbBuyer } from '../bidding/bid-settings.js';
import { serviceRandom } from '../routing/random.js';
import { routeBuyers, type RoutingBuyer } from '../routing/route-buyers.js';
import type { TokenValues } from '../routing/token-filters.js';

/**
 * Real-time bidding in an inbound call (docs/rtb.md): the hooks the call state machine
 * (call-routing.ts, dial-outcome.ts, call-dial-plan.ts) calls. Before the first buyer is claimed, every eligible bidding buyer is asked
 * (shared/bidding/ask-bids.ts) and the standing bids are kept on the call (`rtb_bids`), so a
 * fall-through and a retried webhook dial the same bids without asking again; each ask is an
 * entry of the call's events (`buyer_ping`).
 */
type Call = Record<string, any>;

export interface CallBidding {
  /** The buyers as they take part (bid-ranking.ts withBids). */
  buyers: RoutingBuyer[];
  /** Writes the round's bid log, counts and cache (run beside the call's own write). */
  persist(): Promise<void>;
}

function text(value: unknown): string | null {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

/**
 * Asks the call's eligible bidding buyers for bids (`known`: a reservation's bids, used while
 * live) and records the asks on the call (mutated: `rtb_bids`, timeline entries through `note`).
 * A call whose buyers include no bidding buyer is left as it is, and nothing is read.
 */
export async function bidForCall(
  companyId: number,
  call: Call,
  buyers: readonly RoutingBuyer[],
  tokens: TokenValues,
  at: Date,
  note: (type: string, detail: Record<string, unknown>) => void,
  known?: BidsByBuyer,
): Promise<CallBidding> {
  if (!buyers.some((buyer) => isRtbBuyer(buyer.record))) return { buyers: [...buyers], persist: async () => {} };
  // Caps, business hours, filters, concurrency and pauses first: a buyer that may not take the call is never asked.
  const { eligible } = routeBuyers(buyers, { now: at, tokens }, serviceRandom);
  const round = await askForBids({
    companyId,
    now: at,
    eligible,
    facts: {
      caller: text(call.caller_number),
      callerState: text(tokens.state) ?? text(call.caller_state),
      callerZip: text(tokens.zip) ?? text(tokens.zip_code),
      offerId: typeof call.offer_id === 'number' ? call.offer_id : null,
      trafficSourceId: typeof call.traffic_source_id === 'number' ? call.traffic_source_id : null,
      tokens,
    },
    source: { kind: 'call', callId: Number(call.id) },
    known,
  });
  for (const ping of round.pings) {
    note('buyer_ping', {
      buyer_id: ping.buyer_id,
      request_url: ping.request_url.slice(0, 500),
      status_code: ping.status_code,
      latency_ms: ping.latency_ms,
      bid: ping.bid,
      number: ping.number ?? ping.sip,
      reason: ping.reason,
      detail: ping.detail,
      bid_expires_at: ping.bid_expires_at,
      cached: ping.cached,
    });
  }
  // The best bids only: the call item holds them for every later webhook (bid-ranking.ts KEPT_BIDS).
  const kept = keptBids(round.bids);
  if (Object.keys(kept).length) call.rtb_bids = kept;
  return { buyers: withBids(buyers, kept), persist: round.persist };
}

/** The call's buyers as they take part in a later claim (a fall-through, a menu's answer): the call's bids, no new asks. */
export function buyersWithCallBids(buyers: readonly RoutingBuyer[], call: Call): RoutingBuyer[] {
  return withBids(buyers, call.rtb_bids as BidsByBuyer | undefined);
}

/** A buyer record read for a dial, as it takes part in this call (a bidder at its returned number). */
export function dialedBuyer(record: Record<string, unknown> | undefined, call: Call): Record<string, unknown> | undefined {
  if (!record || !isRtbBuyer(record)) return record;
  const bid = (call.rtb_bids as BidsByBuyer | undefined)?.[String(record.id)] as PlacedBid | undefined;
  return bid ? bidderRecord(record, bid) : record;
}

/** Counts a win for the bidder a call was first dialed to (the reports by buyer). */
export async function countCallWin(companyId: number, call: Call, buyerId: number | undefined, at: Date): Promise<void> {
  if (buyerId !== undefined && (call.rtb_bids as BidsByBuyer | undefined)?.[String(buyerId)]) await countWin(companyId, buyerId, at);
}
