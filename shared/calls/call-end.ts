import { applyCounterChange, blindCounterWrite } from '../buyers/counters.js';
import { releaseStateSlots } from '../call-config/state-limit-counters.js';
import type { TransactItem } from '../db/client.js';
import { keys } from '../db/keys.js';
import { queryAllRecords, type StoredRecord } from '../db/records.js';
import { rollupCellUpdate } from '../db/rollup-update.js';
import { leadCallEnded } from '../leads/lead-calls.js';
import { METRIC } from '../observability/metric-names.js';
import { countMetric } from '../observability/metrics.js';
import type { TokenValues } from '../routing/token-filters.js';
import { attemptBuyerZone, callCountsChange, countOnBuyer } from './attempt-buyer.js';
import { lastPaid, markPaid } from './call-conversion.js';
import { currentAttempt, endedStatus, type Call } from './call-states.js';
import { firstTargets } from './call-targets.js';
import { timeline } from './call-timeline.js';
import { transition, type CallForChange } from './call-transition.js';
import { cents, decideOfferConversion, type OfferConversionRule } from './conversions.js';
import { rollupChanges, type CallFigures } from './rollups.js';
import { MAX_TALK_SECONDS, staleCallDuration, type LiveCallFacts } from './stale-calls.js';

/**
 * The end of a call and its money: what it still holds is released, the traffic source payout
 * decided, and the call counted in the reports' rollups, in the write that ends it.
 */

/** What the reports add up of a call (its rollup cells and their figures). */
export function callFigures(call: Call): CallFigures {
  return {
    created_at: String(call.created_at),
    offer_id: (call.offer_id as number | null) ?? null,
    // Reports book a call under the buyer that paid for it (a buyer converting on dial pays even
    // when another buyer answers), else the buyer that took it.
    buyer_id: ((call.converted_buyer_id ?? call.buyer_id) as number | null) ?? null,
    traffic_source_id: (call.traffic_source_id as number | null) ?? null,
    status: String(call.status),
    buyer_converted: call.buyer_converted === true,
    offer_converted: call.offer_converted === true,
    revenue: Number(call.revenue ?? 0),
    payout: Number(call.payout ?? 0),
    answered_duration: Number(call.answered_duration ?? 0),
    total_duration: Number(call.total_duration ?? 0),
  };
}

/** Rollup writes for a call moving from `before` (not yet counted: undefined) to `after`. */
export function rollupWrites(companyId: number, before: CallFigures | undefined, after: CallFigures): TransactItem[] {
  return rollupChanges(before, after).map(({ cell, delta }) =>
    rollupCellUpdate(keys.callRollup(companyId, cell.day, cell.hour, cell.category, cell.value), delta, { day: cell.day, hour: cell.hour, category: cell.category, value: cell.value }),
  );
}

export interface CallEnding {
  /** The caller's whole call in seconds, as the carrier reports it. */
  totalDuration: number;
  at: Date;
  /** At most this much talk time is booked (a call ended without the carrier's word on it). */
  maxTalkSeconds?: number;
  /** Why the call ended when it was not the carrier's final callback, for the timeline. */
  reason?: string;
  /** The carrier's final CallStatus (busy, no-answer, failed...): how an unanswered outbound call ended. */
  carrierStatus?: string;
  /** The call as the caller just read it (consistently, with its company's event consumers), so it is not read twice. */
  read?: CallForChange;
  /** The company's offer_conversions as the caller read them (beside the call), else read here. */
  offerConversions?: readonly StoredRecord[];
}

/**
 * The call is over (the carrier's final status, or the stale-call sweeper when that was lost):
 * release whatever it still holds, decide the traffic source payout, and count it in the rollups
 * in the same write that ends it. Once only: true when this call ended it.
 */
export async function finishCall(companyId: number, callId: number, ending: CallEnding): Promise<boolean> {
  const at = ending.at;
  let held: { id: number; zone: string | undefined } | undefined;
  let heldAgent: { id: number; talk: number } | undefined;
  let paidRule: number | undefined;
  let stateHolds: number[] = [];
  const { saved } = await transition(companyId, callId, async (call) => {
    if (call.rolled_up) return { result: undefined, save: false };
    // State call limit slots (docs/call-configuration.md): released with the save that ends the call.
    stateHolds = Array.isArray(call.state_limit_holds) ? (call.state_limit_holds as number[]) : [];
    // Emptied only where it held slots: a call that held none is not given the attribute (its item stays small).
    if (stateHolds.length) call.state_limit_holds = [];
    const attempt = currentAttempt(call);
    held = attempt && !attempt.released && attempt.buyer_id !== null ? { id: attempt.buyer_id, zone: typeof attempt.time_zone === 'string' ? attempt.time_zone : undefined } : undefined;
    heldAgent = undefined;
    if (attempt && !attempt.released) {
      attempt.released = true;
      if (attempt.status === 'answered' && attempt.answered_at) {
        attempt.status = 'completed';
        attempt.answered_duration = Math.min(ending.maxTalkSeconds ?? Infinity, Math.max(0, Math.round((at.getTime() - Date.parse(attempt.answered_at)) / 1000)));
        call.answered_duration = attempt.answered_duration;
        call.status = 'completed';
      } else if (attempt.status === 'ringing') {
        attempt.status = 'canceled';
        call.status = 'canceled';
      }
      if (attempt.agent_id !== undefined) heldAgent = { id: attempt.agent_id, talk: attempt.answered_duration ?? 0 };
    }
    call.status = endedStatus(String(call.status), ending.carrierStatus);
    call.in_progress = false;
    call.ended_at ??= at.toISOString();
    call.total_duration = Math.max(Number(call.total_duration ?? 0), ending.totalDuration);
    call.queue = [];
    // Traffic source payout, from the offer's payout rules.
    paidRule = undefined;
    if (call.offer_id !== null && !call.offer_converted) {
      const rules = (ending.offerConversions ?? (await queryAllRecords(companyId, 'offer_conversions'))).filter((rule) => rule.offer_id === call.offer_id) as OfferConversionRule[];
      // One GetItem per rule of the offer (usually one or two), all at once.
      const paidAt = await Promise.all(rules.map((rule) => lastPaid(companyId, `oc${rule.id}`, call.caller_number)));
      const lastPaidAt = new Map<number, Date>();
      rules.forEach((rule, index) => {
        if (paidAt[index]) lastPaidAt.set(rule.id, paidAt[index]);
      });
      const payout = decideOfferConversion({ rules, tokens: (call.data ?? {}) as TokenValues, answeredDuration: Number(call.answered_duration ?? 0), buyerRevenue: Number(call.revenue ?? 0), lastPaidAt, at });
      if (payout.converted) {
        call.offer_converted = true;
        call.payout = payout.payout;
        call.traffic_source_payout = payout.payout;
        call.offer_conversion_id = payout.ruleId;
        paidRule = payout.ruleId;
        timeline(call, at, 'traffic_source_payout', { offer_conversion_id: payout.ruleId, payout: payout.payout });
      }
    }
    call.profit = cents(Number(call.revenue ?? 0) - Number(call.payout ?? 0));
    call.rolled_up = true;
    timeline(call, at, 'ended', { status: call.status, total_duration: call.total_duration, ...(ending.reason ? { reason: ending.reason } : {}) });
    // The releases and the duplicate history are independent of one another and of the events:
    // side by side, once the call is saved ended.
    const caller = call.caller_number;
    // A held buyer whose zone the attempt carries is released inside the ending transaction (blind;
    // after it when its condition fails), else after the save.
    const heldBuyer = held;
    const releaseInSave = heldBuyer?.zone ? { id: heldBuyer.id, zone: heldBuyer.zone } : undefined;
    const afterSave = () =>
      Promise.all([
        stateHolds.length ? releaseStateSlots(companyId, stateHolds) : undefined,
        heldAgent ? firstTargets.legEnded(companyId, heldAgent.id, callId, at, heldAgent.talk) : undefined,
        heldBuyer && !releaseInSave ? releaseHeld(companyId, heldBuyer.id, heldBuyer.zone, at) : undefined,
        paidRule !== undefined ? markPaid(companyId, `oc${paidRule}`, caller, at) : undefined,
        // Off the ringing path: the lead learns of its call (and of a conversion) when the call ends.
        typeof call.lead_id === 'number' ? leadCallEnded(companyId, call.lead_id, call.id, call.buyer_converted === true, at) : undefined,
      ]);
    const release = callCountsChange({ release: true })!;
    return {
      result: undefined,
      save: true,
      alongside: rollupWrites(companyId, undefined, callFigures(call)),
      events: ['call_ended'],
      afterSave,
      ...(releaseInSave
        ? {
            optional: {
              writes: [blindCounterWrite(companyId, releaseInSave.id, releaseInSave.zone, at, release)],
              otherwise: () => applyCounterChange(companyId, releaseInSave.id, releaseInSave.zone, at, release),
            },
          }
        : {}),
    };
  }, at, ending.read);
  if (!saved) return false;
  countMetric(METRIC.callsEnded);
  return true;
}

/** Gives back the concurrent call an ended attempt still held (its zone from the attempt, else the buyer). */
async function releaseHeld(companyId: number, buyerId: number, zone: string | undefined, at: Date): Promise<void> {
  const timeZone = await attemptBuyerZone(companyId, { buyer_id: buyerId, time_zone: zone });
  if (timeZone) await countOnBuyer(companyId, buyerId, timeZone, at, { release: true });
}

/**
 * Ends a call whose final carrier callback never came (shared/calls/stale-calls.ts decides which)
 * exactly as that callback would have, with durations bounded by the longest possible call.
 */
export function endStaleCall(companyId: number, call: LiveCallFacts, now: Date): Promise<boolean> {
  return finishCall(companyId, call.id, {
    totalDuration: staleCallDuration(call, now),
    at: now,
    maxTalkSeconds: MAX_TALK_SECONDS,
    reason: 'no final callback from the carrier (stale-call sweeper)',
  });
}
