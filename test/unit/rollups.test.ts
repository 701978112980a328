import { describe, expect, it } from 'vitest';
import { categoryValue, cellsOf, emptyStats, REPORT_CATEGORIES, rollupChanges, statsOf, type CallFigures } from '../../shared/calls/rollups.js';

const call = (fields: Partial<CallFigures> = {}): CallFigures => ({
  created_at: '2026-05-01T13:45:10.000Z',
  offer_id: 3,
  buyer_id: 7,
  traffic_source_id: null,
  status: 'completed',
  buyer_converted: true,
  offer_converted: true,
  revenue: 40,
  payout: 12.5,
  answered_duration: 90,
  total_duration: 100,
  ...fields,
});

describe('statsOf', () => {
  it('counts one call with its money and seconds, answered when it was talked to', () => {
    expect(statsOf(call())).toEqual({ calls: 1, answered: 1, buyer_converted: 1, offer_converted: 1, revenue: 40, payout: 12.5, profit: 27.5, answered_duration: 90, total_duration: 100 });
    expect(statsOf(call({ answered_duration: 0, buyer_converted: false, offer_converted: false, revenue: 0, payout: 0 }))).toMatchObject({ answered: 0, buyer_converted: 0, profit: 0 });
  });

  it('keeps profit in cents', () => {
    expect(statsOf(call({ revenue: 0.3, payout: 0.1 })).profit).toBe(0.2);
  });
});

describe('categoryValue and cellsOf', () => {
  it('names the value of each category, none for a missing id', () => {
    const figures = call();
    expect(REPORT_CATEGORIES.map((category) => categoryValue(figures, category))).toEqual(['3', '7', 'none', 'completed', 'true']);
    expect(categoryValue(call({ buyer_id: null, buyer_converted: false }), 'buyer')).toBe('none');
    expect(categoryValue(call({ buyer_converted: false }), 'converted')).toBe('false');
  });

  it('puts a call in one cell per category, in the UTC hour it was created', () => {
    const cells = cellsOf(call({ created_at: '2026-05-01T23:59:59.999-01:00' }));
    expect(cells).toHaveLength(5);
    expect(cells.every((cell) => cell.day === '2026-05-02' && cell.hour === '00')).toBe(true);
    expect(cells.map((cell) => `${cell.category}=${cell.value}`)).toEqual(['offer=3', 'buyer=7', 'traffic_source=none', 'status=completed', 'converted=true']);
  });
});

describe('rollupChanges', () => {
  it('adds a new call to each of its cells', () => {
    const changes = rollupChanges(undefined, call());
    expect(changes).toHaveLength(5);
    for (const change of changes) expect(change.delta).toEqual(statsOf(call()));
  });

  it('moves only the difference when a call stays in its cells', () => {
    const changes = rollupChanges(call(), call({ revenue: 55.1 }));
    expect(changes).toHaveLength(5);
    for (const change of changes) expect(change.delta).toEqual({ ...emptyStats(), revenue: 15.1, profit: 15.1 });
  });

  it('takes the old figures out of a cell the call leaves and puts the new ones in the cell it enters', () => {
    const changes = rollupChanges(call(), call({ buyer_converted: false, revenue: 0 }));
    const converted = changes.filter((change) => change.cell.category === 'converted');
    expect(converted.map((change) => [change.cell.value, change.delta.calls, change.delta.revenue, change.delta.buyer_converted])).toEqual([
      ['true', -1, -40, -1],
      ['false', 1, 0, 0],
    ]);
    // The cells it stays in only lose the revenue and the conversion.
    expect(changes.find((change) => change.cell.category === 'offer')!.delta).toEqual({ ...emptyStats(), buyer_converted: -1, revenue: -40, profit: -40 });
  });

  it('changes nothing when nothing a report adds up changed', () => {
    expect(rollupChanges(call(), call())).toEqual([]);
  });
});
