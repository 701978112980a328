import { biddingPort } from '../adapters/bidding.js';
import type { BidHttpResponse } from '../ports/bidding.js';
import type { RankedBuyer } from '../routing/route-buyers.js';
import { readBidAnswer } from './bid-answer.js';
import { bidCacheHash, cacheBids, cachedBids } from './bid-cache.js';
import { logBuyerPings, type BuyerPing } from './bid-log.js';
import { liveBids, type BidsByBuyer, type PlacedBid } from './bid-ranking.js';
import { prepareBid, secretNamesOf, type BidFacts } from './bid-request.js';
import { isRtbBuyer, rtbSettings } from './bid-settings.js';
import { secretValues } from './secret-values.js';

/**
 * One bidding round (docs/rtb.md, "Timing"): every eligible bidding buyer (caps, business
 * hours, filters, concurrency and pauses already checked by the routing decision) is asked at
 * once, each within its own timeout, so the round lasts at most the longest of them; a bid
 * known for the same call (the ping's behind a post, or a cached one for the same caller and
 * tokens) is used instead of asking again. A bidder can only be left out, with its reason.
 *
 * Reads before asking: the bid cache item (one GetItem) and the secret items the templates name
 * (kept a minute, secret-values.ts), side by side, and beside them the caller's `beforeAsking`. Writes after (`persist`, for the caller to run
 * beside its own writes): the bid log (BatchWriteItem), the hour's counts and the new bids in the
 * cache (one UpdateItem each), whatever the number of buyers.
 */
export interface BidRound {
  companyId: number;
  now: Date;
  /** The routing decision's eligible buyers; the bidding ones among them are asked. */
  eligible: readonly RankedBuyer[];
  facts: BidFacts;
  source: { kind: 'call'; callId: number } | { kind: 'ping'; pingId: string };
  /** Bids already made for this call (a reservation's): used while live, asked again once lapsed. */
  known?: BidsByBuyer;
  /**
   * Run beside the round's reads, before any bidder is asked (a partner ping's rate limits): when
   * it throws, nobody is asked and the round fails with its error.
   */
  beforeAsking?: () => Promise<void>;
  /**
   * When the request that asks arrived (performance.now()), for a partner's ping: each bidder's
   * timeout then counts from the arrival, not from its ask (askTimeoutMs), so a silent bidder
   * holds the answer back by at most its timeout.
   */
  arrivedAt?: number;
}

/**
 * How long a bidder is waited for: its whole timeout from the ask, or, counted from the request's
 * arrival, what is left of it after the reads before the round, never under half of it (a cold
 * start's slow first reads must not leave a bidder no time at all). Pure.
 */
export function askTimeoutMs(timeoutMs: number, arrivedAt: number | undefined, askedAt: number): number {
  if (arrivedAt === undefined) return timeoutMs;
  const left = Math.floor(arrivedAt + timeoutMs - askedAt);
  return Math.min(timeoutMs, Math.max(Math.ceil(timeoutMs / 2), left));
}

export interface BidRoundResult {
  /** Standing bids by buyer id. */
  bids: Record<string, PlacedBid>;
  /** Every bidding buyer's ask or reuse, in the order of `eligible`. */
  pings: BuyerPing[];
  /** Buyers left out and why (`rtb_<reason>`), for the routing's excluded list. */
  leftOut: Array<{ id: number; name: string | null; reason: string }>;
  /** Writes the round's log, counts and cache. */
  persist(): Promise<void>;
}

/** Extra time granted past a bidder's timeout before the round stops waiting for it (the adapter times out first). */
const DEADLINE_GRACE_MS = 50;

/** The bidder's answer, or a timeout when even the adapter did not settle in time. */
function withinDeadline(asked: Promise<BidHttpResponse>, timeoutMs: number): Promise<BidHttpResponse> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<BidHttpResponse>((resolve) => {
    timer = setTimeout(() => resolve({ status: null, body: '', durationMs: timeoutMs, error: `timeout after ${timeoutMs} ms`, refused: false }), timeoutMs + DEADLINE_GRACE_MS);
  });
  return Promise.race([asked.catch((error: unknown) => ({ status: null, body: '', durationMs: 0, error: `connection error: ${(error as Error).message}`, refused: false })), deadline]).finally(() => clearTimeout(timer));
}

const EMPTY_ROUND: BidRoundResult = { bids: {}, pings: [], leftOut: [], persist: async () => {} };

export async function askForBids(round: BidRound): Promise<BidRoundResult> {
  const bidders = round.eligible.filter((buyer) => isRtbBuyer(buyer.record));
  if (bidders.length === 0) return EMPTY_ROUND;
  const { companyId, now, facts } = round;
  const hash = bidCacheHash(facts);
  const known = liveBids(round.known, now);
  const settingsOf = new Map(bidders.map((buyer) => [buyer.id, rtbSettings(buyer.record)]));
  const names = [...new Set(bidders.flatMap((buyer) => secretNamesOf(settingsOf.get(buyer.id)!)))];
  const [cached, secrets] = await Promise.all([cachedBids(companyId, hash, now), names.length ? secretValues(companyId, names) : new Map<string, string>(), round.beforeAsking?.()]);

  const base = (buyer: RankedBuyer) => ({
    buyer_id: buyer.id,
    buyer_name: buyer.name,
    source: round.source.kind,
    call_id: round.source.kind === 'call' ? round.source.callId : null,
    ping_id: round.source.kind === 'ping' ? round.source.pingId : null,
  });
  const reused = (buyer: RankedBuyer, bid: PlacedBid): BuyerPing => ({
    ...base(buyer),
    request_url: '',
    method: '',
    request_headers: {},
    status_code: null,
    latency_ms: 0,
    bid: bid.amount,
    number: bid.number,
    sip: bid.sip,
    bid_id: bid.bid_id,
    reason: null,
    detail: null,
    bid_expires_at: bid.expires_at,
    cached: true,
  });

  const asks = bidders.map(async (buyer): Promise<{ ping: BuyerPing; bid?: PlacedBid }> => {
    const standing = known[String(buyer.id)] ?? cached[String(buyer.id)];
    if (standing) return { ping: reused(buyer, standing), bid: standing };
    const settings = settingsOf.get(buyer.id)!;
    const prepared = prepareBid(settings, facts, secrets);
    const common = { ...base(buyer), method: settings.method, cached: false, bid_id: null, number: null, sip: null, bid_expires_at: null };
    if (!prepared.ok) {
      return { ping: { ...common, request_url: '', request_headers: {}, status_code: null, latency_ms: 0, bid: null, reason: prepared.reason, detail: prepared.detail } };
    }
    const timeoutMs = askTimeoutMs(settings.timeoutMs, round.arrivedAt, performance.now());
    const response = await withinDeadline(biddingPort().ask({ ...prepared.bid.request, timeoutMs }), timeoutMs);
    const outcome = readBidAnswer(settings, response);
    const logged = { ...common, request_url: prepared.bid.shownUrl, request_headers: prepared.bid.shownHeaders, status_code: response.status, latency_ms: response.durationMs };
    if (!outcome.ok) return { ping: { ...logged, bid: outcome.amount ?? null, reason: outcome.reason, detail: outcome.detail } };
    const bid: PlacedBid = {
      buyer_id: buyer.id,
      amount: outcome.amount,
      number: outcome.number,
      sip: outcome.sip,
      expires_at: new Date(now.getTime() + outcome.expiresInSeconds * 1000).toISOString(),
      bid_id: outcome.bidId,
    };
    return { ping: { ...logged, bid: bid.amount, number: bid.number, sip: bid.sip, bid_id: bid.bid_id, reason: null, detail: null, bid_expires_at: bid.expires_at }, bid };
  });
  const answers = await Promise.all(asks);

  const bids: Record<string, PlacedBid> = {};
  const leftOut: BidRoundResult['leftOut'] = [];
  for (const [index, answer] of answers.entries()) {
    if (answer.bid) bids[String(answer.bid.buyer_id)] = answer.bid;
    else leftOut.push({ id: bidders[index]!.id, name: bidders[index]!.name, reason: `rtb_${answer.ping.reason}` });
  }
  const pings = answers.map((answer) => answer.ping);
  const fresh = answers.filter((answer) => answer.bid && !answer.ping.cached).map((answer) => answer.bid!);
  return {
    bids,
    pings,
    leftOut,
    persist: async () => {
      await Promise.all([logBuyerPings(companyId, pings, now), cacheBids(companyId, hash, fresh, now)]);
    },
  };
}
