import { queryDayRecords } from '../db/day-records.js';
import { callFigures } from './call-end.js';
import type { Call } from './call-states.js';
import { CALLS } from './call-store.js';
import type { EndedCall } from './grouped-stats.js';
import type { TimeRange } from './report-aggregation.js';

/**
 * Reads the calls the rollups count (ended ones) of a range, with their figures as the rollups
 * hold them, for the call stats the rollups cannot serve (shared/calls/grouped-stats.ts). Its own
 * module: only those stats load the call engine's figures (call-end.ts).
 */

/** What callFigures reads of a call, and whether the rollups count it yet. */
const FIGURE_ATTRIBUTES = [
  'created_at',
  'rolled_up',
  'offer_id',
  'buyer_id',
  'converted_buyer_id',
  'traffic_source_id',
  'status',
  'buyer_converted',
  'offer_converted',
  'revenue',
  'payout',
  'answered_duration',
  'total_duration',
] as const;

/**
 * The ended calls created in `range`: one Query per UTC day of `days` (those with calls, from the
 * day counts), only the attributes the figures need. Reads at most `limit` calls; undefined when
 * the range holds more (the caller bounds it beforehand from the day counts).
 */
export async function readEndedCalls(companyId: number, range: TimeRange, days: ReadonlySet<string>, limit: number): Promise<EndedCall[] | undefined> {
  const page = await queryDayRecords({ companyId, resource: CALLS, fromMs: range.fromMs, toMs: range.toMs, limit: limit + 1, days, attributes: FIGURE_ATTRIBUTES });
  if (page.records.length > limit || !page.exhausted) return undefined;
  return page.records
    .filter((call) => call.rolled_up === true)
    .map((call) => ({ createdMs: Date.parse(String(call.created_at)), figures: callFigures(call as unknown as Call) }));
}
