import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { blankable, booleanParam, decimalParam, idParam, oneOf } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { idListUpTo, MAX_ASSOCIATED_BUYERS, MAX_ASSOCIATED_RECORDS, optionalCount, optionalText } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/inbound.js';
import { inboundWebhooksView } from './inbound-webhooks-view.js';

/**
 * Incoming webhooks: the ping/post endpoints partners call. `vanity_uri` names the endpoint in
 * `/api/v1/inbound_webhooks/ping/:vanity_uri`; since those URLs carry no company, the name is
 * unique across the deployment (a taken name is a 409 that does not say who holds it). The
 * reference makes every field optional: a webhook created without one gets a random name
 * (16 hex digits, so guessing another company's endpoint stays as hard as with a chosen one).
 */
export const WEBHOOK_TYPES = ['check_for_available_instant_agent', 'check_for_available_buyer', 'fire_webhooks'] as const;

const vanityUri = v.pipe(v.string('is not a string'), v.trim(), v.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, 'may contain only letters, digits, _, . and - (up to 100)'));
const flag = v.optional(booleanParam);

function generatedVanityUri(): string {
  return randomBytes(8).toString('hex');
}

/** Fields of the reference plus the settings the ping honours, writable so they can be set. */
const writable = {
  offer_id: v.optional(blankable(idParam)),
  name: optionalText,
  description: optionalText,
  webhook_type: v.optional(oneOf(WEBHOOK_TYPES)),
  call_router_ids: v.optional(idListUpTo(MAX_ASSOCIATED_RECORDS)),
  buyer_ids: v.optional(idListUpTo(MAX_ASSOCIATED_BUYERS)),
  buyer_group_ids: v.optional(idListUpTo(MAX_ASSOCIATED_RECORDS)),
  response_body: optionalText,
  ring_pool_id: v.optional(blankable(idParam)),
  require_caller_id_on_ping: flag,
  require_traffic_source_id: flag,
  require_user_auth_token: flag,
  test_mode: flag,
  // Bidding buyers take part in pings (docs/rtb.md); without it they are left out of them.
  include_dynamic_buyers: flag,
  buyers_limit_value: optionalCount,
  webhook_read_timeout: optionalCount,
  concurrency_cap_buffer_percent: v.optional(blankable(v.pipe(decimalParam, v.minValue(0, 'must be between 0 and 100'), v.maxValue(100, 'must be between 0 and 100')))),
  rate_limit_per_minute: optionalCount,
  rate_limit_per_hour: optionalCount,
  rate_limit_per_day: optionalCount,
  rate_limit_per_minute_per_traffic_source: optionalCount,
  rate_limit_per_hour_per_traffic_source: optionalCount,
  rate_limit_per_day_per_traffic_source: optionalCount,
};

export const inboundWebhooks = defineResource({
  ...routing.inboundWebhooks,
  ...inboundWebhooksView,
  root: 'inbound_webhook',
  plural: 'inbound_webhooks',
  createSchema: v.object({ ...writable, vanity_uri: v.optional(blankable(vanityUri)) }),
  updateSchema: v.object({ ...writable, vanity_uri: v.optional(vanityUri) }),
  defaults: {
    webhook_type: 'check_for_available_buyer',
    call_router_ids: [],
    buyer_ids: [],
    buyer_group_ids: [],
    require_caller_id_on_ping: false,
    require_traffic_source_id: false,
    require_user_auth_token: false,
    test_mode: false,
    include_dynamic_buyers: false,
    enable_public_show: false,
    enable_public_index: false,
    template_enabled: false,
    data_append_enabled: false,
    tracking_type: 'ping_post',
    sortable_order: 0,
  },
  order: { values: ['id', 'name', 'vanity_uri', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'description', 'vanity_uri'],
  unique: [{ field: 'vanity_uri', scope: 'global' }],
  // The records the webhook's id lists name, `{ id, name }` each, in the envelope (the lists are checked as foreign keys through them).
  associations: {
    buyers: { resource: 'buyers', via: 'buyer_ids' },
    buyer_groups: { resource: 'buyer_groups', via: 'buyer_group_ids' },
    call_routers: { resource: 'call_routers', via: 'call_router_ids' },
  },
  generate: (context, draft) => ({ user_id: context.userId ?? null, ...(draft.vanity_uri ? {} : { vanity_uri: generatedVanityUri() }) }),
});
