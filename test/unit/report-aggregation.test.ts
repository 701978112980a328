import { describe, expect, it } from 'vitest';
import {
  cellInRange,
  displayValue,
  intervalBuckets,
  intervalStartMs,
  rangePartitions,
  reportRows,
  statsRows,
  todayIn,
  type RollupItem,
  type TimeRange,
} from '../../shared/calls/report-aggregation.js';
import { emptyStats, type ReportCategory, type Stats } from '../../shared/calls/rollups.js';

const ms = (iso: string) => Date.parse(iso);
const range = (from: string, to: string): TimeRange => ({ fromMs: ms(from), toMs: ms(to) });
const ALL: TimeRange = range('2000-01-01T00:00:00Z', '2100-01-01T00:00:00Z');

/** A rollup cell at a UTC hour (`2026-03-08T05`) with some stats. */
function cell(hour: string, value: string, stats: Partial<Stats> = { calls: 1 }, category: ReportCategory = 'offer'): RollupItem {
  return { day: hour.slice(0, 10), hour: hour.slice(11, 13), category, value, ...stats };
}

const starts = (rows: Array<{ interval_start: string }>) => rows.map((row) => row.interval_start);

describe('rangePartitions', () => {
  it('lists each UTC day with the hours whose start lies in the range', () => {
    expect(rangePartitions(range('2026-03-07T22:30:00Z', '2026-03-09T01:00:00Z'))).toEqual([
      { day: '2026-03-07', firstHour: '23', lastHour: '23' },
      { day: '2026-03-08', firstHour: '00', lastHour: '23' },
      { day: '2026-03-09', firstHour: '00', lastHour: '01' },
    ]);
  });

  it('covers today in a half-hour zone with the UTC hours starting in it', () => {
    const today = todayIn(new Date('2026-06-10T12:00:00Z'), 'Asia/Kolkata');
    expect(today).toEqual({ fromMs: ms('2026-06-09T18:30:00Z'), toMs: ms('2026-06-10T18:29:59.999Z') });
    expect(rangePartitions(today)).toEqual([
      { day: '2026-06-09', firstHour: '19', lastHour: '23' },
      { day: '2026-06-10', firstHour: '00', lastHour: '18' },
    ]);
  });

  it('is empty for a range between two hour starts', () => {
    expect(rangePartitions(range('2026-03-07T10:05:00Z', '2026-03-07T10:55:00Z'))).toEqual([]);
  });
});

describe('cellInRange', () => {
  it('takes a cell whose hour starts within the range, both ends inclusive', () => {
    const r = range('2026-01-01T10:00:00Z', '2026-01-01T12:00:00Z');
    expect(cellInRange(cell('2026-01-01T10', '1'), r)).toBe(true);
    expect(cellInRange(cell('2026-01-01T12', '1'), r)).toBe(true);
    expect(cellInRange(cell('2026-01-01T09', '1'), r)).toBe(false);
    expect(cellInRange(cell('2026-01-01T13', '1'), r)).toBe(false);
    // A bound inside an hour: from 10:30 starts with the 11:00 cell.
    expect(cellInRange(cell('2026-01-01T10', '1'), range('2026-01-01T10:30:00Z', '2026-01-01T12:00:00Z'))).toBe(false);
  });
});

describe('reportRows', () => {
  it('sums the cells of the category by value, money in cents, most calls first', () => {
    const items = [
      cell('2026-01-01T10', '10', { calls: 1, answered: 1, revenue: 0.1, payout: 0.05, profit: 0.05, answered_duration: 30, total_duration: 40 }),
      cell('2026-01-01T11', '10', { calls: 1, answered: 0, revenue: 0.2, payout: 0.05, profit: 0.15, answered_duration: 0, total_duration: 12 }),
      cell('2026-01-01T11', '2', { calls: 1, buyer_converted: 1, offer_converted: 1, revenue: 40 }),
      cell('2026-01-01T12', '3', { calls: 2 }),
      cell('2026-01-01T12', '7', { calls: 5 }, 'buyer'),
    ];
    const rows = reportRows(items, 'offer', ALL);
    expect(rows.map((row) => row.value)).toEqual(['3', '10', '2']);
    expect(rows[1]!.stats).toEqual({ ...emptyStats(), calls: 2, answered: 1, revenue: 0.3, payout: 0.1, profit: 0.2, answered_duration: 30, total_duration: 52 });
    expect(rows[2]!.stats).toMatchObject({ calls: 1, buyer_converted: 1, offer_converted: 1, revenue: 40 });
  });

  it('orders ties by value, numerically for ids', () => {
    const rows = reportRows([cell('2026-01-01T10', '10'), cell('2026-01-01T10', '9'), cell('2026-01-01T10', 'none')], 'offer', ALL);
    expect(rows.map((row) => row.value)).toEqual(['9', '10', 'none']);
  });

  it('leaves out cells outside the range and values every call has left', () => {
    const items = [
      cell('2026-01-01T09', '1'),
      cell('2026-01-01T10', '2'),
      // A call moved out of value 3 by an update: its cell nets to zero.
      cell('2026-01-01T10', '3', { calls: 1, revenue: 5 }),
      cell('2026-01-01T10', '3', { calls: -1, revenue: -5 }),
    ];
    const rows = reportRows(items, 'offer', range('2026-01-01T10:00:00Z', '2026-01-01T10:59:59Z'));
    expect(rows.map((row) => row.value)).toEqual(['2']);
  });
});

describe('intervalBuckets', () => {
  it('groups any items by the interval their start falls in, oldest first, keeping their order within one', () => {
    const items = [
      { id: 'c', at: '2026-03-03T10:00:00Z' },
      { id: 'a', at: '2026-03-01T23:00:00Z' },
      { id: 'b', at: '2026-03-02T04:00:00Z' },
    ];
    const grouped = (zone: string, interval: 'day' | 'week') => intervalBuckets(items, (item) => ms(item.at), interval, zone).map((bucket) => [bucket.interval_start, bucket.items.map((item) => item.id)]);
    expect(grouped('UTC', 'day')).toEqual([
      ['2026-03-01T00:00:00.000+00:00', ['a']],
      ['2026-03-02T00:00:00.000+00:00', ['b']],
      ['2026-03-03T00:00:00.000+00:00', ['c']],
    ]);
    // 04:00 UTC on the 2nd is still the 1st in Chicago; weeks start on Monday the 2nd.
    expect(grouped('America/Chicago', 'day')).toEqual([
      ['2026-03-01T00:00:00.000-06:00', ['a', 'b']],
      ['2026-03-03T00:00:00.000-06:00', ['c']],
    ]);
    expect(grouped('UTC', 'week')).toEqual([
      ['2026-02-23T00:00:00.000+00:00', ['a']],
      ['2026-03-02T00:00:00.000+00:00', ['c', 'b']],
    ]);
    expect(intervalBuckets([], () => 0, 'hour', 'UTC')).toEqual([]);
  });
});

describe('intervalStartMs and statsRows', () => {
  it('buckets days across the spring DST change in the zone (a 23-hour day)', () => {
    const items = [
      cell('2026-03-08T04', '1'), // 23:00 EST on the 7th
      cell('2026-03-08T05', '1'), // 00:00 EST on the 8th
      cell('2026-03-08T07', '1'), // 03:00 EDT on the 8th (02:00 never happened)
      cell('2026-03-09T03', '1'), // 23:00 EDT on the 8th
      cell('2026-03-09T04', '1'), // 00:00 EDT on the 9th
    ];
    const rows = statsRows(items, 'offer', 'day', 'America/New_York', ALL);
    expect(rows.map((row) => [row.interval_start, row.stats.calls])).toEqual([
      ['2026-03-07T00:00:00.000-05:00', 1],
      ['2026-03-08T00:00:00.000-05:00', 3],
      ['2026-03-09T00:00:00.000-04:00', 1],
    ]);
  });

  it('keeps the repeated hour of the autumn DST change as two hours with their own offsets', () => {
    const rows = statsRows([cell('2026-11-01T05', '1'), cell('2026-11-01T06', '1', { calls: 2 })], 'offer', 'hour', 'America/New_York', ALL);
    expect(rows.map((row) => [row.interval_start, row.stats.calls])).toEqual([
      ['2026-11-01T01:00:00.000-04:00', 1],
      ['2026-11-01T01:00:00.000-05:00', 2],
    ]);
    // And the day that has 25 hours holds both.
    expect(starts(statsRows([cell('2026-11-01T04', '1'), cell('2026-11-02T04', '1'), cell('2026-11-02T05', '1')], 'offer', 'day', 'America/New_York', ALL))).toEqual([
      '2026-11-01T00:00:00.000-04:00',
      '2026-11-02T00:00:00.000-05:00',
    ]);
  });

  it('starts weeks on Monday, in the zone', () => {
    // 2026-03-01 is a Sunday, 2026-03-02 a Monday.
    expect(starts(statsRows([cell('2026-03-01T12', '1'), cell('2026-03-02T00', '1')], 'offer', 'week', 'UTC', ALL))).toEqual([
      '2026-02-23T00:00:00.000+00:00',
      '2026-03-02T00:00:00.000+00:00',
    ]);
    // Monday 05:00 UTC is still Sunday evening in Los Angeles.
    expect(starts(statsRows([cell('2026-03-02T05', '1'), cell('2026-03-02T09', '1')], 'offer', 'week', 'America/Los_Angeles', ALL))).toEqual([
      '2026-02-23T00:00:00.000-08:00',
      '2026-03-02T00:00:00.000-08:00',
    ]);
  });

  it('puts month boundaries where the zone has them', () => {
    const rows = statsRows([cell('2026-01-31T14', '1'), cell('2026-01-31T15', '1'), cell('2026-02-28T14', '1')], 'offer', 'month', 'Asia/Tokyo', ALL);
    expect(rows.map((row) => [row.interval_start, row.stats.calls])).toEqual([
      ['2026-01-01T00:00:00.000+09:00', 1], // Jan 31 23:00 JST
      ['2026-02-01T00:00:00.000+09:00', 2], // Feb 1 00:00 JST and Feb 28 23:00 JST
    ]);
    expect(intervalStartMs(ms('2026-02-28T15:00:00Z'), 'month', 'Asia/Tokyo')).toBe(ms('2026-02-28T15:00:00Z')); // Mar 1 00:00 JST
  });

  it('buckets by the UTC hour in half-hour zones', () => {
    // 18:00 UTC is 23:30 in Kolkata: the whole hour counts on the 1st, its hour row starts at 23:30.
    const items = [cell('2026-01-01T18', '1'), cell('2026-01-01T19', '1')];
    expect(starts(statsRows(items, 'offer', 'day', 'Asia/Kolkata', ALL))).toEqual(['2026-01-01T00:00:00.000+05:30', '2026-01-02T00:00:00.000+05:30']);
    expect(starts(statsRows(items, 'offer', 'hour', 'Asia/Kolkata', ALL))).toEqual(['2026-01-01T23:30:00.000+05:30', '2026-01-02T00:30:00.000+05:30']);
  });

  it('orders rows by interval, then most calls, and adds up to the report over the same range', () => {
    const items = [
      cell('2026-01-01T10', '1', { calls: 1, revenue: 10 }),
      cell('2026-01-01T10', '2', { calls: 3, revenue: 1 }),
      cell('2026-01-02T10', '1', { calls: 2, revenue: 20.5 }),
      cell('2026-01-03T10', '2', { calls: 1 }),
    ];
    const r = range('2026-01-01T00:00:00Z', '2026-01-02T23:59:59Z');
    const rows = statsRows(items, 'offer', 'day', 'UTC', r);
    expect(rows.map((row) => [row.interval_start.slice(0, 10), row.value])).toEqual([
      ['2026-01-01', '2'],
      ['2026-01-01', '1'],
      ['2026-01-02', '1'],
    ]);
    const summed = new Map<string, number>();
    for (const row of rows) summed.set(row.value, (summed.get(row.value) ?? 0) + row.stats.revenue);
    expect(Object.fromEntries(summed)).toEqual(Object.fromEntries(reportRows(items, 'offer', r).map((row) => [row.value, row.stats.revenue])));
  });
});

describe('displayValue', () => {
  it('shows ids as numbers, none as null, converted as a boolean and statuses as they are', () => {
    expect(displayValue('buyer', '12')).toBe(12);
    expect(displayValue('traffic_source', 'none')).toBeNull();
    expect(displayValue('converted', 'true')).toBe(true);
    expect(displayValue('converted', 'false')).toBe(false);
    expect(displayValue('status', 'no_buyer')).toBe('no_buyer');
  });
});
