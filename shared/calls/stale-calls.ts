/**
 * Which calls in progress are stale: their carrier's final callback was lost, because no real
 * call lasts that long. Pure.
 *
 * - Every `<Dial>` the service answers with carries `timeLimit` = MAX_TALK_SECONDS (4 hours, also
 *   Twilio's default), so the carrier ends any buyer leg by then; after a leg the service either
 *   dials the next buyer or hangs up.
 * - STALE_AFTER_SECONDS (5 hours) adds an hour for ringing through buyers before the talk and for
 *   the carrier's callback retries. A call still in progress after that has lost its final
 *   `status` callback (or its whole carrier session), and keeps its buyer's concurrency slot
 *   taken until something ends it.
 *
 * A call ended by the sweeper is booked as if its final callback had come at the sweep: talk time
 * at most MAX_TALK_SECONDS, total time at most STALE_AFTER_SECONDS (upper bounds; the real call
 * may have been shorter). Should the carrier call back about it later after all, the webhooks
 * answer an ended call neutrally (hang up).
 */
export const MAX_TALK_SECONDS = 4 * 3600;
export const STALE_AFTER_SECONDS = 5 * 3600;

/** How often the sweeper runs (EventBridge in AWS, an interval locally). */
export const SWEEP_INTERVAL_MINUTES = 5;

/** Stale calls one company gives the sweeper per run; more wait for the next run. */
export const SWEEP_BATCH = 100;

export interface LiveCallFacts {
  id: number;
  created_at: unknown;
  in_progress: unknown;
}

/** The moment before which a call in progress is stale. */
export function staleBefore(now: Date): Date {
  return new Date(now.getTime() - STALE_AFTER_SECONDS * 1000);
}

/** Is this call still in progress, and has it been longer than any real call could be? */
export function isStale(call: LiveCallFacts, now: Date): boolean {
  const created = typeof call.created_at === 'string' ? Date.parse(call.created_at) : NaN;
  return call.in_progress === true && Number.isFinite(created) && created <= staleBefore(now).getTime();
}

/** The total duration to book for a stale call: its age in seconds, at most STALE_AFTER_SECONDS. */
export function staleCallDuration(call: LiveCallFacts, now: Date): number {
  const created = typeof call.created_at === 'string' ? Date.parse(call.created_at) : NaN;
  if (!Number.isFinite(created)) return 0;
  return Math.min(STALE_AFTER_SECONDS, Math.max(0, Math.round((now.getTime() - created) / 1000)));
}
