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

/** One ask of a call's bidding buyers: the pings made and the bids kept (keptBids). */
interface CallBidRound {
  pings: Awaited<ReturnType<typeof askForBids>>['pings'];
  kept: Record<string, PlacedBid>;
  persist(): Promise<void>;
}

/**
 * Asks the call's eligible bidding buyers for bids (`known`: bids the call or a reservation
 * holds, used while live instead of asking again). Undefined when none of `buyers` bids: nothing
 * is read or asked. Does not touch the call (recordBids does).
 */
async function askCallBids(companyId: number, call: Call, buyers: readonly RoutingBuyer[], tokens: TokenValues, at: Date, known?: BidsByBuyer): Promise<CallBidRound | undefined> {
  if (!buyers.some((buyer) => isRtbBuyer(buyer.record))) return undefined;
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
  // The best bids only: the call item holds them for every later webhook (bid-ranking.ts KEPT_BIDS).
  return { pings: round.pings, kept: keptBids(round.bids), persist: round.persist };
}

/** Records a round on the call (mutated): a `buyer_ping` entry per ask (through `note`) and the kept bids as `rtb_bids`. */
function recordBids(call: Call, round: CallBidRound, note: (type: string, detail: Record<string, unknown>) => void): void {
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
  if (Object.keys(round.kept).length) call.rtb_bids = round.kept;
}

/**
 * Asks the call's eligible bidding buyers for bids at its arrival (`known`: a reservation's bids,
 * used while live) and records the asks on the call (mutated: `rtb_bids`, timeline entries through
 * `note`). A call whose buyers include no bidding buyer is left as it is, and nothing is read.
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
  const round = await askCallBids(companyId, call, buyers, tokens, at, known);
  if (!round) return { buyers: [...buyers], persist: async () => {} };
  recordBids(call, round, note);
  return { buyers: withBids(buyers, round.kept), persist: round.persist };
}

/**
 * Bidding for a call routed later than its arrival (an IVR menu's answer, an outbound call's
 * callee answering), inside a transition whose change may run again on a fresh copy of the call:
 * the bidders are asked once (the first run), and every run records that round on its copy.
 * Bids the call already holds are used while live (a retried webhook asks nobody).
 */
export interface BidsAcrossRuns {
  /** The buyers as they take part in this claim (asks on the first run only). */
  buyers(companyId: number, call: Call, buyers: readonly RoutingBuyer[], tokens: TokenValues, at: Date): Promise<RoutingBuyer[]>;
  /** Records the round on this run's copy of the call (after the claim, whether it was made afresh or reused). */
  record(call: Call, note: (type: string, detail: Record<string, unknown>) => void): void;
  /** Writes the round's bid log, counts and cache (once, after the transition). */
  persist(): Promise<void>;
}

export function bidsAcrossRuns(): BidsAcrossRuns {
  let round: CallBidRound | undefined;
  return {
    async buyers(companyId, call, buyers, tokens, at) {
      round ??= await askCallBids(companyId, call, buyers, tokens, at, call.rtb_bids as BidsByBuyer | undefined);
      return withBids(buyers, round?.kept ?? (call.rtb_bids as BidsByBuyer | undefined));
    },
    record(call, note) {
      if (round) recordBids(call, round, note);
    },
    async persist() {
      await round?.persist();
    },
  };
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

/** Counts a win for a bidder the call is dialed to at its bid: the first dial, a fall-through, a menu's or callee's routing (the reports by buyer). */
export async function countCallWin(companyId: number, call: Call, buyerId: number | undefined, at: Date): Promise<void> {
  if (buyerId !== undefined && (call.rtb_bids as BidsByBuyer | undefined)?.[String(buyerId)]) await countWin(companyId, buyerId, at);
}
