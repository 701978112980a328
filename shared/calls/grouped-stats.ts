import { isoWithOffset } from '../time.js';
import { cellInRange, cellStartMs, displayValue, intervalBuckets, reportRows, type ReportInterval, type TimeRange } from './report-aggregation.js';
import { addStats, emptyStats, statsOf, type CallFigures, type ReportCategory, type RollupItem, type StatField, type Stats } from './rollups.js';

/**
 * `GET /api/v1/calls/stats` in the hosted service's shape (docs/compatibility.md): calls grouped by
 * `group_by` with one figure, `stat`, per group. Pure: which store serves a grouping, and how
 * rollup cells or calls add up to its rows. Most groupings are read from the hourly rollups
 * (shared/calls/rollups.ts); those the rollups do not hold (five-minute buckets, and money split
 * by offer_converted, which is no part of a rollup cell) are summed from the ended calls
 * themselves, over a bounded window (functions/calls/stats.ts).
 */
export const STATS_GROUPS = ['buyer_converted', 'offer_converted', 'status', 'created_at_five_minutes', 'created_at_day', 'created_at_week', 'created_at_month'] as const;
export type StatsGroup = (typeof STATS_GROUPS)[number];

export const STATS_FIGURES = ['count', 'revenue', 'profit', 'cost'] as const;
export type StatsFigure = (typeof STATS_FIGURES)[number];

/** The summed field each figure is: a call's cost is the traffic source payout (no platform or carrier cost is charged per call). */
const FIGURE_FIELDS: Readonly<Record<StatsFigure, StatField>> = { count: 'calls', revenue: 'revenue', profit: 'profit', cost: 'payout' };

/** Groupings by the interval a call was created in, as the rollups' intervals. */
const GROUP_INTERVALS: Partial<Readonly<Record<StatsGroup, ReportInterval>>> = { created_at_day: 'day', created_at_week: 'week', created_at_month: 'month' };

const FIVE_MINUTES_MS = 5 * 60 * 1000;

/** One group: its key (a status, a boolean, or when its interval starts) and the figure asked for. */
export interface GroupedRow {
  group: string | boolean;
  amount: number;
}

/** Is this grouping summed from the calls themselves (the rollups do not hold it)? */
export function readsCalls(groupBy: StatsGroup, stat: StatsFigure): boolean {
  return groupBy === 'created_at_five_minutes' || (groupBy === 'offer_converted' && stat !== 'count');
}

/**
 * The rollup category a grouping reads. Every call counts once in each category, so groupings
 * that are not a category themselves (intervals, offer_converted by its count field) read status.
 */
export function rollupCategoryOf(groupBy: StatsGroup): ReportCategory {
  return groupBy === 'buyer_converted' ? 'converted' : 'status';
}

function amountOf(stats: Stats, stat: StatsFigure): number {
  return stats[FIGURE_FIELDS[stat]];
}

/** Most calls first, then the key (false before true, statuses alphabetically): the reports' order. */
function byCalls(a: { key: string; stats: Stats }, b: { key: string; stats: Stats }): number {
  return b.stats.calls - a.stats.calls || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** Two rows, converted or not, from totals (groups without calls left out), most calls first. */
function booleanRows(converted: Stats, notConverted: Stats, stat: StatsFigure): GroupedRow[] {
  const groups = [
    { key: 'true', stats: converted },
    { key: 'false', stats: notConverted },
  ].filter((group) => group.stats.calls !== 0);
  return groups.sort(byCalls).map((group) => ({ group: group.key === 'true', amount: amountOf(group.stats, stat) }));
}

/**
 * The rows of a grouping the rollups hold, from the cells of `rollupCategoryOf(groupBy)` (as
 * queryRollups reads them): statuses and buyer_converted as the reports count them (most calls
 * first); intervals in the zone, oldest first; offer_converted's count from each cell's
 * offer_converted field. Only groups with calls have rows.
 */
export function groupedRowsFromRollups(items: readonly RollupItem[], groupBy: StatsGroup, stat: StatsFigure, timeZone: string, range: TimeRange): GroupedRow[] {
  if (readsCalls(groupBy, stat)) throw new Error(`${groupBy} by ${stat} is not held by the rollups`);
  const category = rollupCategoryOf(groupBy);
  const cells = items.filter((item) => item.category === category && cellInRange(item, range));
  const interval = GROUP_INTERVALS[groupBy];
  if (interval) {
    return intervalBuckets(cells, cellStartMs, interval, timeZone)
      .map((bucket) => ({ group: bucket.interval_start, stats: bucket.items.reduce((sum: Stats, item) => addStats(sum, item), emptyStats()) }))
      .filter((bucket) => bucket.stats.calls !== 0)
      .map((bucket) => ({ group: bucket.group, amount: amountOf(bucket.stats, stat) }));
  }
  if (groupBy === 'offer_converted') {
    const total = cells.reduce((sum: Stats, item) => addStats(sum, item), emptyStats());
    const converted = { ...emptyStats(), calls: total.offer_converted };
    return booleanRows(converted, { ...emptyStats(), calls: total.calls - total.offer_converted }, stat);
  }
  return reportRows(cells, category, range).map((row) => ({ group: displayValue(category, row.value) as string | boolean, amount: amountOf(row.stats, stat) }));
}

/** A call's figures and when it was created (epoch ms), for the groupings read from calls. */
export interface EndedCall {
  createdMs: number;
  figures: CallFigures;
}

/**
 * The rows of a grouping read from ended calls: five-minute buckets (in the zone's offset; every
 * zone's offset is whole minutes of five) oldest first, or offer_converted most calls first.
 */
export function groupedRowsFromCalls(calls: readonly EndedCall[], groupBy: StatsGroup, stat: StatsFigure, timeZone: string): GroupedRow[] {
  if (groupBy === 'offer_converted') {
    const [converted, notConverted] = [emptyStats(), emptyStats()];
    for (const call of calls) addStats(call.figures.offer_converted ? converted : notConverted, statsOf(call.figures));
    return booleanRows(converted, notConverted, stat);
  }
  if (groupBy !== 'created_at_five_minutes') throw new Error(`${groupBy} is read from the rollups`);
  const buckets = new Map<number, Stats>();
  for (const call of calls) {
    const start = Math.floor(call.createdMs / FIVE_MINUTES_MS) * FIVE_MINUTES_MS;
    buckets.set(start, addStats(buckets.get(start) ?? emptyStats(), statsOf(call.figures)));
  }
  return [...buckets.entries()].sort(([a], [b]) => a - b).map(([start, stats]) => ({ group: isoWithOffset(new Date(start), timeZone), amount: amountOf(stats, stat) }));
}
