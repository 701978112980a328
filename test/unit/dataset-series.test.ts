import { describe, expect, it } from 'vitest';
import { seriesPoints } from '../../shared/reporting/datasets.js';
import { dncCheckEntry } from '../../shared/reporting/dnc-checks.js';

const at = (iso: string) => Date.parse(iso);

describe('seriesPoints', () => {
  const cells = [
    { startMs: at('2026-03-02T03:00:00Z'), value: '7', amount: 1 },
    { startMs: at('2026-03-02T05:00:00Z'), value: '12', amount: 2.1 },
    { startMs: at('2026-03-02T05:00:00Z'), value: '7', amount: 0.2 },
    { startMs: at('2026-03-09T10:00:00Z'), value: 'none', amount: 4 },
  ];

  it('sums every value by interval without a category, oldest first, in the zone', () => {
    // 03:00Z on 2 March is still 1 March in New York (UTC-5): a day of its own there.
    expect(seriesPoints(cells, 'day', 'America/New_York', false)).toEqual([
      { interval_start: '2026-03-01T00:00:00.000-05:00', category_value: null, value: 1 },
      { interval_start: '2026-03-02T00:00:00.000-05:00', category_value: null, value: 2.3 },
      { interval_start: '2026-03-09T00:00:00.000-04:00', category_value: null, value: 4 },
    ]);
    expect(seriesPoints(cells, 'day', 'UTC', false).map((point) => point.value)).toEqual([3.3, 4]);
  });

  it('splits by category value, ids in numeric order, over Monday-based weeks', () => {
    expect(seriesPoints(cells, 'week', 'UTC', true)).toEqual([
      { interval_start: '2026-03-02T00:00:00.000+00:00', category_value: '7', value: 1.2 },
      { interval_start: '2026-03-02T00:00:00.000+00:00', category_value: '12', value: 2.1 },
      { interval_start: '2026-03-09T00:00:00.000+00:00', category_value: 'none', value: 4 },
    ]);
  });

  it('has no point without cells', () => {
    expect(seriesPoints([], 'month', 'UTC', true)).toEqual([]);
  });
});

describe('dncCheckEntry', () => {
  it('keeps the result as a boolean and as text for filtering', () => {
    const entry = dncCheckEntry({ caller_number: '+14155550100', blocked: true, source: 'dial', lead_id: 9 }, new Date('2026-03-02T05:00:00Z'), 42);
    expect(entry).toMatchObject({ id: 42, caller_number: '+14155550100', blocked: true, result: 'blocked', source: 'dial', lead_id: 9, created_at: '2026-03-02T05:00:00.000Z' });
    expect(dncCheckEntry({ caller_number: '+1', blocked: false, source: 'lead', lead_id: null }, new Date(0), 1).result).toBe('allowed');
  });
});
