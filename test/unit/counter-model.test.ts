import { describe, expect, it } from 'vitest';
import { buildCounterUpdate, capReached, changeExceeds, currentCounters, periodKeys, type CounterLimits } from '../../shared/buyers/counter-model.js';


describe('periodKeys', () => {
  it('cuts hours, days and months in the buyer\'s time zone', () => {
    const now = new Date('2026-11-01T03:30:00Z');
    expect(periodKeys(now, 'UTC')).toEqual({ hourly: '2026-11-01T03', daily: '2026-11-01', monthly: '2026-11' });
    // 23:30 on 31 October in New York: still the previous day and month there.
    expect(periodKeys(now, 'America/New_York')).toEqual({ hourly: '2026-10-31T23', daily: '2026-10-31', monthly: '2026-10' });
    // Half-hour zones get their own hour boundaries.
    expect(periodKeys(new Date('2026-11-01T03:20:00Z'), 'Asia/Kolkata').hourly).toBe('2026-11-01T08');
  });
});

describe('currentCounters', () => {
  const keys = { hourly: '2026-11-21T05', daily: '2026-11-21', monthly: '2026-11' };
  const item = {
    hour_key: '2026-11-21T04',
    day_key: '2026-11-21',
    month_key: '2026-11',
    attempt_hourly: 3,
    attempt_daily: 7,
    attempt_monthly: 20,
    attempt_total: 100,
    concurrency: 2,
  };

  it('reads stale periods as zero and keeps fresh ones and totals', () => {
    const values = currentCounters(item, keys);
    expect(values.attempt).toEqual({ hourly: 0, daily: 7, monthly: 20, total: 100 });
    expect(values.connection).toEqual({ hourly: 0, daily: 0, monthly: 0, total: 0 });
    expect(values.concurrency).toBe(2);
  });

  it('names the first cap reached', () => {
    const values = currentCounters(item, keys);
    expect(capReached(values, { caps: { attempt: { daily: 8 } } })).toBeUndefined();
    expect(capReached(values, { caps: { attempt: { daily: 7 } } })).toBe('attempt_daily_limit');
    expect(capReached(values, { caps: {}, concurrency: 2 })).toBe('concurrency_cap_limit');
    expect(capReached(values, { caps: { attempt: { total: null } } })).toBeUndefined();
  });

  it('refuses a change that would pass a cap, and a reservation past the concurrency cap', () => {
    const values = currentCounters(item, keys);
    expect(changeExceeds(values, { increments: { attempt: 1 }, limits: { caps: { attempt: { daily: 8 } } } })).toBeUndefined();
    expect(changeExceeds(values, { increments: { attempt: 2 }, limits: { caps: { attempt: { daily: 8 } } } })).toBe('attempt_daily_limit');
    expect(changeExceeds(values, { increments: {}, concurrency: 1, limits: { caps: {}, concurrency: 2 } })).toBe('concurrency_cap_limit');
    // Without limits nothing is refused (counting a connection after the fact).
    expect(changeExceeds(values, { increments: { attempt: 100 } })).toBeUndefined();
    // A cap of 0 allows nothing.
    expect(changeExceeds(currentCounters(undefined, keys), { increments: { attempt: 1 }, limits: { caps: { attempt: { monthly: 0 } } } })).toBe('attempt_monthly_limit');
  });
});

describe('buildCounterUpdate', () => {
  const keys = { hourly: '2026-11-21T05', daily: '2026-11-21', monthly: '2026-11' };

  it('adds within the current periods, guarded by the keys it read and the caps', () => {
    const item = { hour_key: '2026-11-21T05', day_key: '2026-11-21', month_key: '2026-11', attempt_daily: 4 };
    const update = buildCounterUpdate(item, keys, { increments: { attempt: 1 }, concurrency: 1, limits: { caps: { attempt: { daily: 5 } }, concurrency: 3 } });
    const names = update.ExpressionAttributeNames;
    const values = update.ExpressionAttributeValues;
    const resolve = (text: string) => text.replace(/#n\d+/g, (p) => names[p]!).replace(/:v\d+/g, (p) => JSON.stringify(values[p]));
    expect(resolve(update.UpdateExpression)).toBe(
      'ADD attempt_hourly 1, attempt_daily 1, attempt_monthly 1, attempt_total 1, concurrency 1',
    );
    expect(resolve(update.ConditionExpression)).toBe(
      'hour_key = "2026-11-21T05" AND day_key = "2026-11-21" AND month_key = "2026-11"' +
        ' AND (attribute_not_exists(attempt_daily) OR attempt_daily <= 4)' +
        ' AND (attribute_not_exists(concurrency) OR concurrency < 3)',
    );
  });

  it('resets periods that rolled over and sets their new keys, for every metric', () => {
    const item = { hour_key: '2026-11-21T04', day_key: '2026-11-21', month_key: '2026-11', connection_hourly: 9 };
    const update = buildCounterUpdate(item, keys, { increments: { attempt: 1 } });
    const names = update.ExpressionAttributeNames;
    const values = update.ExpressionAttributeValues;
    const resolve = (text: string) => text.replace(/#n\d+/g, (p) => names[p]!).replace(/:v\d+/g, (p) => JSON.stringify(values[p]));
    const expression = resolve(update.UpdateExpression);
    expect(expression).toContain('hour_key = "2026-11-21T05"');
    expect(expression).toContain('attempt_hourly = 1');
    expect(expression).toContain('connection_hourly = 0');
    expect(expression).toContain('ADD attempt_daily 1, attempt_monthly 1, attempt_total 1');
    expect(expression).not.toContain('day_key =');
    expect(resolve(update.ConditionExpression)).toContain('hour_key = "2026-11-21T04"');
  });

  it('guards a first write by the absence of keys, and a release by a positive count', () => {
    const first = buildCounterUpdate(undefined, keys, { increments: {}, concurrency: -1 });
    const names = first.ExpressionAttributeNames;
    const condition = first.ConditionExpression.replace(/#n\d+/g, (p) => names[p]!);
    expect(condition).toContain('attribute_not_exists(hour_key)');
    expect(condition).toMatch(/concurrency > :v\d+/);
  });
});
