import { describe, expect, it } from 'vitest';
import type { ConversionTerms } from '../../shared/buyers/conversion-terms.js';
import { cents, decideBuyerConversion, decideOfferConversion, type OfferConversionRule } from '../../shared/calls/conversions.js';

const AT = new Date('2026-05-01T12:00:00Z');
const ago = (seconds: number) => new Date(AT.getTime() - seconds * 1000);
const terms = (fields: Partial<ConversionTerms> = {}): ConversionTerms => ({ name: 'Standard', revenue: 40, duration: 60, duplicateTimeframe: null, ...fields });

describe('decideBuyerConversion', () => {
  const base = { tokenFilters: [], tokens: {}, at: AT };

  it('converts a call answered at least the duration, for the terms\' revenue and name', () => {
    expect(decideBuyerConversion({ ...base, terms: terms(), answeredDuration: 60 })).toEqual({ converted: true, revenue: 40, name: 'Standard' });
    expect(decideBuyerConversion({ ...base, terms: terms(), answeredDuration: 59 })).toEqual({ converted: false, reason: 'too_short' });
  });

  it('converts on dial when the duration is 0, even unanswered', () => {
    expect(decideBuyerConversion({ ...base, terms: terms({ duration: 0 }), answeredDuration: 0 })).toMatchObject({ converted: true, revenue: 40 });
  });

  it('does not convert a buyer that has no price (no revenue set)', () => {
    expect(decideBuyerConversion({ ...base, terms: terms({ revenue: null }), answeredDuration: 90 })).toEqual({ converted: false, reason: 'no_conversion_revenue' });
    expect(decideBuyerConversion({ ...base, terms: terms({ revenue: 0 }), answeredDuration: 90 })).toEqual({ converted: true, revenue: 0, name: 'Standard' });
  });

  it('refuses a repeat caller within the duplicate timeframe and converts them after it', () => {
    const dup = terms({ duplicateTimeframe: 3600 });
    expect(decideBuyerConversion({ ...base, terms: dup, answeredDuration: 90, lastPaidAt: ago(3599) })).toEqual({ converted: false, reason: 'duplicate' });
    expect(decideBuyerConversion({ ...base, terms: dup, answeredDuration: 90, lastPaidAt: ago(3600) })).toMatchObject({ converted: true });
    // Without a timeframe a repeat caller is paid again.
    expect(decideBuyerConversion({ ...base, terms: terms(), answeredDuration: 90, lastPaidAt: ago(1) })).toMatchObject({ converted: true });
  });

  it('pays a caller with no payment on record although the buyer has a timeframe, and always pays again without a timeframe', () => {
    expect(decideBuyerConversion({ ...base, terms: terms({ duplicateTimeframe: 3600 }), answeredDuration: 90 })).toMatchObject({ converted: true });
    // A last payment stamped after `at` (clocks of two servers) is still no reason to refuse without a timeframe.
    expect(decideBuyerConversion({ ...base, terms: terms(), answeredDuration: 90, lastPaidAt: ago(-5) })).toMatchObject({ converted: true });
  });

  it('converts only calls whose tokens match the conversion filters', () => {
    const input = { ...base, terms: terms(), answeredDuration: 90, tokenFilters: ['state:CA|NY', 'age:>=21'] };
    expect(decideBuyerConversion({ ...input, tokens: { state: 'ny', age: '30' } })).toMatchObject({ converted: true });
    expect(decideBuyerConversion({ ...input, tokens: { state: 'TX', age: '30' } })).toEqual({ converted: false, reason: 'token_mismatch' });
    expect(decideBuyerConversion({ ...input, tokens: { state: 'CA' } })).toEqual({ converted: false, reason: 'token_mismatch' });
  });
});

describe('decideOfferConversion', () => {
  const rule = (fields: Partial<OfferConversionRule> & { id: number }): OfferConversionRule => ({ payout_type: 'usd', payout: 5, duration: 30, duplicate_timeframe: 0, ...fields });
  const base = { tokens: {}, answeredDuration: 45, buyerRevenue: 40, lastPaidAt: new Map<number, Date>(), at: AT };

  it('pays a fixed amount (usd) once the call is long enough', () => {
    expect(decideOfferConversion({ ...base, rules: [rule({ id: 1, name: 'Flat' })] })).toEqual({ converted: true, payout: 5, ruleId: 1, name: 'Flat' });
    expect(decideOfferConversion({ ...base, rules: [rule({ id: 1 })], answeredDuration: 29 })).toEqual({ converted: false });
  });

  it('pays a percentage of the buyer revenue (buyer_conversion_percent), revenue_percentage first, in cents', () => {
    expect(decideOfferConversion({ ...base, rules: [rule({ id: 1, payout_type: 'buyer_conversion_percent', revenue_percentage: 25, payout: 99 })] })).toMatchObject({ payout: 10 });
    expect(decideOfferConversion({ ...base, rules: [rule({ id: 1, payout_type: 'buyer_conversion_percent', revenue_percentage: null, payout: 33.333 })], buyerRevenue: 10 })).toMatchObject({ payout: 3.33 });
    // No buyer revenue: a percentage of nothing.
    expect(decideOfferConversion({ ...base, rules: [rule({ id: 1, payout_type: 'buyer_conversion_percent', revenue_percentage: 50 })], buyerRevenue: 0 })).toMatchObject({ converted: true, payout: 0 });
  });

  it('takes the first qualifying rule by sortable_order, then id', () => {
    const rules = [rule({ id: 3, payout: 3, sortable_order: 1 }), rule({ id: 2, payout: 2, sortable_order: 2 }), rule({ id: 1, payout: 1, sortable_order: 2 })];
    expect(decideOfferConversion({ ...base, rules })).toMatchObject({ ruleId: 3, payout: 3 });
    // The first rule is too demanding: the next in order pays.
    rules[0] = rule({ id: 3, payout: 3, sortable_order: 1, duration: 600 });
    expect(decideOfferConversion({ ...base, rules })).toMatchObject({ ruleId: 1, payout: 1 });
  });

  it('skips a rule whose filters the tokens fail, and one that paid this caller within its timeframe', () => {
    const rules = [rule({ id: 1, payout: 9, record_token_filter_list: ['source:google'] }), rule({ id: 2, payout: 4, duplicate_timeframe: 600 }), rule({ id: 3, payout: 1 })];
    expect(decideOfferConversion({ ...base, rules, tokens: { source: 'google' } })).toMatchObject({ ruleId: 1 });
    expect(decideOfferConversion({ ...base, rules, tokens: { source: 'bing' } })).toMatchObject({ ruleId: 2 });
    expect(decideOfferConversion({ ...base, rules, lastPaidAt: new Map([[2, ago(599)]]) })).toMatchObject({ ruleId: 3 });
    expect(decideOfferConversion({ ...base, rules, lastPaidAt: new Map([[2, ago(600)]]) })).toMatchObject({ ruleId: 2 });
  });

  it('pays a call answered exactly the rule\'s duration', () => {
    expect(decideOfferConversion({ ...base, rules: [rule({ id: 1 })], answeredDuration: 30 })).toMatchObject({ converted: true, ruleId: 1 });
  });

  it('pays a caller never paid by a rule with a timeframe, and a rule without a timeframe always pays again', () => {
    expect(decideOfferConversion({ ...base, rules: [rule({ id: 1, duplicate_timeframe: 600 })] })).toMatchObject({ converted: true, ruleId: 1 });
    const noTimeframe = rule({ id: 2, duplicate_timeframe: undefined });
    expect(decideOfferConversion({ ...base, rules: [noTimeframe], lastPaidAt: new Map([[2, ago(-5)]]) })).toMatchObject({ converted: true, ruleId: 2 });
  });

  it('reads stored values that are not numbers as absent: no minimum duration, no amount, no name', () => {
    const odd = rule({ id: 1, duration: '90', payout: '5', name: 42 });
    expect(decideOfferConversion({ ...base, rules: [odd], answeredDuration: 1 })).toEqual({ converted: true, payout: 0, ruleId: 1, name: null });
    expect(decideOfferConversion({ ...base, rules: [rule({ id: 1, payout: Number.NaN })] })).toMatchObject({ payout: 0 });
  });

  it('pays nothing without rules', () => {
    expect(decideOfferConversion({ ...base, rules: [] })).toEqual({ converted: false });
  });
});

describe('cents', () => {
  it('rounds money to whole cents', () => {
    expect(cents(0.1 + 0.2)).toBe(0.3);
    expect(cents(10.005)).toBe(10.01);
    expect(cents(-2.499)).toBe(-2.5);
  });
});
