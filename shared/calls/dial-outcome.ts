import { conversionTerms } from '../buyers/conversion-terms.js';
import { applyCounterChange, blindCounterWrite } from '../buyers/counters.js';
import { buyerTimeZone } from '../buyers/limits.js';
import { getRecord } from '../db/records.js';
import type { EventName } from '../events/event-names.js';
import { METRIC } from '../observability/metric-names.js';
import { countMetric } from '../observability/metrics.js';
import { claimInSave, type ClaimChoice } from '../routing/claim.js';
import { serviceRandom } from '../routing/random.js';
import type { TokenValues } from '../routing/token-filters.js';
import { attemptBuyerFacts, attemptBuyerZone, attemptCarriedBuyer, callCountsChange, countOnBuyer } from './attempt-buyer.js';
import { buyersWithCallBids, countCallWin } from './call-bids.js';
import { applyBuyerConversion, convertForBuyer, lastPaid, paidWrite } from './call-conversion.js';
import { instructionFor, type CallInstruction } from './call-dial-plan.js';
import type { Attempt } from './call-states.js';
import { firstTargets } from './call-targets.js';
import { attemptTarget, timeline } from './call-timeline.js';
import { claimAcrossRuns, transition } from './call-transition.js';
import { fallThroughReads, type DialKnown } from './dial-reads.js';

/** A dial's outcome: its target answered, or its dial ended (the call is done, or falls through to the next buyer). */

/** The buyer picked up (counted once per attempt). */
export async function buyerAnswered(companyId: number, callId: number, attemptNumber: number, at: Date): Promise<void> {
  await transition(companyId, callId, async (call) => {
    const attempt = (call.attempts as Attempt[])[attemptNumber - 1];
    // A late or replayed callback about an ended call changes nothing.
    if (!call.in_progress || !attempt || attempt.status !== 'ringing') return { result: undefined, save: false };
    attempt.status = 'answered';
    attempt.answered_at = at.toISOString();
    call.status = 'in_progress';
    call.buyer_id = attempt.buyer_id;
    call.buyer = attempt.buyer_name;
    timeline(call, at, 'answered', { ...attemptTarget(attemptNumber, attempt) });
    const buyerId = attempt.buyer_id;
    if (buyerId === null) return { result: buyerId, save: true, events: ['call_forwarded'] };
    // The connection counts in the save's own transaction (a retry saves nothing, so counts
    // nothing), in the buyer's zone as the attempt holds it: no read of the buyer or its counters.
    const connection = { increments: { connection: 1 }, existingOnly: true };
    const zone = typeof attempt.time_zone === 'string' && attempt.time_zone ? attempt.time_zone : undefined;
    if (zone) {
      return {
        result: buyerId,
        save: true,
        events: ['call_forwarded'],
        // A new period began since the claim (or the counters are gone): counted after the save instead.
        optional: { writes: [blindCounterWrite(companyId, buyerId, zone, at, connection)], otherwise: () => applyCounterChange(companyId, buyerId, zone, at, connection) },
      };
    }
    // An attempt claimed before it carried the zone: the buyer is read for it, after the save.
    const counted = async () => {
      const buyerZone = await attemptBuyerZone(companyId, attempt);
      if (buyerZone) await countOnBuyer(companyId, buyerId, buyerZone, at, { connection: true });
    };
    return { result: buyerId, save: true, events: ['call_forwarded'], afterSave: counted };
  }, at);
}

export type DialOutcome = 'completed' | 'answered' | 'no-answer' | 'busy' | 'failed' | 'canceled';

/**
 * A dial ended: after a conversation (`completed` with the answered seconds) the call is done;
 * otherwise the next eligible buyer of the call's queue is claimed and dialed, or the call ends.
 */
export async function dialResult(companyId: number, callId: number, attemptNumber: number, outcome: DialOutcome, answeredDuration: number, at: Date): Promise<CallInstruction> {
  const talked = (outcome === 'completed' || outcome === 'answered') && answeredDuration > 0;
  let claimedNext: ClaimChoice | undefined;
  let nextDial: DialKnown | undefined;
  // The next buyer is claimed in the save's transaction (claimInSave).
  const claims = claimAcrossRuns();
  const { call, saved } = await transition(companyId, callId, async (call) => {
    const attempts = call.attempts as Attempt[];
    const attempt = attempts[attemptNumber - 1];
    if (!call.in_progress || !attempt || attempt.status === 'completed' || attempt.status === 'no-answer' || attempt.status === 'busy' || attempt.status === 'failed' || attempt.status === 'canceled') {
      return { result: { answeredBefore: true, buyerId: undefined as number | null | undefined, agentId: undefined as number | undefined, converted: false }, save: false };
    }
    const answeredBefore = attempt.status === 'answered';
    attempt.released = true;
    // The buyer as the attempt carries it (its zone; its terms when claimed, if the talk may
    // convert), else read; and, when the talk may convert, when this caller was last paid by it:
    // side by side.
    const mayConvert = talked && attempt.buyer_id !== null && !call.buyer_converted;
    const carried = attemptCarriedBuyer(attempt, mayConvert);
    // Terms known from the attempt without a price or a duplicate timeframe need no history.
    const carriedTerms = carried && mayConvert ? conversionTerms(carried, at) : undefined;
    const needsHistory = mayConvert && (!carriedTerms || (carriedTerms.revenue !== null && carriedTerms.duplicateTimeframe !== null));
    const [buyer, paidAt] = await Promise.all([
      attempt.buyer_id === null || carried ? carried : getRecord(companyId, 'buyers', attempt.buyer_id),
      needsHistory ? lastPaid(companyId, `b${String(attempt.buyer_id)}`, call.caller_number) : undefined,
    ]);
    let converted = false;
    if (talked) {
      attempt.status = 'completed';
      attempt.answered_duration = answeredDuration;
      attempt.answered_at ??= at.toISOString();
      call.answered_duration = answeredDuration;
      call.buyer_id = attempt.buyer_id;
      call.buyer = attempt.buyer_name;
      call.status = 'completed';
      timeline(call, at, 'dial_ended', { ...attemptTarget(attemptNumber, attempt), outcome: 'completed', answered_duration: answeredDuration });
      if (buyer) converted = await convertForBuyer(companyId, call, buyer, answeredDuration, at, mayConvert ? { at: paidAt } : undefined);
    } else {
      attempt.status = outcome === 'completed' || outcome === 'answered' ? 'no-answer' : outcome;
      timeline(call, at, 'dial_ended', { ...attemptTarget(attemptNumber, attempt), outcome: attempt.status });
      if (outcome !== 'canceled' && call.in_progress) {
        const remaining = new Set((call.queue as number[]) ?? []);
        // The buyers to claim from and what the next buyer's dial needs besides the buyer (offer,
        // recording rules, SIP headers), in one read rather than two or after the save.
        claimedNext = remaining.size
          ? await claims.choose(async () => {
              const reads = await fallThroughReads(companyId, (call.offer_id as number | null) ?? null, remaining);
              nextDial = reads.dial;
              return claimInSave(companyId, buyersWithCallBids(reads.buyers, call), { now: at, tokens: (call.data ?? {}) as TokenValues }, serviceRandom);
            })
          : undefined;
        if (claimedNext?.buyer) {
          const next = claimedNext.buyer;
          attempts.push({ attempt: attempts.length + 1, buyer_id: next.id, buyer_name: next.name, status: 'ringing', started_at: at.toISOString(), answered_at: null, answered_duration: null, released: false, ...attemptBuyerFacts(next.record) });
          call.queue = 'next' in claimedNext ? claimedNext.next.map((buyerNext) => buyerNext.id) : [];
          call.buyer_id = next.id;
          call.buyer = next.name;
          // A call an agent did not take names the buyer it fell through to, not the agent.
          if (attempt.agent_id !== undefined) Object.assign(call, { agent_id: null, agent: null });
          call.status = 'ringing';
          timeline(call, at, 'dial', { attempt: attempts.length, buyer_id: next.id, number: next.record.number });
        } else {
          call.status = 'no_answer';
          call.queue = [];
          if (claimedNext) timeline(call, at, 'routing', { chosen: null, excluded: claimedNext.excluded.map((b) => ({ buyer_id: b.id, reason: b.reason })) });
        }
      } else if (outcome === 'canceled') {
        call.status = 'canceled';
      }
    }
    const events: EventName[] = [];
    if (talked && !answeredBefore) events.push('call_forwarded');
    if (claimedNext?.buyer) events.push('call_ringing');
    const leg = attempt.buyer_id;
    const change = buyer && leg !== null ? callCountsChange({ release: true, connection: talked && !answeredBefore, conversionRevenue: converted ? Number(call.revenue ?? 0) : undefined }) : undefined;
    // The buyer's counts and the duplicate history ride in the save's transaction: exactly once
    // with the save (a retried webhook saves nothing, so counts nothing). Counts whose blind
    // condition fails (a new period since the claim) are applied after the save instead.
    const paid = converted && leg !== null ? paidWrite(companyId, `b${String(leg)}`, call.caller_number, at) : undefined;
    const ended = { agentId: attempt.agent_id, converted };
    return {
      result: { answeredBefore, buyerId: attempt.buyer_id, agentId: attempt.agent_id, converted },
      save: true,
      events,
      alongside: paid ? [paid] : [],
      ...(change && buyer && leg !== null ? { optional: { writes: [blindCounterWrite(companyId, leg, buyerTimeZone(buyer), at, change)], otherwise: () => applyCounterChange(companyId, leg, buyerTimeZone(buyer), at, change) } } : {}),
      // The finished leg's effects, beside the publishing of the events (one step, not two).
      afterSave: () => endedLegEffects(companyId, callId, ended, talked ? answeredDuration : 0, at),
      claim: claims.inSave(claimedNext),
      // A lost save wrote no claim: nothing to give back.
      undo: async () => {
        claimedNext = undefined;
      },
    };
  }, at);
  if (!saved) return instructionFor(companyId, call);

  const attempts = call.attempts as Attempt[];
  const newest = attempts[attempts.length - 1]!;
  // A fall-through to a bidder is a win of its bid too.
  if (claimedNext?.buyer && claimedNext.buyer.id === newest.buyer_id) await countCallWin(companyId, call, claimedNext.buyer.id, at);
  if (newest.attempt > attemptNumber && newest.status === 'ringing' && newest.buyer_id !== null) {
    // The buyer claimed for it was read by the claim.
    const next = claimedNext?.buyer?.id === newest.buyer_id ? claimedNext.buyer.record : await getRecord(companyId, 'buyers', newest.buyer_id);
    if (next && conversionTerms(next, at).duration === 0) {
      const onDial = await transition(companyId, callId, async (fresh) => ({ result: await convertForBuyer(companyId, fresh, next, 0, at), save: true }), at);
      if (onDial.result) await applyBuyerConversion(companyId, onDial.call, next, at);
    }
  }
  // The next buyer's dial from the claim's copy of it (read by the claim), not a second read.
  return instructionFor(companyId, call, claimedNext?.buyer?.id === newest.buyer_id ? { ...nextDial, buyer: claimedNext.buyer.record } : nextDial);
}

/**
 * Effects of a saved dial end besides those in its save (the buyer's counts, the duplicate
 * history): the finished leg frees its agent; a conversion is counted in the metrics.
 */
async function endedLegEffects(companyId: number, callId: number, ended: { agentId: number | undefined; converted: boolean }, talk: number, at: Date): Promise<void> {
  if (ended.agentId !== undefined) await firstTargets.legEnded(companyId, ended.agentId, callId, at, talk);
  if (ended.converted) countMetric(METRIC.conversions);
}
