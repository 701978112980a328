import { askForBids, type BidRoundResult } from './ask-bids.js';
import { bestFirst } from './bid-ranking.js';
import { bidderRecord } from './bid-ranking.js';
import { isRtbBuyer } from './bid-settings.js';
import type { RoutingDecision } from '../routing/route-buyers.js';
import type { TokenValues } from '../routing/token-filters.js';

/**
 * Real-time bidding in a partner's ping (docs/rtb.md): on a webhook with
 * `include_dynamic_buyers`, the eligible bidding buyers are asked as for a call, and the answer
 * lists them beside the fixed buyers with their real bids, best first; their bids go into the
 * ping's log entry, for the post to hand to the call. Without it, bidding buyers are left out
 * (`dynamic_buyers_not_included`).
 */
export interface PingBidding {
  decision: RoutingDecision;
  round: BidRoundResult | undefined;
}

export async function bidForPing(input: {
  companyId: number;
  webhook: Record<string, unknown>;
  decision: RoutingDecision;
  now: Date;
  caller: string | null;
  trafficSourceId: number | null;
  tokens: TokenValues;
  pingId: string;
  /** Run beside the round's reads before any bidder is asked (the ping's rate limits); not run when nobody is to be asked. */
  beforeAsking?: () => Promise<void>;
  /** When the ping arrived (performance.now()): bidders' timeouts count from it (ask-bids.ts askTimeoutMs). */
  arrivedAt?: number;
}): Promise<PingBidding> {
  const { decision } = input;
  if (!decision.eligible.some((buyer) => isRtbBuyer(buyer.record))) return { decision, round: undefined };
  if (input.webhook.include_dynamic_buyers !== true) {
    return {
      decision: {
        eligible: decision.eligible.filter((buyer) => !isRtbBuyer(buyer.record)),
        excluded: [...decision.excluded, ...decision.eligible.filter((buyer) => isRtbBuyer(buyer.record)).map((buyer) => ({ id: buyer.id, name: buyer.name, reason: 'dynamic_buyers_not_included' }))],
      },
      round: undefined,
    };
  }
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : null);
  const round = await askForBids({
    companyId: input.companyId,
    now: input.now,
    eligible: decision.eligible,
    facts: {
      caller: input.caller,
      callerState: text(input.tokens.state),
      callerZip: text(input.tokens.zip) ?? text(input.tokens.zip_code),
      offerId: typeof input.webhook.offer_id === 'number' ? input.webhook.offer_id : null,
      trafficSourceId: input.trafficSourceId,
      tokens: input.tokens,
    },
    source: { kind: 'ping', pingId: input.pingId },
    ...(input.beforeAsking ? { beforeAsking: input.beforeAsking } : {}),
    ...(input.arrivedAt !== undefined ? { arrivedAt: input.arrivedAt } : {}),
  });
  const eligible = decision.eligible.flatMap((buyer) => {
    if (!isRtbBuyer(buyer.record)) return [buyer];
    const bid = round.bids[String(buyer.id)];
    return bid ? [{ ...buyer, bid: bid.amount, record: bidderRecord(buyer.record, bid) }] : [];
  });
  return { decision: { eligible: bestFirst(eligible), excluded: [...decision.excluded, ...round.leftOut] }, round };
}
