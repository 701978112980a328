import { ZonedTime } from '../zoned-time.js';
import { isoWithOffset } from '../time.js';
import { addStats, emptyStats, STAT_FIELDS, type ReportCategory, type RollupItem, type Stats } from './rollups.js';

/**
 * Call reports from rollup items (shared/calls/rollups.ts), as pure functions over plain values:
 * which UTC day partitions a range needs, which hour cells it takes, and how cells add up by
 * category value (`GET /api/v1/calls/reports`) and by category value and interval in a time zone
 * (`GET /api/v1/calls/stats`).
 *
 * Hour granularity. A rollup cell holds the calls of one UTC hour; its calls count at the cell's
 * start. A cell belongs to a range when its hour starts within [from, to] (both ends inclusive,
 * like `created_at_from/_to` on lists), and to the interval its hour start falls in. So a range
 * bound inside an hour acts as the next whole hour for `from` (from 10:30 starts with the 11:00
 * cell) and as that hour for `to` (to 10:30 ends with the 10:00 cell), and the rows of
 * `stats` always add up to `reports` over the same range. In zones whose offset is not a whole
 * number of hours (Asia/Kolkata +05:30, Asia/Kathmandu +05:45) the UTC hour 18:00-19:00 is
 * 23:30-00:30 in Kolkata: its calls count on the day, week or month where 23:30 falls, and its
 * `hour` interval starts at 23:30+05:30.
 */
export const REPORT_INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

export type { RollupItem } from './rollups.js';

export interface TimeRange {
  fromMs: number;
  toMs: number;
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** When a cell's UTC hour starts. */
export function cellStartMs(item: Pick<RollupItem, 'day' | 'hour'>): number {
  return Date.parse(`${item.day}T${item.hour}:00:00.000Z`);
}

/** Does the cell's hour start within the range (both ends inclusive)? */
export function cellInRange(item: Pick<RollupItem, 'day' | 'hour'>, range: TimeRange): boolean {
  const start = cellStartMs(item);
  return start >= range.fromMs && start <= range.toMs;
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The UTC day partitions holding the cells of a range, oldest first, each with the first and
 * last hour ("00".."23") of that day whose start lies in the range. Empty when no hour starts
 * within it (a range shorter than an hour between two hour starts).
 */
export function rangePartitions(range: TimeRange): Array<{ day: string; firstHour: string; lastHour: string }> {
  const first = Math.ceil(range.fromMs / HOUR_MS) * HOUR_MS;
  const last = Math.floor(range.toMs / HOUR_MS) * HOUR_MS;
  const out: Array<{ day: string; firstHour: string; lastHour: string }> = [];
  if (first > last) return out;
  for (let dayStart = Math.floor(first / DAY_MS) * DAY_MS; dayStart <= last; dayStart += DAY_MS) {
    const low = Math.max(first, dayStart);
    const high = Math.min(last, dayStart + DAY_MS - HOUR_MS);
    const hour = (ms: number) => String(new Date(ms).getUTCHours()).padStart(2, '0');
    out.push({ day: utcDay(dayStart), firstHour: hour(low), lastHour: hour(high) });
  }
  return out;
}

/** The range a report covers without `created_at_from` / `created_at_to`: today in the zone. */
export function todayIn(now: Date, timeZone: string): TimeRange {
  const today = ZonedTime.at(now, timeZone);
  return { fromMs: today.startOf('day').ms, toMs: today.endOfDay().ms };
}

/**
 * A category value as the API shows it: ids as numbers (null for calls without one, stored as
 * `none`), `converted` as a boolean, statuses as they are.
 */
export function displayValue(category: ReportCategory, value: string): string | number | boolean | null {
  switch (category) {
    case 'offer':
    case 'buyer':
    case 'traffic_source':
      return value === 'none' ? null : Number(value);
    case 'converted':
      return value === 'true';
    case 'status':
      return value;
  }
}

/** Categories whose values are records with names (offers, buyers, traffic sources). */
export function categoryResource(category: ReportCategory): 'offers' | 'buyers' | 'traffic_sources' | undefined {
  switch (category) {
    case 'offer':
      return 'offers';
    case 'buyer':
      return 'buyers';
    case 'traffic_source':
      return 'traffic_sources';
    default:
      return undefined;
  }
}

export interface ReportRow {
  /** The category value as stored in the rollups (`12`, `none`, `completed`, `true`). */
  value: string;
  stats: Stats;
}

/** Most calls first; ties by value, numerically for ids, so the order is stable. */
function compareRows(a: ReportRow, b: ReportRow): number {
  const byCalls = b.stats.calls - a.stats.calls;
  if (byCalls !== 0) return byCalls;
  const [na, nb] = [Number(a.value), Number(b.value)];
  if (Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}

/** One row per category value: the cells of `category` whose hour starts in the range, summed. */
export function reportRows(items: readonly RollupItem[], category: ReportCategory, range: TimeRange): ReportRow[] {
  const rows = new Map<string, ReportRow>();
  for (const item of items) {
    if (item.category !== category || !cellInRange(item, range)) continue;
    const row = rows.get(item.value) ?? { value: item.value, stats: emptyStats() };
    addStats(row.stats, item);
    rows.set(item.value, row);
  }
  // A cell every call has left (an update moved them) adds nothing and is not a row.
  return [...rows.values()].filter((row) => STAT_FIELDS.some((field) => row.stats[field] !== 0)).sort(compareRows);
}

/**
 * The start of the interval an instant falls in, in `timeZone`: the day, Monday-based week or
 * month as the zone's calendar has it (DST included: a day may have 23 or 25 hours). For `hour`
 * the interval is the UTC hour of the rollup itself, shown in the zone (23:30+05:30 in Kolkata).
 */
export function intervalStartMs(ms: number, interval: ReportInterval, timeZone: string): number {
  if (interval === 'hour') return Math.floor(ms / HOUR_MS) * HOUR_MS;
  // startOf('week') is the ISO week: Monday.
  return ZonedTime.at(ms, timeZone).startOf(interval).ms;
}

export interface StatsRow extends ReportRow {
  /** When the interval starts, ISO 8601 with the zone's offset at that moment. */
  interval_start: string;
}

/**
 * Items grouped by the interval (in `timeZone`) their start falls in, oldest interval first;
 * intervals without items are left out. The bucketing every "per interval" report shares (call
 * stats, lead stats), whatever its items are.
 */
export function intervalBuckets<T>(items: Iterable<T>, startMsOf: (item: T) => number, interval: ReportInterval, timeZone: string): Array<{ interval_start: string; items: T[] }> {
  const buckets = new Map<number, T[]>();
  for (const item of items) {
    const start = intervalStartMs(startMsOf(item), interval, timeZone);
    const bucket = buckets.get(start) ?? [];
    bucket.push(item);
    buckets.set(start, bucket);
  }
  return [...buckets.entries()].sort(([a], [b]) => a - b).map(([start, bucket]) => ({ interval_start: isoWithOffset(new Date(start), timeZone), items: bucket }));
}

/**
 * One row per interval and category value that has calls in the range: oldest interval first,
 * then most calls first within it.
 */
export function statsRows(items: readonly RollupItem[], category: ReportCategory, interval: ReportInterval, timeZone: string, range: TimeRange): StatsRow[] {
  const cells = items.filter((item) => item.category === category && cellInRange(item, range));
  return intervalBuckets(cells, cellStartMs, interval, timeZone).flatMap((bucket) =>
    reportRows(bucket.items, category, range).map((row) => ({ interval_start: bucket.interval_start, ...row })),
  );
}
