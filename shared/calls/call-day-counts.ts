import { timeOfId } from '../db/ids.js';

/**
 * Calls created per company and UTC day, with one count per UTC hour: added in the transaction
 * that creates a call (shared/calls/call-store.ts), so `GET /api/v1/calls` counts a window and
 * finds its non-empty days from one Query of these items instead of reading calls.
 * Each day is counted in CALL_DAY_COUNT_SHARDS shard items, summed when read (dayCountsOf).
 * Pure: what a window's counts say; the reads are in call-day-count-store.ts.
 */
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Shard items per company and day. DynamoDB cancels concurrent transactions that touch one item
 * (TransactionConflict), so a single day item would serialise a busy company's call starts;
 * 16 shards let 16 start at once, and a 30-day window still reads its at most 480 small items in one Query.
 */
export const CALL_DAY_COUNT_SHARDS = 16;

/**
 * The shard that counts a call: its id modulo the shards, i.e. part of the id's 12 random low bits
 * (shared/db/ids.ts), so concurrent calls spread evenly and the backfill finds the same shard again.
 */
export function callDayShardOf(callId: number): number {
  return callId % CALL_DAY_COUNT_SHARDS;
}

/** The counts of one UTC day: every call made that day, and per UTC hour (index 0-23). */
export interface DayCount {
  day: string;
  calls: number;
  hours: number[];
}

/** The item attribute counting the calls of a UTC hour (`h00`..`h23`). */
export function hourAttribute(hour: number): string {
  return `h${String(hour).padStart(2, '0')}`;
}

/** One stored day-count shard item as a DayCount of its day (hours never counted are 0). */
export function dayCountOf(item: Record<string, unknown>): DayCount {
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  const day = typeof item.day === 'string' ? item.day : String(item.sk).split('#')[0]!;
  return { day, calls: number(item.calls), hours: Array.from({ length: 24 }, (_, hour) => number(item[hourAttribute(hour)])) };
}

/** The counts per day of stored shard items (any order): each day's shards summed. */
export function dayCountsOf(items: Iterable<Record<string, unknown>>): Map<string, DayCount> {
  const counts = new Map<string, DayCount>();
  for (const item of items) {
    const shard = dayCountOf(item);
    const sum = counts.get(shard.day);
    if (!sum) {
      counts.set(shard.day, shard);
      continue;
    }
    sum.calls += shard.calls;
    shard.hours.forEach((calls, hour) => {
      sum.hours[hour]! += calls;
    });
  }
  return counts;
}

function dayStartOf(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

function dayName(dayStart: number): string {
  return new Date(dayStart).toISOString().slice(0, 10);
}

/** A creation-time range, epoch ms, both ends inclusive. */
export interface TimeRange {
  fromMs: number;
  toMs: number;
}

/** What the day counts say about a window's calls. */
export interface WindowCount {
  /** Calls of the whole hours (and days) inside the window. */
  counted: number;
  /** Parts of hours the window cuts that hold calls: their calls must be counted from their ids. */
  partial: TimeRange[];
}

/**
 * The calls created in `window` by the day counts. A day inside the window counts whole, an
 * hour inside it too; an hour the window cuts is left as a partial range (only when it has calls).
 * Nothing is created after now (give or take the clock slack the window already allows), so
 * when the window reaches `nowMs` its last hour counts whole.
 */
export function windowCount(counts: ReadonlyMap<string, DayCount>, window: TimeRange, nowMs: number): WindowCount {
  const { fromMs } = window;
  const toMs = window.toMs >= nowMs ? Number.POSITIVE_INFINITY : window.toMs;
  let counted = 0;
  const partial: TimeRange[] = [];
  if (window.toMs < fromMs) return { counted, partial };
  for (let dayStart = dayStartOf(fromMs); dayStart <= window.toMs; dayStart += DAY_MS) {
    const count = counts.get(dayName(dayStart));
    if (!count || count.calls === 0) continue;
    if (dayStart >= fromMs && dayStart + DAY_MS - 1 <= toMs) {
      counted += count.calls;
      continue;
    }
    count.hours.forEach((calls, hour) => {
      const hourStart = dayStart + hour * HOUR_MS;
      const hourEnd = hourStart + HOUR_MS - 1;
      if (calls === 0 || hourEnd < fromMs || hourStart > toMs) return;
      if (hourStart >= fromMs && hourEnd <= toMs) counted += calls;
      else partial.push({ fromMs: Math.max(hourStart, fromMs), toMs: Math.min(hourEnd, window.toMs) });
    });
  }
  return { counted, partial };
}

/** The days of `window` with calls made within it (by their hours), so a list queries only those. */
export function daysWithCalls(counts: ReadonlyMap<string, DayCount>, window: TimeRange): Set<string> {
  const days = new Set<string>();
  for (let dayStart = dayStartOf(window.fromMs); dayStart <= window.toMs; dayStart += DAY_MS) {
    const count = counts.get(dayName(dayStart));
    if (!count || count.calls === 0) continue;
    const inWindow = count.hours.some((calls, hour) => calls > 0 && dayStart + (hour + 1) * HOUR_MS - 1 >= window.fromMs && dayStart + hour * HOUR_MS <= window.toMs);
    if (inWindow) days.add(count.day);
  }
  return days;
}

/** Every call the counts hold for the days `window` touches: an upper bound of its calls. */
export function callsOfDays(counts: ReadonlyMap<string, DayCount>, window: TimeRange): number {
  let total = 0;
  for (const day of daysWithCalls(counts, window)) total += counts.get(day)?.calls ?? 0;
  return total;
}

/** The counts of a UTC day from its calls' creation times (epoch ms), for a backfill. */
export function dayCountOfTimes(day: string, times: readonly number[]): DayCount {
  const hours = Array.from({ length: 24 }, () => 0);
  for (const ms of times) hours[new Date(ms).getUTCHours()]! += 1;
  return { day, calls: times.length, hours };
}

/**
 * The exact counts of every shard of a UTC day (index = shard, CALL_DAY_COUNT_SHARDS of them, empty
 * ones with 0 calls) from the ids of the day's calls, for a backfill.
 */
export function shardCountsOfIds(day: string, ids: readonly number[]): DayCount[] {
  const times: number[][] = Array.from({ length: CALL_DAY_COUNT_SHARDS }, () => []);
  for (const id of ids) times[callDayShardOf(id)]!.push(timeOfId(id));
  return times.map((shardTimes) => dayCountOfTimes(day, shardTimes));
}

/** The stored attributes of a day count (without its key). */
export function dayCountAttributes(count: DayCount): Record<string, string | number> {
  const attributes: Record<string, string | number> = { day: count.day, calls: count.calls };
  count.hours.forEach((calls, hour) => {
    if (calls > 0) attributes[hourAttribute(hour)] = calls;
  });
  return attributes;
}
