import { describe, expect, it } from 'vitest';
import { conversionTerms } from '../../shared/buyers/conversion-terms.js';
import { buyerLimits, buyerTimeZone } from '../../shared/buyers/limits.js';

// 2026-11-20 is a Friday; 15:00Z is 10:00 in New York.
const FRIDAY_10_NY = new Date('2026-11-20T15:00:00Z');
const FRIDAY_MORNING = [{ day: 5, times: ['09:00..12:00'] }];

describe('buyerTimeZone', () => {
  it('is the buyer\'s zone, or UTC when it has none', () => {
    expect(buyerTimeZone({ time_zone: 'America/New_York' })).toBe('America/New_York');
    for (const time_zone of [undefined, null, '', 5]) expect(buyerTimeZone({ time_zone }), String(time_zone)).toBe('UTC');
  });
});

describe('conversionTerms', () => {
  const current = { current_conversion_name: 'Standard', current_conversion_revenue: 40, current_conversion_duration: 60, current_conversion_duplicate_timeframe: 3600 };

  it('takes the current_conversion_* fields when no scheduled entry covers now', () => {
    expect(conversionTerms(current, FRIDAY_10_NY)).toEqual({ name: 'Standard', revenue: 40, duration: 60, duplicateTimeframe: 3600 });
  });

  it('takes the first scheduled entry covering now, read in the buyer\'s zone', () => {
    const buyer = {
      ...current,
      time_zone: 'America/New_York',
      buyer_conversions_schedule: [{ buyer_conversions_attributes: [{ name: 'Morning', revenue: 55, duration: 90, duplicate_timeframe: 600 }], schedule: FRIDAY_MORNING }],
    };
    expect(conversionTerms(buyer, FRIDAY_10_NY)).toEqual({ name: 'Morning', revenue: 55, duration: 90, duplicateTimeframe: 600 });
    // The same instant is 15:00 in UTC, outside the morning: the current terms apply.
    expect(conversionTerms({ ...buyer, time_zone: 'UTC' }, FRIDAY_10_NY)).toMatchObject({ name: 'Standard', revenue: 40 });
  });

  it('reads missing or non-numeric values as no price, converting on dial, without a timeframe', () => {
    // A scheduled entry without name or duration: no name, and duration 0 (converts on dial).
    const scheduled = { buyer_conversions_schedule: [{ buyer_conversions_attributes: [{ revenue: 12 }], schedule: [{ day: 5, times: ['00:00..24:00'] }] }] };
    expect(conversionTerms(scheduled, FRIDAY_10_NY)).toEqual({ name: null, revenue: 12, duration: 0, duplicateTimeframe: null });
    expect(conversionTerms({}, FRIDAY_10_NY)).toEqual({ name: null, revenue: null, duration: 0, duplicateTimeframe: null });
    const odd = { current_conversion_name: 7, current_conversion_revenue: '40', current_conversion_duration: Number.NaN, current_conversion_duplicate_timeframe: Number.POSITIVE_INFINITY };
    expect(conversionTerms(odd, FRIDAY_10_NY)).toEqual({ name: null, revenue: null, duration: 0, duplicateTimeframe: null });
  });

  it('falls back to the current terms when the entry in force has no conversion attributes', () => {
    const buyer = { ...current, buyer_conversions_schedule: [{ schedule: [{ day: 5, times: ['00:00..24:00'] }] }] };
    expect(conversionTerms(buyer, FRIDAY_10_NY)).toMatchObject({ name: 'Standard', revenue: 40 });
  });

  it('ignores a schedule that is not a list', () => {
    expect(conversionTerms({ ...current, buyer_conversions_schedule: 'always' }, FRIDAY_10_NY)).toMatchObject({ name: 'Standard' });
  });
});

describe('buyerLimits', () => {
  it('reads daily, monthly and total caps from the fields and the concurrency cap, null when not a number', () => {
    const limits = buyerLimits({ attempt_daily_limit: 10, revenue_monthly_limit: 500, connection_total_limit: 0, buyer_conversion_daily_limit: '3', concurrency_cap_limit: 2 }, FRIDAY_10_NY);
    expect(limits.concurrency).toBe(2);
    expect(limits.caps.attempt).toEqual({ hourly: null, daily: 10, monthly: null, total: null });
    expect(limits.caps.revenue).toMatchObject({ monthly: 500 });
    expect(limits.caps.connection).toMatchObject({ total: 0 });
    expect(limits.caps.buyer_conversion).toMatchObject({ daily: null });
    expect(buyerLimits({ concurrency_cap_limit: Number.NaN }, FRIDAY_10_NY).concurrency).toBeNull();
  });

  it('takes hourly caps from the business-hours item in force, in the buyer\'s zone', () => {
    const buyer = {
      time_zone: 'America/New_York',
      business_hours_schedule: [
        { attempt_hourly_limit: 4, schedule: FRIDAY_MORNING },
        { attempt_hourly_limit: 9, connection_hourly_limit: 2, schedule: [{ day: 5, times: ['00:00..24:00'] }] },
      ],
    };
    expect(buyerLimits(buyer, FRIDAY_10_NY).caps.attempt?.hourly).toBe(4);
    expect(buyerLimits(buyer, new Date('2026-11-20T20:00:00Z')).caps).toMatchObject({ attempt: { hourly: 9 }, connection: { hourly: 2 } });
    expect(buyerLimits(buyer, new Date('2026-11-21T15:00:00Z')).caps.attempt?.hourly).toBeNull(); // Saturday: no item
    expect(buyerLimits({ ...buyer, business_hours_schedule: { attempt_hourly_limit: 1 } }, FRIDAY_10_NY).caps.attempt?.hourly).toBeNull();
  });
});
