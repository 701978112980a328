import { allCompanyIds } from '../db/companies.js';
import { ID_EPOCH_MS, timeSortableId } from '../db/ids.js';
import { endStaleCall } from './call-flow.js';
import { liveCalls } from './call-store.js';
import { METRIC } from '../observability/metric-names.js';
import { countMetric } from '../observability/metrics.js';
import { isStale, staleBefore, SWEEP_BATCH } from './stale-calls.js';

/**
 * The stale-call sweeper: ends calls whose final carrier callback was lost (shared/calls/
 * stale-calls.ts says which), as that callback would have: the buyer's concurrency slot is
 * released, the call's figures go into the rollups, `call_ended` is published. Run every few
 * minutes by an EventBridge rule in AWS (functions/sweeper/handler.ts) and by an interval in
 * local mode; `now` is a parameter so tests pass a later moment instead of waiting.
 *
 * Finding them without a Scan: a call in progress carries gsi3 = `C#<cid>#live_calls` (sparse,
 * removed when it ends; gsi1 for calls stored before gsi3) with its time-sortable id as sort key,
 * so one Query per company and index below `<lowest id of the stale cutoff>` reads only the stale
 * calls (usually none). The companies are 1..n of the company sequence (one GetItem). Idempotent:
 * ending is a versioned transition that does nothing for a call already ended, so overlapping runs
 * book a call once.
 */
export interface SweepResult {
  companies: number;
  ended: Array<{ companyId: number; callId: number }>;
}

/** Companies queried at once. */
const PARALLEL_COMPANIES = 8;

/** Ends the stale calls of one company (at most SWEEP_BATCH per run); the ids it ended. */
export async function sweepCompany(companyId: number, now: Date): Promise<number[]> {
  const cutoff = staleBefore(now).getTime();
  if (cutoff <= ID_EPOCH_MS) return [];
  // Every id made at or after the cutoff is at least this one, so `<` keeps older calls only.
  const candidates = await liveCalls(companyId, SWEEP_BATCH, timeSortableId(cutoff, 0));
  const ended: number[] = [];
  // The index is eventually consistent: the pure check runs again on what it returned, and the
  // transition re-reads the call consistently before ending it.
  for (const call of candidates.filter((candidate) => isStale(candidate, now))) {
    if (await endStaleCall(companyId, call, now)) ended.push(call.id);
  }
  return ended;
}

/** Sweeps the given companies, or every company. */
export async function sweepStaleCalls(now: Date, companyIds?: readonly number[]): Promise<SweepResult> {
  const companies = companyIds ?? (await allCompanyIds());
  const ended: SweepResult['ended'] = [];
  for (let start = 0; start < companies.length; start += PARALLEL_COMPANIES) {
    const batch = companies.slice(start, start + PARALLEL_COMPANIES);
    const results = await Promise.all(batch.map(async (companyId) => ({ companyId, callIds: await sweepCompany(companyId, now) })));
    for (const { companyId, callIds } of results) for (const callId of callIds) ended.push({ companyId, callId });
  }
  // Every run counts, zero included: a steady series that an alarm on stuck calls can read.
  countMetric(METRIC.staleCallsEnded, ended.length);
  return { companies: companies.length, ended };
}
