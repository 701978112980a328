import { describe, expect, it } from 'vitest';
import { groupedRowsFromCalls, groupedRowsFromRollups, readsCalls, rollupCategoryOf, STATS_FIGURES, STATS_GROUPS, type EndedCall } from '../../shared/calls/grouped-stats.js';
import type { RollupItem, TimeRange } from '../../shared/calls/report-aggregation.js';
import type { CallFigures, ReportCategory, Stats } from '../../shared/calls/rollups.js';

const ALL: TimeRange = { fromMs: Date.parse('2000-01-01T00:00:00Z'), toMs: Date.parse('2100-01-01T00:00:00Z') };

function cell(hour: string, value: string, stats: Partial<Stats>, category: ReportCategory = 'status'): RollupItem {
  return { day: hour.slice(0, 10), hour: hour.slice(11, 13), category, value, ...stats };
}

function ended(createdAt: string, figures: Partial<CallFigures>): EndedCall {
  const base: CallFigures = { created_at: createdAt, offer_id: 1, buyer_id: null, traffic_source_id: null, status: 'completed', buyer_converted: false, offer_converted: false, revenue: 0, payout: 0, answered_duration: 0, total_duration: 0 };
  return { createdMs: Date.parse(createdAt), figures: { ...base, ...figures } };
}

describe('which store serves a grouping', () => {
  it('reads calls only for five-minute buckets and money by offer_converted', () => {
    const fromCalls = STATS_GROUPS.flatMap((group) => STATS_FIGURES.filter((stat) => readsCalls(group, stat)).map((stat) => `${group}/${stat}`));
    expect(fromCalls).toEqual(['offer_converted/revenue', 'offer_converted/profit', 'offer_converted/cost', ...STATS_FIGURES.map((stat) => `created_at_five_minutes/${stat}`)]);
    expect(STATS_GROUPS.map(rollupCategoryOf)).toEqual(['converted', 'status', 'status', 'status', 'status', 'status', 'status']);
  });
});

describe('groupedRowsFromRollups', () => {
  const cells = [
    cell('2026-03-08T04', 'completed', { calls: 2, revenue: 30, payout: 5, profit: 25, offer_converted: 1 }),
    cell('2026-03-08T05', 'no_answer', { calls: 3, offer_converted: 0 }),
    cell('2026-03-09T10', 'completed', { calls: 1, revenue: 10.1, payout: 0.2, profit: 9.9, offer_converted: 1 }),
    // Another category's cells are not this grouping's.
    cell('2026-03-08T04', 'true', { calls: 2, revenue: 30 }, 'converted'),
  ];

  it('sums statuses most calls first, with the figure asked for (cost is the payout)', () => {
    expect(groupedRowsFromRollups(cells, 'status', 'count', 'UTC', ALL)).toEqual([
      { group: 'completed', amount: 3 },
      { group: 'no_answer', amount: 3 },
    ]);
    expect(groupedRowsFromRollups(cells, 'status', 'cost', 'UTC', ALL)).toEqual([
      { group: 'completed', amount: 5.2 },
      { group: 'no_answer', amount: 0 },
    ]);
  });

  it('buckets intervals in the zone, oldest first, within the range', () => {
    expect(groupedRowsFromRollups(cells, 'created_at_day', 'revenue', 'America/New_York', ALL)).toEqual([
      { group: '2026-03-07T00:00:00.000-05:00', amount: 30 },
      { group: '2026-03-08T00:00:00.000-05:00', amount: 0 },
      { group: '2026-03-09T00:00:00.000-04:00', amount: 10.1 },
    ]);
    const march9 = { fromMs: Date.parse('2026-03-09T00:00:00Z'), toMs: ALL.toMs };
    expect(groupedRowsFromRollups(cells, 'created_at_month', 'profit', 'UTC', march9)).toEqual([{ group: '2026-03-01T00:00:00.000+00:00', amount: 9.9 }]);
  });

  it("counts offer_converted from the cells' field, and refuses money by it", () => {
    expect(groupedRowsFromRollups(cells, 'offer_converted', 'count', 'UTC', ALL)).toEqual([
      { group: false, amount: 4 },
      { group: true, amount: 2 },
    ]);
    expect(() => groupedRowsFromRollups(cells, 'offer_converted', 'revenue', 'UTC', ALL)).toThrow(/not held by the rollups/);
  });

  it('reads buyer_converted from the converted cells as booleans', () => {
    expect(groupedRowsFromRollups(cells, 'buyer_converted', 'revenue', 'UTC', ALL)).toEqual([{ group: true, amount: 30 }]);
  });
});

describe('groupedRowsFromCalls', () => {
  const calls = [
    ended('2026-03-08T04:02:10Z', { revenue: 20, payout: 5, offer_converted: true }),
    ended('2026-03-08T04:04:59Z', { revenue: 0.1, payout: 0.2 }),
    ended('2026-03-08T04:05:00Z', { revenue: 0.2, offer_converted: true }),
  ];

  it('buckets five minutes in the zone, oldest first', () => {
    expect(groupedRowsFromCalls(calls, 'created_at_five_minutes', 'count', 'Asia/Kathmandu')).toEqual([
      { group: '2026-03-08T09:45:00.000+05:45', amount: 2 },
      { group: '2026-03-08T09:50:00.000+05:45', amount: 1 },
    ]);
    expect(groupedRowsFromCalls(calls, 'created_at_five_minutes', 'profit', 'UTC').map((row) => row.amount)).toEqual([14.9, 0.2]);
  });

  it('splits money by offer_converted, most calls first, in cents', () => {
    expect(groupedRowsFromCalls(calls, 'offer_converted', 'revenue', 'UTC')).toEqual([
      { group: true, amount: 20.2 },
      { group: false, amount: 0.1 },
    ]);
    expect(groupedRowsFromCalls([], 'offer_converted', 'cost', 'UTC')).toEqual([]);
  });
});
