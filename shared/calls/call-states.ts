import { IVR_STATUS } from '../call-config/ivr.js';
import type { CallRecord } from './call-store.js';

/**
 * The carrier-neutral call state machine, a call's `status`:
 *
 *   inbound   ringing ──> blocked                          (blacklisted caller, a state call limit)
 *             ringing ──> ivr ──> ringing | canceled       (a call router plays before routing)
 *             ringing ──> no_buyer                         (nobody to route to)
 *             ringing buyer 1 ──> in_progress (answered) ──> completed
 *             ringing buyer 1 ──> no answer / busy / failed ──> ringing buyer 2 ... ──> no_answer
 *   outbound  dialing ──> ringing (the callee answered: routed as an inbound call) | blocked | no_buyer
 *             dialing ──> busy | failed | canceled | no_answer (never answered)
 *   any       ──> ended: `in_progress` false, rolled up once (finishCall, call-end.ts)
 *
 * CALL_MOVES below is this diagram as data.
 *
 * The stages move it (call-arrival.ts, call-inbound.ts, call-routing.ts, dial-outcome.ts,
 * call-end.ts, call-outbound.ts); carrier adapters (Twilio-compatible webhooks, the local
 * simulator) drive them and turn their instructions (call-dial-plan.ts) into their own language.
 * Every move is saved with a version check before its effects (counters, events) happen
 * (call-transition.ts), so a retried or racing callback is applied once.
 */

/** A call as the engine changes it (a call record is a plain object). */
export type Call = CallRecord & Record<string, any>;

/** Statuses of a call still being routed or talked on. */
export type LiveStatus = 'ringing' | typeof IVR_STATUS | 'dialing' | 'in_progress';
/** Statuses a call ends in. */
export type EndedStatus = 'completed' | 'no_answer' | 'blocked' | 'no_buyer' | 'canceled' | 'busy' | 'failed';

/** Statuses a call ends in (finishCall keeps them; any other becomes `completed`). */
export const ENDED: ReadonlySet<string> = new Set<EndedStatus>(['completed', 'no_answer', 'blocked', 'no_buyer', 'canceled', 'busy', 'failed']);

/**
 * The diagram as data: where each live status may go, in one save. An ended status goes nowhere
 * (a dial's end may write `completed`, `no_answer` or `canceled` before finishCall ends the call).
 */
export const CALL_MOVES: Readonly<Record<LiveStatus, readonly (LiveStatus | EndedStatus)[]>> = {
  ringing: ['ivr', 'blocked', 'no_buyer', 'ringing', 'in_progress', 'completed', 'no_answer', 'canceled'],
  ivr: ['ivr', 'ringing', 'no_buyer', 'canceled'],
  dialing: ['ringing', 'blocked', 'no_buyer', 'busy', 'failed', 'canceled', 'no_answer'],
  in_progress: ['ringing', 'completed', 'no_answer', 'canceled'],
};

/** An outbound call the callee never answered ends as the carrier says: busy, failed, canceled, else no answer. */
const UNANSWERED: Record<string, string> = { busy: 'busy', failed: 'failed', canceled: 'canceled' };

/** The status a call ends with (finishCall), from the status it had and the carrier's final word. */
export function endedStatus(status: string, carrierStatus: string | undefined): string {
  if (status === 'dialing') return UNANSWERED[carrierStatus ?? ''] ?? 'no_answer';
  // The caller hung up in an IVR menu, before any buyer was dialed.
  if (status === IVR_STATUS) return 'canceled';
  return ENDED.has(status) ? status : 'completed';
}

/** The call ends before any dial (blocked, no buyer, hung up in a menu); mutates `call`. */
export function endBeforeDial(call: Call, status: 'blocked' | 'no_buyer' | 'canceled', at: Date): void {
  call.status = status;
  call.in_progress = false;
  call.ended_at = at.toISOString();
}

export interface Attempt {
  attempt: number;
  /** The buyer dialed; null on an agent's attempt (agent_id). */
  buyer_id: number | null;
  /** The agent dialed (a target before buyers, call-targets.ts): it is released when this attempt ends. */
  agent_id?: number;
  buyer_name: string | null;
  status: 'ringing' | 'answered' | 'completed' | 'no-answer' | 'busy' | 'failed' | 'canceled';
  started_at: string;
  answered_at: string | null;
  answered_duration: number | null;
  released: boolean;
  /** The buyer's time zone, stored at the claim (shared/calls/attempt-buyer.ts); absent on older attempts. */
  time_zone?: string;
  /** The buyer's conversion fields at the claim (shared/calls/attempt-buyer.ts), unless they follow a schedule. */
  conversion?: Record<string, unknown>;
}

export function currentAttempt(call: Call): Attempt | undefined {
  const attempts = call.attempts as Attempt[] | undefined;
  return attempts?.[attempts.length - 1];
}
