import type { EventName } from '../events/event-names.js';
import type { StoredRecord } from '../db/records.js';
import { claimInSave, type ClaimChoice, type ClaimInSave } from '../routing/claim.js';
import type { NumberReservation } from '../routing/reservations.js';
import { serviceRandom } from '../routing/random.js';
import { loadRoutingBuyers } from '../routing/router.js';
import type { TokenValues } from '../routing/token-filters.js';
import { conversionTerms } from '../buyers/conversion-terms.js';
import { attemptBuyerFacts } from './attempt-buyer.js';
import { bidForCall, countCallWin, type BidsAcrossRuns, type CallBidding } from './call-bids.js';
import { applyBuyerConversion, convertForBuyer } from './call-conversion.js';
import { instructionFor, type CallInstruction } from './call-dial-plan.js';
import { finishCall } from './call-end.js';
import { buyerIdsOfOffer, type CallStartReads } from './call-start-reads.js';
import { endBeforeDial, type Call } from './call-states.js';
import { firstTargets } from './call-targets.js';
import { timeline } from './call-timeline.js';
import { transition, type ClaimAcrossRuns } from './call-transition.js';

/**
 * Choosing and claiming a call's first target: the first eligible buyer (its claim riding in the
 * save that records it, shared/routing/claim.ts), with the others queued for the fall-through.
 */

/** How a new call was routed: to a target before buyers (`agentId`), or to buyers (their claim, and the bids asked). */
export interface ArrivalRoute {
  claim?: { buyerIds: Set<number>; inSave: ClaimInSave };
  agentId?: number;
  bidding?: CallBidding;
}

/**
 * Routes a call at its arrival: the offer's targets before buyers (its call center agents,
 * call-targets.ts) first, else its buyers, a ping's reserved buyers only; bidding buyers are
 * asked first and their bids rank with the fixed ones (call-bids.ts). The first buyer's claim is
 * made to ride in the transaction that writes the call (claimInSave). Mutates `call`.
 */
export async function routeArrival(companyId: number, call: Call, arrival: { reservation: NumberReservation | undefined; offer: StoredRecord | undefined; started: CallStartReads; tokens: TokenValues }, at: Date): Promise<ArrivalRoute> {
  const { reservation, offer, started, tokens } = arrival;
  const buyerIds = reservation?.buyer_ids.length ? new Set(reservation.buyer_ids) : offer ? await buyerIdsOfOffer(companyId, offer, started) : new Set<number>();
  // The offer's call center agents first, buyers after (not for a ping's reserved buyers).
  const agentId = reservation?.buyer_ids.length ? undefined : await firstTargets.routeFirst(companyId, call, offer, buyerIds, at, (type, detail) => timeline(call, at, type, detail));
  if (agentId !== undefined) return { agentId };
  // The buyers and counters read beside the configuration, when they were (call-start-reads.ts).
  // Bidding buyers are asked first; their bids rank with the fixed ones (call-bids.ts).
  const bidding = await bidForCall(companyId, call, await started.buyers.load(buyerIds), tokens, at, (type, detail) => timeline(call, at, type, detail), reservation?.rtb_bids);
  return { bidding, claim: { buyerIds, inSave: claimInSave(companyId, bidding.buyers, { now: at, tokens }, serviceRandom) } };
}

/**
 * Routes a call later than its arrival (an outbound call its callee answered, an IVR answer):
 * chooses the first eligible buyer of `buyerIds` (its claim to ride in the transition's save,
 * `claims.inSave`) and makes it attempt 1, queueing the others; with none the call ends as
 * no_buyer. Mutates `call` (to be saved).
 */
export async function routeFirstBuyer(companyId: number, call: Call, buyerIds: Set<number>, tokens: TokenValues, at: Date, claims: ClaimAcrossRuns, bids: BidsAcrossRuns): Promise<ClaimChoice> {
  // Bidding buyers are asked here as at an arrival, once across the change's runs (call-bids.ts).
  const claimed = await claims.choose(async () => claimInSave(companyId, await bids.buyers(companyId, call, await loadRoutingBuyers(companyId, buyerIds), tokens, at), { now: at, tokens }, serviceRandom));
  bids.record(call, (type, detail) => timeline(call, at, type, detail));
  recordFirstBuyer(call, buyerIds, claimed, at);
  return claimed;
}

/** Makes a claim's buyer the call's attempt 1 (queueing the others), or ends the call as no_buyer; mutates `call`. */
export function recordFirstBuyer(call: Call, buyerIds: Set<number>, claimed: ClaimChoice, at: Date): void {
  timeline(call, at, 'routing', {
    candidates: [...buyerIds],
    chosen: claimed.buyer?.id ?? null,
    excluded: claimed.excluded.map((buyer) => ({ buyer_id: buyer.id, reason: buyer.reason })),
  });
  if (!claimed.buyer) {
    endBeforeDial(call, 'no_buyer', at);
    return;
  }
  const buyer = claimed.buyer;
  call.attempts = [{ attempt: 1, buyer_id: buyer.id, buyer_name: buyer.name, status: 'ringing', started_at: at.toISOString(), answered_at: null, answered_duration: null, released: false, ...attemptBuyerFacts(buyer.record) }];
  call.queue = 'next' in claimed ? claimed.next.map((next) => next.id) : [];
  call.buyer_id = buyer.id;
  call.buyer = buyer.name;
  timeline(call, at, 'dial', { attempt: 1, buyer_id: buyer.id, number: buyer.record.number });
}

/** The save of a call routed to its first buyer (`call_ringing`), its claim riding in it (a lost save wrote none). */
export function ringingSave(claimed: ClaimChoice, claims: ClaimAcrossRuns) {
  return { result: undefined, save: true, events: ['call_ringing'] as EventName[], claim: claims.inSave(claimed) };
}

/**
 * After a call was routed later than its arrival (an outbound callee answered, an IVR answer):
 * an ended call is finished, a buyer converting on dial is paid, and the call gets its instruction.
 */
export async function afterRouting(companyId: number, call: Call, saved: boolean, claimed: ClaimChoice | undefined, at: Date): Promise<CallInstruction> {
  if (!saved) return instructionFor(companyId, call);
  if (!call.in_progress) {
    await finishCall(companyId, call.id, { totalDuration: 0, at });
    return { kind: 'hangup', reason: String(call.status), companyId, callId: call.id };
  }
  const buyer = claimed?.buyer;
  await countCallWin(companyId, call, buyer?.id, at);
  if (buyer && conversionTerms(buyer.record, at).duration === 0) {
    const onDial = await transition(companyId, call.id, async (fresh) => ({ result: await convertForBuyer(companyId, fresh, buyer.record, 0, at), save: true }), at);
    if (onDial.result) await applyBuyerConversion(companyId, onDial.call, buyer.record, at);
  }
  return instructionFor(companyId, call, { buyer: claimed?.buyer?.record });
}
