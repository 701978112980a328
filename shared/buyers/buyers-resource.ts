import * as v from 'valibot';
import { keys } from '../db/keys.js';
import { booleanParam, idParam, presentString } from '../http/param-schemas.js';
import { buyerWritable, checkBuyer } from './buyer-fields.js';
import { phoneOrSipParam } from '../resources/phone-or-sip-param.js';
import { defineResource } from '../resources/define.js';
import { idListUpTo, MAX_ASSOCIATED_BUYERS } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/buyers.js';
import { buyersView, buyerGroupsView } from './buyers-view.js';

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

export const buyers = defineResource({
  ...routing.buyers,
  ...buyersView,
  root: 'buyer',
  plural: 'buyers',
  createSchema: v.object({ ...buyerWritable, copy_another_buyer: v.optional(booleanParam), copy_buyer_id: v.optional(idParam) }),
  updateSchema: v.object({ ...buyerWritable, reset_total_caps: v.optional(booleanParam) }),
  instructions: ['reset_total_caps'],
  defaults: {
    timeout_seconds: 120,
    time_zone: 'UTC',
    paused: false,
    record_calls: false,
    generate_team: false,
    team_edit_caps: false,
    route_by_type: 'tier',
    display_caller_id_type: 'display_caller_id',
    current_conversion_duration: 0,
    record_token_filter_list: [],
    current_conversion_token_values: [],
    team_users_emails: [],
    buyer_type: 'static',
    rtb_url: null,
    rtb_method: 'POST',
    rtb_body: null,
    rtb_headers: {},
    rtb_timeout_ms: 800,
    rtb_min_bid: null,
    rtb_response_paths: null,
  },
  order: { values: BUYER_ORDER_VALUES, default: 'id' },
  // Live counters (the view's enricher's columns): a page ordered by them reads every buyer's counters.
  computedOrder: BUYER_ORDER_VALUES.filter((value) => value === 'last_call_at' || value.endsWith('_used')),
  filters: { number: { schema: phoneOrSipParam }, paused: { schema: booleanParam } },
  fulltextFields: ['name', 'number', 'user_buyer_id'],
  serializers: ['buyer', 'buyer_grid'],
  unique: [{ field: 'user_buyer_id', scope: 'company' }],
  companions: (companyId, id) => [keys.buyerStats(companyId, id)],
  check: checkBuyer,
  behaviour: () => import('./buyer-behaviour.js'),
});

/**
 * Buyer groups: a name and member buyer ids. Created with `POST /api/v1/buyer_groups/:id` as the
 * reference has it; the `:id` segment is accepted for compatibility and not used (the group
 * gets the next id).
 */
export const buyerGroups = defineResource({
  ...routing.buyerGroups,
  ...buyerGroupsView,
  root: 'buyer_group',
  plural: 'buyer_groups',
  createSchema: v.object({ name: presentString, buyer_ids: v.optional(idListUpTo(MAX_ASSOCIATED_BUYERS)) }),
  updateSchema: v.object({ name: v.optional(presentString), buyer_ids: v.optional(idListUpTo(MAX_ASSOCIATED_BUYERS)) }),
  defaults: { buyer_ids: [] },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name'],
  // The member buyers' `{ id, name }` in the envelope; `buyer_ids` is checked as a foreign key through it.
  associations: { buyers: { resource: 'buyers', via: 'buyer_ids' } },
});
