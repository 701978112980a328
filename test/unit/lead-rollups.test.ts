import { describe, expect, it } from 'vitest';
import { leadCells, leadFigures, leadReportRows, leadRollupChanges, rangeMonths, type LeadFigures } from '../../shared/leads/lead-rollups.js';

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
