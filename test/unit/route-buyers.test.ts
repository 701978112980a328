import { describe, expect, it } from 'vitest';
import { earningsPerCall, orderBuyers, routeBuyers, type RankedBuyer, type RoutingBuyer } from '../../shared/routing/route-buyers.js';
import { seededRandom } from '../../shared/routing/random.js';
import { currentCounters, periodKeys } from '../../shared/buyers/counter-model.js';

// Friday 2026-11-20, 15:00 UTC (10:00 in New York).
const now = new Date('2026-11-20T15:00:00Z');
const keys = periodKeys(now, 'UTC');
const fresh = { hour_key: keys.hourly, day_key: keys.daily, month_key: keys.monthly };

function buyer(id: number, fields: Record<string, unknown> = {}, counters?: Record<string, unknown>): RoutingBuyer {
  return { record: { id, name: `B${id}`, time_zone: 'UTC', paused: false, ...fields }, counters: counters ? { ...fresh, ...counters } : undefined };
}

const route = (buyers: RoutingBuyer[], context: Partial<Parameters<typeof routeBuyers>[1]> = {}, seed = 1) =>
  routeBuyers(buyers, { now, tokens: {}, ...context }, seededRandom(seed));

describe('routeBuyers exclusions', () => {
  it('keeps a plain buyer', () => {
    expect(route([buyer(1)]).eligible.map((b) => b.id)).toEqual([1]);
  });

  it.each([
    ['paused', buyer(1, { paused: true }), 'paused'],
    ['deleted', buyer(1, { deleted_at: '2026-11-01T00:00:00Z' }), 'deleted'],
    ['at its daily attempt cap', buyer(1, { attempt_daily_limit: 3 }, { attempt_daily: 3 }), 'attempt_daily_limit'],
    ['at its monthly connection cap', buyer(1, { connection_monthly_limit: 2 }, { connection_monthly: 2 }), 'connection_monthly_limit'],
    ['at its total conversion cap', buyer(1, { buyer_conversion_total_limit: 1 }, { buyer_conversion_total: 1 }), 'buyer_conversion_total_limit'],
    ['at its daily revenue cap', buyer(1, { revenue_daily_limit: 100 }, { revenue_daily: 100.5 }), 'revenue_daily_limit'],
    ['at its concurrency cap', buyer(1, { concurrency_cap_limit: 2 }, { concurrency: 2 }), 'concurrency_cap_limit'],
    [
      'at an hourly cap from its business hours',
      buyer(1, { business_hours_schedule: [{ attempt_hourly_limit: 4, schedule: [{ day: 5, times: ['00:00..24:00'] }] }] }, { attempt_hourly: 4 }),
      'attempt_hourly_limit',
    ],
    ['outside its business hours', buyer(1, { business_hours_schedule: [{ schedule: [{ day: 1, times: ['09:00..17:00'] }] }] }), 'outside_business_hours'],
  ])('excludes a buyer %s, saying why', (_label, candidate, reason) => {
    const decision = route([candidate]);
    expect(decision.eligible).toEqual([]);
    expect(decision.excluded).toEqual([{ id: 1, name: 'B1', reason }]);
  });

  it('counts a cap only in the current period: yesterday\'s attempts do not exclude', () => {
    const decision = route([buyer(1, { attempt_daily_limit: 3 }, { attempt_daily: 3, day_key: '2026-11-19' })]);
    expect(decision.eligible.map((b) => b.id)).toEqual([1]);
  });

  it('excludes a buyer whose token filters the call does not match, naming the filter', () => {
    const picky = buyer(1, { record_token_filter_list: ['state:CA|NV', 'age:>=21', 'source:!=spam'] });
    expect(route([picky], { tokens: { state: 'ca', age: '30', source: 'google' } }).eligible).toHaveLength(1);
    expect(route([picky], { tokens: { state: 'TX', age: '30' } }).excluded[0]?.reason).toBe('token_filter:state:CA|NV');
    expect(route([picky], { tokens: { state: 'CA', age: '20' } }).excluded[0]?.reason).toBe('token_filter:age:>=21');
    expect(route([picky], { tokens: { state: 'CA', age: '40', source: 'spam' } }).excluded[0]?.reason).toBe('token_filter:source:!=spam');
    expect(route([picky], { tokens: { state: 'CA' } }).excluded[0]?.reason).toBe('token_filter:age:>=21');
  });

  it('leaves nobody eligible for a blacklisted caller', () => {
    const decision = route([buyer(1), buyer(2)], { blacklisted: true });
    expect(decision.eligible).toEqual([]);
    expect(decision.excluded.map((b) => b.reason)).toEqual(['blacklisted', 'blacklisted']);
  });

  it('reads business hours in the buyer\'s own zone, including a range across midnight', () => {
    const nights = { business_hours_schedule: [{ schedule: [{ day: 4, times: ['22:00..11:00'] }] }] };
    // Friday 10:00 in New York is inside Thursday's 22:00..11:00; in UTC it is Friday 15:00, outside.
    expect(route([buyer(1, { ...nights, time_zone: 'America/New_York' })]).eligible).toHaveLength(1);
    expect(route([buyer(1, { ...nights, time_zone: 'UTC' })]).excluded[0]?.reason).toBe('outside_business_hours');
  });

  it('follows a time zone across the DST change', () => {
    const nineToFive = { time_zone: 'America/New_York', business_hours_schedule: [{ schedule: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, times: ['09:00..17:00'] })) }] };
    // 13:30Z is 09:30 EDT on Saturday 31 October, but 08:30 EST on Monday 2 November.
    expect(routeBuyers([buyer(1, nineToFive)], { now: new Date('2026-10-31T13:30:00Z'), tokens: {} }, seededRandom(1)).eligible).toHaveLength(1);
    expect(routeBuyers([buyer(1, nineToFive)], { now: new Date('2026-11-02T13:30:00Z'), tokens: {} }, seededRandom(1)).eligible).toHaveLength(0);
  });

  it('keeps a share of the concurrency cap free for pings with a buffer', () => {
    const capped = buyer(1, { concurrency_cap_limit: 10 }, { concurrency: 8 });
    expect(route([capped]).eligible).toHaveLength(1);
    // A 25% buffer leaves 7 for pings: 8 in use already fills it.
    expect(route([capped], { concurrencyBufferPercent: 25 }).excluded[0]?.reason).toBe('concurrency_cap_limit');
  });
});

describe('routeBuyers ordering', () => {
  it('tries the lowest tier first, negative tiers included', () => {
    const decision = route([buyer(1, { tier: 2 }), buyer(2, { tier: -1 }), buyer(3, { tier: 0 }), buyer(4)]);
    const ids = decision.eligible.map((b) => b.id);
    // A blank tier is tier 0, so buyers 3 and 4 share a tier between 2 (-1) and 1 (2).
    expect(ids[0]).toBe(2);
    expect(new Set(ids.slice(1, 3))).toEqual(new Set([3, 4]));
    expect(ids[3]).toBe(1);
    expect(decision.eligible.map((b) => b.effectiveTier)).toEqual([-1, 0, 0, 2]);
  });

  it('ranks revenue buyers by their current bid, highest first, using the scheduled conversion when one applies', () => {
    const scheduled = {
      route_by_type: 'revenue',
      current_conversion_revenue: 5,
      buyer_conversions_schedule: [{ buyer_conversions_attributes: [{ name: 'Friday', duration: 60, revenue: 40, duplicate_timeframe: 0 }], schedule: [{ day: 5, times: ['00:00..24:00'] }] }],
    };
    const decision = route([buyer(1, { route_by_type: 'revenue', current_conversion_revenue: 25 }), buyer(2, scheduled), buyer(3, { route_by_type: 'revenue', current_conversion_revenue: 10 })]);
    expect(decision.eligible.map((b) => [b.id, b.bid])).toEqual([
      [2, 40],
      [1, 25],
      [3, 10],
    ]);
  });

  it('ranks EPC buyers by earnings per call, assuming an amount until enough calls exist', () => {
    const proven = buyer(1, { route_by_type: 'epc', epc_timeframe: 24, epc_assumed_amount: 1, epc_assumed_calls_count: 10 }, { attempt_daily: 20, earned_revenue_daily: 100 });
    const newcomer = buyer(2, { route_by_type: 'epc', epc_timeframe: 24, epc_assumed_amount: 8, epc_assumed_calls_count: 10 }, { attempt_daily: 3, earned_revenue_daily: 0 });
    const decision = route([newcomer, proven]);
    // proven: 100 / 20 = 5 per call; newcomer: assumed 8 until 10 calls.
    expect(decision.eligible.map((b) => [b.id, b.effectiveTier])).toEqual([
      [2, -8],
      [1, -5],
    ]);
    expect(earningsPerCall(proven.record, currentCounters(proven.counters, keys))).toBe(5);
  });

  it('splits first tries 1:3 by weight over 10,000 seeded draws (within 2 percentage points)', () => {
    const random = seededRandom(20261121);
    const light = buyer(1, { weight: 1 });
    const heavy = buyer(2, { weight: 3 });
    let heavyFirst = 0;
    for (let draw = 0; draw < 10_000; draw++) {
      const first = routeBuyers([light, heavy], { now, tokens: {} }, random).eligible[0]!;
      if (first.id === 2) heavyFirst += 1;
    }
    // Expected share 0.75; the standard deviation over 10,000 draws is about 0.0043.
    expect(Math.abs(heavyFirst / 10_000 - 0.75)).toBeLessThan(0.02);
  });

  it('puts weight 0 last in its tier and treats a blank weight as 1', () => {
    const ranked = (id: number, weight: number): RankedBuyer => ({ id, name: null, record: {}, bid: null, effectiveTier: 0, weight, limits: { caps: {} } });
    for (let seed = 1; seed <= 50; seed++) {
      expect(orderBuyers([ranked(1, 0), ranked(2, 1)], seededRandom(seed)).map((b) => b.id)).toEqual([2, 1]);
    }
    const blank = route([buyer(1, { weight: null })]).eligible[0]!;
    expect(blank.weight).toBe(1);
  });
});

describe('routeBuyers details', () => {
  it('lowers the concurrency cap by the ping buffer, never below 0, and leaves buyers without a cap alone', () => {
    const capped = buyer(1, { concurrency_cap_limit: 10 }, { concurrency: 6 });
    expect(route([capped], { concurrencyBufferPercent: 25 }).eligible[0]?.limits.concurrency).toBe(7); // floor(10 * 0.75)
    expect(route([capped], { concurrencyBufferPercent: 0 }).eligible[0]?.limits.concurrency).toBe(10);
    expect(route([buyer(2, { concurrency_cap_limit: 10 })], { concurrencyBufferPercent: 150 }).excluded[0]?.reason).toBe('concurrency_cap_limit');
    expect(route([buyer(2, { concurrency_cap_limit: 10 })], { concurrencyBufferPercent: 150 }).eligible).toEqual([]);
    const uncapped = route([buyer(3)], { concurrencyBufferPercent: 25 }).eligible[0];
    expect(uncapped?.limits.concurrency).toBeNull();
  });

  it('is open when any business-hours item covers now', () => {
    const hours = { business_hours_schedule: [{ schedule: [{ day: 1, times: ['09:00..17:00'] }] }, { schedule: [{ day: 5, times: ['14:00..16:00'] }] }] };
    expect(route([buyer(1, hours)]).eligible.map((b) => b.id)).toEqual([1]);
  });

  it('does not exclude a buyer for a filter list it cannot read (writes validate it)', () => {
    expect(route([buyer(1, { record_token_filter_list: [42] })], { tokens: { state: 'CA' } }).eligible.map((b) => b.id)).toEqual([1]);
  });

  it('reads a tier or weight that is not a number as blank, and a name that is not text as none', () => {
    const odd = route([buyer(1, { tier: '5', weight: '3', name: 12 })]).eligible[0]!;
    expect(odd).toMatchObject({ effectiveTier: 0, weight: 1, name: null });
    // Nor does a number that is not finite: it would make the order undefined.
    expect(route([buyer(2, { tier: Number.NaN, weight: Number.POSITIVE_INFINITY })]).eligible[0]).toMatchObject({ effectiveTier: 0, weight: 1 });
  });

  it('orders buyers of equal tier and equal chance (weight 0) by id', () => {
    const ranked = (id: number): RankedBuyer => ({ id, name: null, record: {}, bid: null, effectiveTier: 0, weight: 0, limits: { caps: {} } });
    expect(orderBuyers([ranked(3), ranked(1), ranked(2)], seededRandom(7)).map((b) => b.id)).toEqual([1, 2, 3]);
  });
});

describe('earningsPerCall', () => {
  // Different figures per period, so the period read shows in the result.
  const counters = currentCounters({ ...fresh, attempt_hourly: 2, earned_revenue_hourly: 10, attempt_daily: 4, earned_revenue_daily: 40, attempt_monthly: 10, earned_revenue_monthly: 300 }, keys);

  it('reads the hourly counters up to one hour, daily up to 24 hours (the default), monthly beyond', () => {
    expect(earningsPerCall({ epc_timeframe: 0.5 }, counters)).toBe(5);
    expect(earningsPerCall({ epc_timeframe: 1 }, counters)).toBe(5);
    expect(earningsPerCall({ epc_timeframe: 2 }, counters)).toBe(10);
    expect(earningsPerCall({ epc_timeframe: 24 }, counters)).toBe(10);
    expect(earningsPerCall({}, counters)).toBe(10);
    expect(earningsPerCall({ epc_timeframe: 25 }, counters)).toBe(30);
  });

  it('assumes epc_assumed_amount until the period has epc_assumed_calls_count calls, and without any call', () => {
    expect(earningsPerCall({ epc_assumed_amount: 7, epc_assumed_calls_count: 5 }, counters)).toBe(7); // 4 calls < 5
    expect(earningsPerCall({ epc_assumed_amount: 7, epc_assumed_calls_count: 4 }, counters)).toBe(10); // 4 calls: measured
    const none = currentCounters(undefined, keys);
    expect(earningsPerCall({ epc_assumed_amount: 7 }, none)).toBe(7);
    expect(earningsPerCall({}, none)).toBe(0);
  });
});
