import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/buyers.js';
import { METRICS, PERIODS } from './counter-model.js';
import { parseTokenFilterList, parseTokenList } from '../routing/token-filters.js';
import { BUYER_WRITABLE_FIELDS } from './buyer-field-names.js';

/** How the resources of buyers-resource.ts are shown (their views); their write side stays there. Imports no schema. */

/** `<metric>_<period>_used` and `_limit` for every metric and period, in the reference's order. */
const COUNTER_COLUMNS = METRICS.flatMap((metric) => [
  ...PERIODS.map((period) => `${metric}_${period}_used`),
  ...PERIODS.map((period) => `${metric}_${period}_limit`),
]);

const READABLE = [
  'name',
  'context_menu_name',
  'email',
  'number',
  'paused',
  'time_zone',
  'user_buyer_id',
  'bid_price',
  'route_by_type',
  'buyer_type',
  'buyer_group_ids',
  'buyer_group_names',
  'token_values',
  'token_values_hash',
  'attribution_token_values',
  'attribution_token_values_hash',
  'last_call_at',
  'weight',
  'tier',
  'timeout_seconds',
  'dtmf_tones',
  'concurrency_cap_limit',
  'concurrency_cap_used',
  'maxed_out_by',
  'current_conversion_revenue_max',
  'current_conversion_revenue_min',
  'current_conversion_revenue_increment',
  'current_conversion_revenue',
  'current_conversion_duration',
  'current_conversion_duplicate_timeframe',
  'current_conversion_name',
  'current_conversion_token_value_ids',
  'current_conversion_attribution_token_value_ids',
  'buyer_suppression_ids',
  'record_token_filter_id',
  'record_token_filter_data_count',
  'record_token_filter_data',
  'record_token_additional_id',
  'record_token_additional_data_count',
  'record_token_additional_data',
  'business_hours_schedule',
  'buyer_conversions_schedule',
  ...COUNTER_COLUMNS,
];

/** Writable fields the reference's column list leaves out, shown too so every field round-trips. */
const EXTRA_COLUMNS = BUYER_WRITABLE_FIELDS.filter((field) => !READABLE.includes(field));

function filterStrings(value: unknown): string[] {
  return Array.isArray(value) ? (value as string[]) : [];
}

/** `key:value` equality filters as a hash (what the `_hash` columns show). */
function equalityHash(filters: string[]): Record<string, string> {
  const parsed = parseTokenFilterList(filters);
  if (!parsed.ok) return {};
  return Object.fromEntries(parsed.filters.filter((filter) => filter.operator === 'eq').map((filter) => [filter.key, filter.value]));
}

function tokenHash(list: unknown): Record<string, string> {
  const parsed = parseTokenList(typeof list === 'string' ? list : '');
  return parsed.ok ? parsed.tokens : {};
}

export const buyersView = defineView({
  name: routing.buyers.name,
  type: 'Buyer',
  columns: [...READABLE, ...EXTRA_COLUMNS],
  foreignKeys: { team_offer_ids: { resource: 'offers' } },
  derive: (buyer) => {
    const filters = filterStrings(buyer.record_token_filter_list);
    const additional = tokenHash(buyer.record_token_additional_list);
    const tokenValues = filterStrings(buyer.current_conversion_token_values);
    return {
      context_menu_name: buyer.name ?? null,
      email: null,
      bid_price: buyer.current_conversion_revenue ?? null,
      // static (a fixed destination and bid) or rtb (bids per call, docs/rtb.md); older buyers are static.
      buyer_type: buyer.buyer_type ?? 'static',
      token_values: tokenValues,
      token_values_hash: equalityHash(tokenValues),
      attribution_token_values: buyer.current_conversion_attribution_token_values ?? null,
      attribution_token_values_hash: tokenHash(buyer.current_conversion_attribution_token_values),
      current_conversion_token_value_ids: [],
      current_conversion_attribution_token_value_ids: [],
      record_token_filter_id: null,
      record_token_filter_data_count: filters.length,
      record_token_filter_data: filters,
      record_token_additional_id: null,
      record_token_additional_data_count: Object.keys(additional).length,
      record_token_additional_data: additional,
    };
  },
  // Live counters, caps and group membership.
  enrich: () => import('./buyer-enrich.js').then((module) => module.enrich),
});

export const buyerGroupsView = defineView({
  name: routing.buyerGroups.name,
  type: 'BuyerGroup',
  columns: ['company_id', 'name', 'buyer_ids'],
});
