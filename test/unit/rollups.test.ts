import { describe, expect, it } from 'vitest';
import { categoryItems, categoryValue, cellsOf, emptyStats, REPORT_CATEGORIES, rollupChanges, statsOf, storedCategoriesOf, type CallFigures, type RollupItem, type Stats } from '../../shared/calls/rollups.js';

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

  it('puts a call in its mix cell and its buyer cell, in the UTC hour it was created', () => {
    const cells = cellsOf(call({ created_at: '2026-05-01T23:59:59.999-01:00' }));
    expect(cells.every((cell) => cell.day === '2026-05-02' && cell.hour === '00')).toBe(true);
    expect(cells.map((cell) => `${cell.category}=${cell.value}`)).toEqual(['mix=3|none|completed|true', 'buyer=7']);
  });

  it('gives a call without a buyer its mix cell only', () => {
    expect(cellsOf(call({ offer_id: null, buyer_id: null, buyer_converted: false, status: 'no_buyer' })).map((cell) => `${cell.category}=${cell.value}`)).toEqual(['mix=none|none|no_buyer|false']);
  });
});

describe('categoryItems', () => {
  const stored = (hour: string, category: string, value: string, stats: Partial<Stats>): RollupItem => ({ day: '2026-05-01', hour, category, value, ...stats });
  // What a report adds up per hour and value: calls and revenue.
  const sums = (items: RollupItem[]) => {
    const out: Record<string, [number, number]> = {};
    for (const item of items) {
      const [calls, revenue] = out[`${item.hour} ${item.category}=${item.value}`] ?? [0, 0];
      out[`${item.hour} ${item.category}=${item.value}`] = [calls + Number(item.calls ?? 0), Math.round((revenue + Number(item.revenue ?? 0)) * 100) / 100];
    }
    return out;
  };

  it('reads a category from the mix cells by its part of their value', () => {
    const items = [stored('10', 'mix', '3|8|completed|true', { calls: 2, revenue: 80 }), stored('10', 'mix', '4|none|no_answer|false', { calls: 1 }), stored('10', 'buyer', '7', { calls: 2, revenue: 80 })];
    expect(sums(categoryItems(items, 'offer'))).toEqual({ '10 offer=3': [2, 80], '10 offer=4': [1, 0] });
    expect(sums(categoryItems(items, 'traffic_source'))).toEqual({ '10 traffic_source=8': [2, 80], '10 traffic_source=none': [1, 0] });
    expect(sums(categoryItems(items, 'status'))).toEqual({ '10 status=completed': [2, 80], '10 status=no_answer': [1, 0] });
    expect(sums(categoryItems(items, 'converted'))).toEqual({ '10 converted=true': [2, 80], '10 converted=false': [1, 0] });
  });

  it('derives the calls without a buyer per hour: its calls less its buyer cells', () => {
    const items = [
      stored('10', 'mix', '3|none|completed|true', { calls: 3, revenue: 80.3 }),
      stored('10', 'buyer', '7', { calls: 2, revenue: 80.1 }),
      stored('11', 'mix', '3|none|completed|true', { calls: 1, revenue: 5 }),
      stored('11', 'buyer', '7', { calls: 1, revenue: 5 }),
    ];
    // Hour 11 has no call without a buyer, so no `none` cell; money stays in cents.
    expect(sums(categoryItems(items, 'buyer'))).toEqual({ '10 buyer=7': [2, 80.1], '11 buyer=7': [1, 5], '10 buyer=none': [1, 0.2] });
  });

  it('still counts cells of the older layout (one per category), their none buyer cells in the derived one', () => {
    const items = [
      stored('09', 'offer', '3', { calls: 2 }),
      stored('09', 'buyer', '7', { calls: 1 }),
      stored('09', 'buyer', 'none', { calls: 1 }),
      stored('09', 'status', 'completed', { calls: 2 }),
      stored('09', 'converted', 'false', { calls: 2 }),
      stored('09', 'mix', '3|none|completed|false', { calls: 1 }),
    ];
    expect(sums(categoryItems(items, 'offer'))).toEqual({ '09 offer=3': [3, 0] });
    expect(sums(categoryItems(items, 'buyer'))).toEqual({ '09 buyer=7': [1, 0], '09 buyer=none': [2, 0] });
    expect(sums(categoryItems(items, 'status'))).toEqual({ '09 status=completed': [3, 0] });
  });

  it('names the stored kinds a category is read from', () => {
    expect(storedCategoriesOf('offer')).toEqual(['offer', 'mix']);
    expect(storedCategoriesOf('buyer')).toEqual(['buyer', 'mix', 'status']);
  });
});

describe('rollupChanges', () => {
  it('adds a new call to each of its cells', () => {
    const changes = rollupChanges(undefined, call());
    expect(changes).toHaveLength(2);
    for (const change of changes) expect(change.delta).toEqual(statsOf(call()));
  });

  it('moves only the difference when a call stays in its cells', () => {
    const changes = rollupChanges(call(), call({ revenue: 55.1 }));
    expect(changes).toHaveLength(2);
    for (const change of changes) expect(change.delta).toEqual({ ...emptyStats(), revenue: 15.1, profit: 15.1 });
  });

  it('takes the old figures out of a cell the call leaves and puts the new ones in the cell it enters', () => {
    const changes = rollupChanges(call(), call({ buyer_converted: false, revenue: 0 }));
    const mix = changes.filter((change) => change.cell.category === 'mix');
    expect(mix.map((change) => [change.cell.value, change.delta.calls, change.delta.revenue, change.delta.buyer_converted])).toEqual([
      ['3|none|completed|true', -1, -40, -1],
      ['3|none|completed|false', 1, 0, 0],
    ]);
    // The cell it stays in only loses the revenue and the conversion.
    expect(changes.find((change) => change.cell.category === 'buyer')!.delta).toEqual({ ...emptyStats(), buyer_converted: -1, revenue: -40, profit: -40 });
  });

  it('changes nothing when nothing a report adds up changed', () => {
    expect(rollupChanges(call(), call())).toEqual([]);
  });
});
