import * as v from 'valibot';
import { daysWithCalls } from '../../shared/calls/call-day-counts.js';
import { groupedRowsFromCalls, groupedRowsFromRollups, readsCalls, rollupCategoryOf, STATS_FIGURES, STATS_GROUPS, type GroupedRow, type StatsFigure, type StatsGroup } from '../../shared/calls/grouped-stats.js';
import { REPORT_INTERVALS, statsRows, type TimeRange } from '../../shared/calls/report-aggregation.js';
import { queryRollups } from '../../shared/calls/report-store.js';
import { ValidationError, type FieldErrors } from '../../shared/http/errors.js';
import { integerParam, oneOf } from '../../shared/http/param-schemas.js';
import type { Operation, OperationResult } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { rangeMetadata, reportParamsEntries, reportRange, rowView, valueNames } from './reports.js';

/**
 * `GET /api/v1/calls/stats`, in two shapes:
 * - `category` and `interval` (hour, day, Monday-based week or month in `time_zone`): the report's
 *   rows per interval, from the hourly rollups. Only intervals with calls have rows.
 * - the hosted service's `group_by` and `stat` (docs/compatibility.md, "Call stats"): one row per
 *   group with that one figure, from the rollups, or for what they do not hold (five-minute buckets,
 *   money by offer_converted) from the ended calls of a bounded window.
 */
const categoryEntries = { ...reportParamsEntries, interval: v.optional(oneOf(REPORT_INTERVALS), 'day') };

/** The category shape's parameters, exactly as before the hosted shape (other parameters ignored). */
const categoryStatsSchema = v.object(categoryEntries);

/** Every parameter of both shapes (the OpenAPI document's). */
export const statsSchema = v.object({
  ...categoryEntries,
  group_by: v.optional(v.pipe(oneOf(STATS_GROUPS), v.metadata({ description: 'The hosted service\'s grouping (with `stat`): instead of `category` and `interval`.' }))),
  stat: v.optional(v.pipe(oneOf(STATS_FIGURES), v.metadata({ description: 'The figure each `group_by` group shows: count, revenue, profit or cost (the traffic source payout).' }))),
  page: v.optional(v.pipe(integerParam, v.minValue(1, 'must be at least 1'))),
});

/** The widest range a grouping read from calls may cover, and the most calls it sums (docs/calls.md, "Reports"). */
export const CALL_READ_MAX_HOURS = 48;
export const CALL_READ_MAX_CALLS = 20_000;

/**
 * Filters the hosted service's stats take that this service does not apply (the rollups do not
 * hold them): refused rather than ignored, so a client never reads unfiltered figures as filtered.
 */
const UNSUPPORTED_FILTERS = ['offer_repeat_caller', 'buyer_repeat_caller', 'buyer_converted', 'offer_converted', 'in_progress', 'placed_on_hold', 'has_recording', 'either_converted'] as const;

export const callStats: Operation = async (request) => {
  if (request.params.group_by === undefined && request.params.stat === undefined) return categoryStats(request, validate(categoryStatsSchema, request.params));
  const params = validate(statsSchema, request.params);
  const errors: FieldErrors = {};
  if (params.group_by === undefined) errors.group_by = ['is required with stat'];
  if (params.stat === undefined) errors.stat = ['is required with group_by'];
  for (const name of ['category', 'interval'] as const) if (request.params[name] !== undefined) errors[name] = ['cannot be combined with group_by and stat'];
  for (const name of UNSUPPORTED_FILTERS) if (request.params[name] !== undefined && request.params[name] !== '') errors[name] = ['is not supported by call stats (they cover every ended call of the range)'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return groupedStats(request, { ...params, group_by: params.group_by!, stat: params.stat! });
};

type StatsParams = v.InferOutput<typeof statsSchema>;
type CategoryParams = v.InferOutput<typeof categoryStatsSchema>;
type StatsRequest = Parameters<Operation>[0];

async function categoryStats(request: StatsRequest, params: CategoryParams): Promise<OperationResult> {
  const range = reportRange(params, request.now);
  const companyId = request.auth.companyId;
  const zone = params.time_zone ?? 'UTC';
  const rows = statsRows(await queryRollups(companyId, range, params.category), params.category, params.interval, zone, range);
  const names = await valueNames(companyId, params.category, [...new Set(rows.map((row) => row.value))]);
  return {
    kind: 'list',
    plural: 'stats',
    records: rows.map((row) => ({ interval_start: row.interval_start, ...rowView(params.category, row, names) })),
    metadata: { category: params.category, interval: params.interval, ...rangeMetadata(range, zone), total_count: rows.length },
    bare: !params.root,
  };
}

async function groupedStats(request: StatsRequest, params: StatsParams & { group_by: StatsGroup; stat: StatsFigure }): Promise<OperationResult> {
  const range = reportRange(params, request.now);
  const companyId = request.auth.companyId;
  const zone = params.time_zone ?? 'UTC';
  const rows = readsCalls(params.group_by, params.stat)
    ? await groupsFromCalls(companyId, range, params.group_by, params.stat, zone, request.now)
    : groupedRowsFromRollups(await queryRollups(companyId, range, rollupCategoryOf(params.group_by)), params.group_by, params.stat, zone, range);
  const page = params.page ?? 1;
  // Every group fits one page: a client paging on gets an empty page 2, so its loop ends.
  const shown = page === 1 ? rows : [];
  return {
    kind: 'list',
    plural: 'stats',
    records: shown.map((row) => ({ group_by: params.group_by, group: row.group, [params.stat]: row.amount })),
    metadata: { group_by: params.group_by, stat: params.stat, ...rangeMetadata(range, zone), page, total_count: rows.length },
    bare: !params.root,
  };
}

/** A grouping the rollups do not hold, summed from the ended calls of a window of at most CALL_READ_MAX_HOURS and CALL_READ_MAX_CALLS calls. */
async function groupsFromCalls(companyId: number, range: TimeRange, groupBy: StatsGroup, stat: StatsFigure, zone: string, now: Date): Promise<GroupedRow[]> {
  const what = groupBy === 'offer_converted' ? `group_by=offer_converted with stat=${stat}` : `group_by=${groupBy}`;
  if (range.toMs - range.fromMs >= CALL_READ_MAX_HOURS * 60 * 60 * 1000) {
    throw new ValidationError({ created_at_to: [`must be less than ${CALL_READ_MAX_HOURS} hours after created_at_from with ${what} (summed from the calls themselves)`] });
  }
  const tooMany = () => new ValidationError({ created_at_to: [`the range holds more than ${CALL_READ_MAX_CALLS} calls, the most ${what} sums: narrow it`] });
  // Loaded here: the category stats (and the OpenAPI document, which imports the schema) need neither.
  const [{ countCallsInWindow, readCallDayCounts }, { readEndedCalls }] = await Promise.all([import('../../shared/calls/call-day-count-store.js'), import('../../shared/calls/ended-calls.js')]);
  const counts = await readCallDayCounts(companyId, range);
  if ((await countCallsInWindow(companyId, counts, range, now.getTime())) > CALL_READ_MAX_CALLS) throw tooMany();
  const calls = await readEndedCalls(companyId, range, daysWithCalls(counts, range), CALL_READ_MAX_CALLS);
  if (!calls) throw tooMany();
  return groupedRowsFromCalls(calls, groupBy, stat, zone);
}
