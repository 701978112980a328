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

describe('periodKeys once per zone per instant', () => {
  it('works a zone\'s keys out once for one instant (routing asks once per buyer) and again for the next instant', () => {
    const now = new Date('2026-11-01T03:30:00Z');
    const first = periodKeys(now, 'America/Chicago');
    expect(periodKeys(new Date(now.getTime()), 'America/Chicago')).toBe(first);
    expect(periodKeys(now, 'UTC')).toEqual({ hourly: '2026-11-01T03', daily: '2026-11-01', monthly: '2026-11' });
    expect(periodKeys(now, 'America/Chicago')).toBe(first);
    // An hour later: new keys, not the remembered ones.
    expect(periodKeys(new Date('2026-11-01T04:30:00Z'), 'America/Chicago')).toEqual({ hourly: '2026-10-31T23', daily: '2026-10-31', monthly: '2026-10' });
    expect(periodKeys(new Date('2026-11-01T06:30:00Z'), 'UTC').hourly).toBe('2026-11-01T06');
    expect(() => periodKeys(now, 'Not/AZone')).toThrow(RangeError);
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

describe('counter model edge cases', () => {
  const keys = { hourly: '2026-11-21T05', daily: '2026-11-21', monthly: '2026-11' };
  const fresh = { hour_key: keys.hourly, day_key: keys.daily, month_key: keys.monthly };
  const resolve = (update: ReturnType<typeof buildCounterUpdate>, text: string) =>
    text.replace(/#n\d+/g, (p) => update.ExpressionAttributeNames[p]!).replace(/:v\d+/g, (p) => JSON.stringify(update.ExpressionAttributeValues[p]));

  it('refuses an unknown time zone instead of counting in the wrong periods', () => {
    expect(() => periodKeys(new Date('2026-11-21T05:00:00Z'), 'Mars/Olympus_Mons')).toThrow(new RangeError('invalid time zone Mars/Olympus_Mons'));
  });

  it('reads counts that are not finite numbers as 0', () => {
    const values = currentCounters({ ...fresh, attempt_daily: '7', attempt_total: Number.NaN, concurrency: Number.POSITIVE_INFINITY }, keys);
    expect(values.attempt.daily).toBe(0);
    expect(values.attempt.total).toBe(0);
    expect(values.concurrency).toBe(0);
  });

  it('lets a reservation take the last free concurrent call, and never refuses a release', () => {
    const oneHeld = currentCounters({ ...fresh, concurrency: 1 }, keys);
    expect(changeExceeds(oneHeld, { increments: {}, concurrency: 1, limits: { caps: {}, concurrency: 2 } })).toBeUndefined();
    const full = currentCounters({ ...fresh, concurrency: 2 }, keys);
    expect(changeExceeds(full, { increments: {}, concurrency: -1, limits: { caps: {}, concurrency: 2 } })).toBeUndefined();
    expect(changeExceeds(full, { increments: {}, concurrency: 1, limits: { caps: {}, concurrency: null } })).toBeUndefined();
  });

  it('never refuses a zero or negative change (a refund) even when a lowered cap is already passed', () => {
    const over = currentCounters({ ...fresh, revenue_daily: 120, attempt_daily: 9 }, keys);
    const limits: CounterLimits = { caps: { revenue: { daily: 100 }, attempt: { daily: 5 } } };
    expect(changeExceeds(over, { increments: { revenue: -20 }, limits })).toBeUndefined();
    expect(changeExceeds(over, { increments: { attempt: 0 }, limits })).toBeUndefined();
    // A metric without caps of its own is not limited by another's.
    expect(changeExceeds(over, { increments: { connection: 3 }, limits })).toBeUndefined();
  });

  it('guards only positive changes by their caps, and only reservations by the concurrency cap', () => {
    const refund = buildCounterUpdate(fresh, keys, { increments: { revenue: -20, connection: 1 }, concurrency: -1, limits: { caps: { revenue: { daily: 100 } }, concurrency: 3 } });
    expect(resolve(refund, refund.ConditionExpression)).toBe('hour_key = "2026-11-21T05" AND day_key = "2026-11-21" AND month_key = "2026-11" AND concurrency > 0');
    // A cap that is not a finite number is no cap.
    const noCap = buildCounterUpdate(fresh, keys, { increments: { attempt: 1 }, concurrency: 1, limits: { caps: { attempt: { daily: Number.NaN } }, concurrency: null } });
    expect(resolve(noCap, noCap.ConditionExpression)).toBe('hour_key = "2026-11-21T05" AND day_key = "2026-11-21" AND month_key = "2026-11"');
  });

  it('leaves concurrency alone unless the change reserves or releases, and stamps last_call_at when given', () => {
    const update = buildCounterUpdate(fresh, keys, { increments: { connection: 1 }, at: '2026-11-21T05:10:00Z' });
    expect(resolve(update, update.UpdateExpression)).toBe(
      'SET last_call_at = "2026-11-21T05:10:00Z" ADD connection_hourly 1, connection_daily 1, connection_monthly 1, connection_total 1',
    );
    const keysOnly = buildCounterUpdate(undefined, keys, { increments: {} });
    expect(resolve(keysOnly, keysOnly.UpdateExpression)).toMatch(/^SET hour_key = "2026-11-21T05", /);
    // Nothing but assignments: no ADD clause, nothing after the last assignment.
    expect(resolve(keysOnly, keysOnly.UpdateExpression)).toMatch(/^SET [\w]+ = [^, ]+(, [\w]+ = [^, ]+)*$/);
    expect(resolve(keysOnly, keysOnly.UpdateExpression)).not.toContain('last_call_at');
  });
});
