import type { ConversionTerms } from '../buyers/conversion-terms.js';
import { matchesFilters, parseTokenFilterList, type TokenValues } from '../routing/token-filters.js';

/**
 * Whether a call converts, and for how much: pure decisions over plain values. The caller
 * reads the duplicate history (when this caller was last paid) and writes it back.
 */
export interface BuyerConversionInput {
  terms: ConversionTerms;
  /** `current_conversion_token_values` of the buyer (filters the call must match). */
  tokenFilters: unknown;
  tokens: TokenValues;
  answeredDuration: number;
  /** When this buyer last paid for this caller, if ever. */
  lastPaidAt?: Date;
  at: Date;
}

export type ConversionDecision = { converted: true; revenue: number; name: string | null } | { converted: false; reason: string };

export function decideBuyerConversion(input: BuyerConversionInput): ConversionDecision {
  const { terms } = input;
  // A buyer without a price has no conversion: otherwise every call would "convert" for $0 on dial.
  if (terms.revenue === null) return { converted: false, reason: 'no_conversion_revenue' };
  if (input.answeredDuration < terms.duration) return { converted: false, reason: 'too_short' };
  const filters = parseTokenFilterList(input.tokenFilters ?? []);
  if (filters.ok && !matchesFilters(filters.filters, input.tokens)) return { converted: false, reason: 'token_mismatch' };
  if (input.lastPaidAt && terms.duplicateTimeframe !== null && input.at.getTime() - input.lastPaidAt.getTime() < terms.duplicateTimeframe * 1000) {
    return { converted: false, reason: 'duplicate' };
  }
  return { converted: true, revenue: terms.revenue ?? 0, name: terms.name };
}

/** A traffic source payout (offer conversion) as stored. */
export interface OfferConversionRule {
  id: number;
  name?: unknown;
  payout_type?: unknown;
  payout?: unknown;
  revenue_percentage?: unknown;
  duration?: unknown;
  duplicate_timeframe?: unknown;
  record_token_filter_list?: unknown;
  sortable_order?: unknown;
}

export interface OfferConversionInput {
  rules: readonly OfferConversionRule[];
  tokens: TokenValues;
  answeredDuration: number;
  buyerRevenue: number;
  /** When each rule last paid for this caller, by rule id. */
  lastPaidAt: ReadonlyMap<number, Date>;
  at: Date;
}

export type PayoutDecision = { converted: true; payout: number; ruleId: number; name: string | null } | { converted: false };

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The money in whole cents, so sums of payouts and revenue stay exact. */
export function cents(amount: number): number {
  return Math.round(amount * 100) / 100;
}

/**
 * The first rule (by sortable_order, then id) the call qualifies for: long enough, tokens
 * matching, and not a repeat of this caller within the rule's duplicate timeframe. Its payout
 * is a fixed amount (`usd`) or a percentage of the buyer revenue (`buyer_conversion_percent`,
 * taking `revenue_percentage`, else `payout`, as the percentage).
 */
export function decideOfferConversion(input: OfferConversionInput): PayoutDecision {
  const ordered = [...input.rules].sort((a, b) => (num(a.sortable_order) ?? 0) - (num(b.sortable_order) ?? 0) || a.id - b.id);
  for (const rule of ordered) {
    if (input.answeredDuration < (num(rule.duration) ?? 0)) continue;
    const filters = parseTokenFilterList(rule.record_token_filter_list ?? []);
    if (filters.ok && !matchesFilters(filters.filters, input.tokens)) continue;
    const last = input.lastPaidAt.get(rule.id);
    const timeframe = num(rule.duplicate_timeframe);
    if (last && timeframe !== null && input.at.getTime() - last.getTime() < timeframe * 1000) continue;
    const payout =
      rule.payout_type === 'buyer_conversion_percent'
        ? (input.buyerRevenue * (num(rule.revenue_percentage) ?? num(rule.payout) ?? 0)) / 100
        : (num(rule.payout) ?? 0);
    return { converted: true, payout: cents(payout), ruleId: rule.id, name: typeof rule.name === 'string' ? rule.name : null };
  }
  return { converted: false };
}
