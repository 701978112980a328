import * as v from 'valibot';
import { keys } from '../db/keys.js';
import { booleanParam, idParam, presentString } from '../http/param-schemas.js';
import { parseTokenFilterList, parseTokenList } from '../routing/token-filters.js';
import { BUYER_WRITABLE_FIELDS, buyerWritable, checkBuyer } from './buyer-fields.js';
import { phoneOrSipParam } from './phone-or-sip-param.js';
import { METRICS, PERIODS } from '../buyers/counter-model.js';
import { defineResource } from './define.js';
import { idListUpTo, MAX_ASSOCIATED_BUYERS } from './field-schemas.js';
import * as routing from './routing.js';

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

export const BUYER_ORDER_VALUES = [
  'id',
  'name',
  'calls_count',
  'recent_calls_count',
  'outgoing_webhooks_count',
  'paused',
  'number',
  'created_at',
  'last_call_at',
  'tier',
  'weight',
  'time_zone',
  'user_buyer_id',
  ...(['revenue', 'earned_revenue', 'buyer_conversion', 'connection', 'attempt'] as const).flatMap((metric) =>
    (['hourly', 'daily', 'monthly', 'total'] as const).map((period) => `${metric}_${period}_used`),
  ),
] as [string, ...string[]];

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

export const buyers = defineResource({
  ...routing.buyers,
  root: 'buyer',
  plural: 'buyers',
  type: 'Buyer',
  createSchema: v.object({ ...buyerWritable, copy_another_buyer: v.optional(booleanParam), copy_buyer_id: v.optional(idParam) }),
  updateSchema: v.object({ ...buyerWritable, reset_total_caps: v.optional(booleanParam) }),
  instructions: ['reset_total_caps'],
  defaults: {
    timeout_seconds: 120,
    time_zone: 'UTC',
    paused: false,
    record_calls: false,
    generate_team: false,
    route_by_type: 'tier',
    display_caller_id_type: 'display_caller_id',
    current_conversion_duration: 0,
    record_token_filter_list: [],
    current_conversion_token_values: [],
    team_users_emails: [],
  },
  columns: [...READABLE, ...EXTRA_COLUMNS],
  order: { values: BUYER_ORDER_VALUES, default: 'id' },
  // Live counters (the enrich hook's columns): a page ordered by them reads every buyer's counters.
  computedOrder: BUYER_ORDER_VALUES.filter((value) => value === 'last_call_at' || value.endsWith('_used')),
  filters: { number: { schema: phoneOrSipParam }, paused: { schema: booleanParam } },
  fulltextFields: ['name', 'number', 'user_buyer_id'],
  serializers: ['buyer', 'buyer_grid'],
  unique: [{ field: 'user_buyer_id', scope: 'company' }],
  foreignKeys: { team_offer_ids: { resource: 'offers' } },
  companions: (companyId, id) => [keys.buyerStats(companyId, id)],
  check: checkBuyer,
  behaviour: () => import('../buyers/buyer-behaviour.js'),
  derive: (buyer) => {
    const filters = filterStrings(buyer.record_token_filter_list);
    const additional = tokenHash(buyer.record_token_additional_list);
    const tokenValues = filterStrings(buyer.current_conversion_token_values);
    const number = typeof buyer.number === 'string' ? buyer.number : null;
    return {
      context_menu_name: buyer.name ?? null,
      email: null,
      bid_price: buyer.current_conversion_revenue ?? null,
      buyer_type: number === null ? null : number.toLowerCase().startsWith('sip:') ? 'sip' : 'number',
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
});

/**
 * Buyer groups: a name and member buyer ids. Created with `POST /api/v1/buyer_groups/:id` as the
 * reference has it; the `:id` segment is accepted for compatibility and not used (the group
 * gets the next id).
 */
export const buyerGroups = defineResource({
  ...routing.buyerGroups,
  root: 'buyer_group',
  plural: 'buyer_groups',
  type: 'BuyerGroup',
  createSchema: v.object({ name: presentString, buyer_ids: v.optional(idListUpTo(MAX_ASSOCIATED_BUYERS)) }),
  updateSchema: v.object({ name: v.optional(presentString), buyer_ids: v.optional(idListUpTo(MAX_ASSOCIATED_BUYERS)) }),
  defaults: { buyer_ids: [] },
  columns: ['company_id', 'name', 'buyer_ids'],
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name'],
  // The member buyers' `{ id, name }` in the envelope; `buyer_ids` is checked as a foreign key through it.
  associations: { buyers: { resource: 'buyers', via: 'buyer_ids' } },
});
