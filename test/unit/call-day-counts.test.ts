import { describe, expect, it } from 'vitest';
import {
  CALL_DAY_COUNT_SHARDS,
  callDayShardOf,
  callsOfDays,
  dayCountAttributes,
  dayCountOf,
  dayCountOfTimes,
  dayCountsOf,
  daysWithCalls,
  hourAttribute,
  shardCountsOfIds,
  windowCount,
  type DayCount,
} from '../../shared/calls/call-day-counts.js';
import { timeSortableId } from '../../shared/db/ids.js';

const HOUR_MS = 60 * 60 * 1000;
const at = (iso: string) => Date.parse(iso);

/** Day counts from `{ day: { hour: calls } }`. */
function countsOf(spec: Record<string, Record<number, number>>): Map<string, DayCount> {
  return new Map(
    Object.entries(spec).map(([day, hours]) => {
      const list = Array.from({ length: 24 }, (_, hour) => hours[hour] ?? 0);
      return [day, { day, calls: list.reduce((a, b) => a + b, 0), hours: list }];
    }),
  );
}

const COUNTS = countsOf({
  '2026-11-01': { 0: 2, 10: 3, 23: 1 },
  '2026-11-02': { 5: 4 },
  '2026-11-05': { 12: 7, 13: 1 },
});
/** Long after every window below. */
const LATER = at('2027-01-01T00:00:00Z');

describe('day count items', () => {
  it('names the hour attributes h00..h23 and reads an item, missing hours as 0', () => {
    expect(hourAttribute(0)).toBe('h00');
    expect(hourAttribute(23)).toBe('h23');
    const count = dayCountOf({ pk: 'C#1#call_day_counts', sk: '2026-11-01#07', day: '2026-11-01', calls: 3, h04: 2, h17: 1 });
    expect(count.day).toBe('2026-11-01');
    expect(count.calls).toBe(3);
    expect(count.hours).toHaveLength(24);
    expect(count.hours[4]).toBe(2);
    expect(count.hours[17]).toBe(1);
    expect(count.hours.reduce((a, b) => a + b, 0)).toBe(3);
  });
});

describe('day count shards', () => {
  it('sums the shards of each day, in any order, and keeps days apart', () => {
    const counts = dayCountsOf([
      { sk: '2026-11-01#00', day: '2026-11-01', calls: 2, h04: 1, h17: 1 },
      { sk: '2026-11-02#05', day: '2026-11-02', calls: 1, h09: 1 },
      { sk: '2026-11-01#15', day: '2026-11-01', calls: 3, h04: 3 },
      { sk: '2026-11-01#07', calls: 1, h23: 1 },
    ]);
    expect([...counts.keys()].sort()).toEqual(['2026-11-01', '2026-11-02']);
    const first = counts.get('2026-11-01')!;
    expect(first.calls).toBe(6);
    expect(first.hours[4]).toBe(4);
    expect(first.hours[17]).toBe(1);
    expect(first.hours[23]).toBe(1);
    expect(first.hours.reduce((a, b) => a + b, 0)).toBe(6);
    expect(counts.get('2026-11-02')).toEqual({ day: '2026-11-02', calls: 1, hours: Array.from({ length: 24 }, (_, hour) => (hour === 9 ? 1 : 0)) });
    // The window logic sees the summed day.
    expect(windowCount(counts, { fromMs: at('2026-11-01T00:00:00Z'), toMs: at('2026-11-01T23:59:59.999Z') }, LATER)).toEqual({ counted: 6, partial: [] });
    expect(windowCount(counts, { fromMs: at('2026-11-01T04:00:00Z'), toMs: at('2026-11-01T04:59:59.999Z') }, LATER)).toEqual({ counted: 4, partial: [] });
  });

  it('picks a call\'s shard from its id\'s random bits: every shard is used within one millisecond', () => {
    const ms = at('2026-11-01T10:00:00Z');
    const shards = Array.from({ length: 64 }, (_, random) => callDayShardOf(timeSortableId(ms, random)));
    expect(new Set(shards).size).toBe(CALL_DAY_COUNT_SHARDS);
    expect(shards.every((shard) => Number.isInteger(shard) && shard >= 0 && shard < CALL_DAY_COUNT_SHARDS)).toBe(true);
    expect(callDayShardOf(timeSortableId(ms, 5))).toBe(callDayShardOf(timeSortableId(ms + 1, 5)));
  });
});

describe('windowCount', () => {
  it('counts whole days from their totals and needs no calls read', () => {
    expect(windowCount(COUNTS, { fromMs: at('2026-11-01T00:00:00Z'), toMs: at('2026-11-05T23:59:59.999Z') }, LATER)).toEqual({ counted: 18, partial: [] });
    expect(windowCount(COUNTS, { fromMs: at('2026-11-02T00:00:00Z'), toMs: at('2026-11-04T23:59:59.999Z') }, LATER)).toEqual({ counted: 4, partial: [] });
  });

  it('counts whole hours of an edge day and leaves the cut hour, when it has calls, as a range to count', () => {
    // From 10:20 on the 1st: hour 10 is cut (3 calls), hour 23 whole, the 2nd whole.
    const from = at('2026-11-01T10:20:00Z');
    expect(windowCount(COUNTS, { fromMs: from, toMs: at('2026-11-02T23:59:59.999Z') }, LATER)).toEqual({
      counted: 1 + 4,
      partial: [{ fromMs: from, toMs: at('2026-11-01T10:59:59.999Z') }],
    });
    // From 11:00: hour 10 is outside; nothing to read.
    expect(windowCount(COUNTS, { fromMs: at('2026-11-01T11:00:00Z'), toMs: at('2026-11-02T23:59:59.999Z') }, LATER)).toEqual({ counted: 5, partial: [] });
    // A cut hour without calls needs no read.
    expect(windowCount(COUNTS, { fromMs: at('2026-11-01T09:20:00Z'), toMs: at('2026-11-01T23:59:59.999Z') }, LATER)).toEqual({ counted: 4, partial: [] });
  });

  it('leaves the hour of an upper bound in the past as a range, and one range when both bounds cut one hour', () => {
    const to = at('2026-11-05T12:30:00Z');
    expect(windowCount(COUNTS, { fromMs: at('2026-11-05T00:00:00Z'), toMs: to }, LATER)).toEqual({ counted: 0, partial: [{ fromMs: at('2026-11-05T12:00:00Z'), toMs: to }] });
    const from = at('2026-11-05T12:10:00Z');
    expect(windowCount(COUNTS, { fromMs: from, toMs: to }, LATER)).toEqual({ counted: 0, partial: [{ fromMs: from, toMs: to }] });
  });

  it('counts the last day whole when the window reaches now: no call is made after now', () => {
    const now = at('2026-11-05T12:30:00Z');
    expect(windowCount(COUNTS, { fromMs: at('2026-11-02T00:00:00Z'), toMs: now + 60_000 }, now)).toEqual({ counted: 4 + 8, partial: [] });
    // The default 30-day window: from now - 30 days, mid-hour, an edge hour with calls is read.
    const monthAgo = now - 30 * 24 * HOUR_MS;
    expect(new Date(monthAgo).toISOString()).toBe('2026-10-06T12:30:00.000Z');
    const withOld = countsOf({ '2026-10-06': { 12: 5, 13: 2 }, '2026-11-05': { 12: 7 } });
    expect(windowCount(withOld, { fromMs: monthAgo, toMs: now + 60_000 }, now)).toEqual({ counted: 2 + 7, partial: [{ fromMs: monthAgo, toMs: at('2026-10-06T12:59:59.999Z') }] });
  });

  it('counts nothing for an empty or inverted window', () => {
    expect(windowCount(COUNTS, { fromMs: at('2026-11-03T00:00:00Z'), toMs: at('2026-11-04T12:00:00Z') }, LATER)).toEqual({ counted: 0, partial: [] });
    expect(windowCount(COUNTS, { fromMs: at('2026-11-05T00:00:00Z'), toMs: at('2026-11-01T00:00:00Z') }, LATER)).toEqual({ counted: 0, partial: [] });
  });
});

describe('daysWithCalls', () => {
  it('lists only days with calls inside the window, judged by their hours', () => {
    const all = { fromMs: at('2026-10-01T00:00:00Z'), toMs: at('2026-11-30T00:00:00Z') };
    expect([...daysWithCalls(COUNTS, all)].sort()).toEqual(['2026-11-01', '2026-11-02', '2026-11-05']);
    // The 1st from 23:30 still has its hour-23 call; the 5th up to 11:59 has none.
    expect([...daysWithCalls(COUNTS, { fromMs: at('2026-11-01T23:30:00Z'), toMs: at('2026-11-05T11:59:59.999Z') })].sort()).toEqual(['2026-11-01', '2026-11-02']);
    expect(daysWithCalls(COUNTS, { fromMs: at('2026-11-03T00:00:00Z'), toMs: at('2026-11-04T23:59:59.999Z') }).size).toBe(0);
  });

  it('bounds the calls a filtered count would read by the totals of those days', () => {
    expect(callsOfDays(COUNTS, { fromMs: at('2026-11-01T23:30:00Z'), toMs: at('2026-11-02T23:00:00Z') })).toBe(6 + 4);
  });
});

describe('the backfill of a day', () => {
  it('counts calls per UTC hour from their creation times and stores only hours with calls', () => {
    const count = dayCountOfTimes('2026-11-01', [at('2026-11-01T00:00:00Z'), at('2026-11-01T00:59:59.999Z'), at('2026-11-01T13:30:00Z'), at('2026-11-01T23:59:59.999Z')]);
    expect(count.calls).toBe(4);
    expect(count.hours[0]).toBe(2);
    expect(count.hours[13]).toBe(1);
    expect(count.hours[23]).toBe(1);
    expect(dayCountAttributes(count)).toEqual({ day: '2026-11-01', calls: 4, h00: 2, h13: 1, h23: 1 });
    // Read back as the list reads it: the same counts.
    expect(dayCountOf({ sk: '2026-11-01#00', ...dayCountAttributes(count) })).toEqual(count);
  });

  it('splits a day\'s calls into the shards their ids pick, and the shards sum to the day', () => {
    const times = [at('2026-11-01T00:10:00Z'), at('2026-11-01T00:20:00Z'), at('2026-11-01T13:30:00Z'), at('2026-11-01T23:59:59.999Z')];
    // Two calls a moment: random parts 3 (shard 3) and 9, 25, 41, 57 (all shard 9).
    const ids = times.flatMap((ms, i) => [timeSortableId(ms, 3), timeSortableId(ms, 16 * i + 9)]);
    const shards = shardCountsOfIds('2026-11-01', ids);
    expect(shards).toHaveLength(CALL_DAY_COUNT_SHARDS);
    expect(shards[3]).toEqual(dayCountOfTimes('2026-11-01', times));
    expect(shards[9]).toEqual(dayCountOfTimes('2026-11-01', times));
    expect(shards.filter((shard) => shard.calls === 0)).toHaveLength(CALL_DAY_COUNT_SHARDS - 2);
    // Stored as items and read back as the list reads them: the day's exact counts.
    const items = shards.flatMap((shard, index) => (shard.calls > 0 ? [{ sk: `2026-11-01#${index}`, ...dayCountAttributes(shard) }] : []));
    expect(dayCountsOf(items).get('2026-11-01')).toEqual(dayCountOfTimes('2026-11-01', [...times, ...times]));
  });
});
