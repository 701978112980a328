import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { applyCounterChange, readCounterItems, resetTotalCounters } from '../../shared/buyers/counters.js';
import { releaseConcurrency, reserveAttempt } from '../fixtures/counters.js';
import { currentCounters, periodKeys } from '../../shared/buyers/counter-model.js';

const now = new Date('2026-11-21T05:31:00Z');
const companyId = () => 20_000_000 + randomInt(1_000_000);

describe('buyer counters against DynamoDB Local', () => {
  it('never passes the concurrency cap however many reservations race', async () => {
    const company = companyId();
    const results = await Promise.all(
      Array.from({ length: 60 }, () => reserveAttempt(company, 1, 'UTC', now, { caps: {}, concurrency: 5 })),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(5);
    expect(results.filter((result) => !result.ok).every((result) => !result.ok && result.reason === 'concurrency_cap_limit')).toBe(true);
    const items = await readCounterItems(company, [1]);
    const counters = currentCounters(items.get(1), periodKeys(now, 'UTC'));
    expect(counters.concurrency).toBe(5);
    expect(counters.attempt.daily).toBe(5);
  });

  it('never passes a daily attempt cap when reservations race and release', async () => {
    const company = companyId();
    const limits = { caps: { attempt: { daily: 20 } }, concurrency: 3 };
    let granted = 0;
    // 40 callers each try until refused by the daily cap, releasing their call after each win.
    await Promise.all(
      Array.from({ length: 40 }, async () => {
        for (;;) {
          const result = await reserveAttempt(company, 7, 'UTC', now, limits);
          if (!result.ok && result.reason === 'attempt_daily_limit') return;
          if (result.ok) {
            granted += 1;
            await releaseConcurrency(company, 7, 'UTC', now);
          }
        }
      }),
    );
    expect(granted).toBe(20);
    const counters = currentCounters((await readCounterItems(company, [7])).get(7), periodKeys(now, 'UTC'));
    expect(counters.attempt).toMatchObject({ daily: 20, total: 20 });
    expect(counters.concurrency).toBe(0);
  });

  it('starts a new hour from zero while the day carries on, in the buyer\'s zone', async () => {
    const company = companyId();
    const limits = { caps: { attempt: { hourly: 2, daily: 3 } } };
    const at = (iso: string) => new Date(iso);
    expect((await applyCounterChange(company, 2, 'America/New_York', at('2026-11-21T05:10:00Z'), { increments: { attempt: 1 }, limits })).ok).toBe(true);
    expect((await applyCounterChange(company, 2, 'America/New_York', at('2026-11-21T05:20:00Z'), { increments: { attempt: 1 }, limits })).ok).toBe(true);
    expect(await applyCounterChange(company, 2, 'America/New_York', at('2026-11-21T05:30:00Z'), { increments: { attempt: 1 }, limits })).toEqual({
      ok: false,
      reason: 'attempt_hourly_limit',
    });
    const nextHour = await applyCounterChange(company, 2, 'America/New_York', at('2026-11-21T06:05:00Z'), { increments: { attempt: 1 }, limits });
    expect(nextHour.ok && nextHour.counters.attempt).toEqual({ hourly: 1, daily: 3, monthly: 3, total: 3 });
    // The New York day ends at 05:00Z: a new day there starts the daily count again.
    const nextDay = await applyCounterChange(company, 2, 'America/New_York', at('2026-11-22T05:01:00Z'), { increments: { attempt: 1 }, limits });
    expect(nextDay.ok && nextDay.counters.attempt).toEqual({ hourly: 1, daily: 1, monthly: 4, total: 4 });
  });

  it('ignores a release without a reservation and resets totals on request', async () => {
    const company = companyId();
    expect((await releaseConcurrency(company, 3, 'UTC', now)).ok).toBe(true);
    await applyCounterChange(company, 3, 'UTC', now, { increments: { revenue: 12.5, buyer_conversion: 1 } });
    await resetTotalCounters(company, 3);
    const counters = currentCounters((await readCounterItems(company, [3])).get(3), periodKeys(now, 'UTC'));
    expect(counters.revenue).toEqual({ hourly: 12.5, daily: 12.5, monthly: 12.5, total: 0 });
    expect(counters.buyer_conversion.total).toBe(0);
    expect(counters.concurrency).toBe(0);
  });
});
