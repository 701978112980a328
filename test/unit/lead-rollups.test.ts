import { describe, expect, it } from 'vitest';
import { leadCells, leadFigures, leadReportRows, leadRollupChanges, leadStatsRows, rangeMonths, type LeadFigures } from '../../shared/leads/lead-rollups.js';

const base: LeadFigures = { created_at: '2030-05-01T12:34:00.000Z', offer_id: 9, schedule_id: null, traffic_source_id: null, status: 'active', converted: false };

describe('lead rollups', () => {
  it('count a lead once per category in the UTC hour it was created', () => {
    expect(leadCells(base).map((cell) => `${cell.month}/${cell.day}T${cell.hour} ${cell.category}=${cell.value}`)).toEqual([
      '2030-05/01T12 offer=9',
      '2030-05/01T12 schedule=none',
      '2030-05/01T12 status=active',
      '2030-05/01T12 traffic_source=none',
    ]);
    expect(leadFigures({ created_at: base.created_at, offer_id: 1, schedule_id: 2, status: 'active', converted: false, data: { traffic_source_id: '17' } }).traffic_source_id).toBe(17);
    expect(leadFigures({ created_at: base.created_at, offer_id: 1, schedule_id: 2, status: 'active', converted: false, data: { traffic_source_id: 'abc' } }).traffic_source_id).toBeNull();
  });

  it('move a status change between status cells and within the others; a deletion takes everything back', () => {
    const created = leadRollupChanges(undefined, base);
    expect(created).toHaveLength(4);
    expect(created.every((change) => change.delta.leads === 1 && change.delta.active === 1)).toBe(true);
    const ended = leadRollupChanges(base, { ...base, status: 'opted_out', converted: true });
    const byCell = Object.fromEntries(ended.map((change) => [`${change.cell.category}=${change.cell.value}`, change.delta]));
    expect(byCell['status=active']).toMatchObject({ leads: -1, active: -1 });
    expect(byCell['status=opted_out']).toMatchObject({ leads: 1, opted_out: 1, converted: 1 });
    expect(byCell['offer=9']).toMatchObject({ leads: 0, active: -1, opted_out: 1, converted: 1 });
    expect(leadRollupChanges(base, base)).toEqual([]);
    expect(leadRollupChanges(base, undefined).every((change) => change.delta.leads === -1)).toBe(true);
  });

  it('reads the months a range touches and sums the cells whose hour starts in range', () => {
    expect(rangeMonths(Date.parse('2030-11-20T00:00:00Z'), Date.parse('2031-02-01T00:00:00Z'))).toEqual(['2030-11', '2030-12', '2031-01', '2031-02']);
    const items = [
      { month: '2030-05', day: '01', hour: '12', category: 'offer', value: '9', leads: 2, active: 2 },
      { month: '2030-05', day: '01', hour: '13', category: 'offer', value: '9', leads: 1, active: 1 },
      { month: '2030-05', day: '01', hour: '12', category: 'offer', value: '4', leads: 5 },
      { month: '2030-05', day: '01', hour: '12', category: 'status', value: 'active', leads: 9 },
      { month: '2030-05', day: '01', hour: '12', category: 'offer', value: '8', leads: 0 },
    ];
    const rows = leadReportRows(items, 'offer', Date.parse('2030-05-01T12:00:00Z'), Date.parse('2030-05-01T12:59:59Z'));
    expect(rows.map((row) => [row.value, row.stats.leads])).toEqual([
      ['4', 5],
      ['9', 2],
    ]);
  });
});

describe('leadStatsRows', () => {
  const item = (at: string, value: string, leads: number) => ({ month: at.slice(0, 7), day: at.slice(8, 10), hour: at.slice(11, 13), category: 'offer', value, leads, active: leads });
  const items = [item('2030-05-01T23', '1', 1), item('2030-05-02T03', '1', 2), item('2030-05-02T03', '2', 3), item('2030-05-03T10', '1', 1), { ...item('2030-05-02T03', 'active', 9), category: 'status' }];
  const all = [Date.parse('2030-05-01T00:00:00Z'), Date.parse('2030-05-03T00:00:00Z')] as const;

  it('sums the cells per interval in the zone, oldest first, most leads first within one, within the range only', () => {
    const rows = leadStatsRows(items, 'offer', 'day', 'UTC', ...all);
    expect(rows.map((row) => [row.interval_start, row.value, row.stats.leads])).toEqual([
      ['2030-05-01T00:00:00.000+00:00', '1', 1],
      ['2030-05-02T00:00:00.000+00:00', '2', 3],
      ['2030-05-02T00:00:00.000+00:00', '1', 2],
    ]);
    // 23:00 and 03:00 UTC are both May 1 in New York (the same interval).
    expect(leadStatsRows(items, 'offer', 'day', 'America/New_York', ...all).map((row) => [row.interval_start, row.value, row.stats.leads])).toEqual([
      ['2030-05-01T00:00:00.000-04:00', '1', 3],
      ['2030-05-01T00:00:00.000-04:00', '2', 3],
    ]);
  });
});
