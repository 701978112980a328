import * as v from 'valibot';
import { OUTGOING_WEBHOOK_TRIGGER_TYPES } from './event-names.js';
import { booleanParam, idParam, integerParam, oneOf, presentString } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { idListParam, optionalCount, optionalId, optionalText } from '../resources/field-schemas.js';
import { bodyTemplateParam, contentTypeParam, headersParam, httpMethodParam, urlTemplateParam } from './outgoing-request-fields.js';
import * as routing from '../resources/routing/subscriptions.js';
import { outgoingWebhooksView, outgoingWebhookUrlsView } from './outgoing-webhooks-view.js';

/**
 * Outgoing webhooks: what to send when something happens (the reference's outgoing_webhook
 * object, inside Schedule action), and the URLs they send to. Call events fire the webhooks whose
 * trigger_type names them, webhook_manual_fires fire them by hand (docs/events.md).
 */

/** A list of ids; blank is the empty list (lists are iterated, never null). */
const idList = v.optional(v.pipe(idListParam, v.transform((ids) => ids ?? [])));
const triggerType = oneOf(OUTGOING_WEBHOOK_TRIGGER_TYPES);

const webhookWritable = {
  // Call triggers fire only when the call's answered duration reaches this many seconds.
  trigger_duration: optionalCount,
  // Fire only for this offer's calls and leads.
  offer_id: optionalId,
  // Names a schedule action; not checked until schedule actions are served.
  schedule_action_id: optionalId,
  sortable_order: v.optional(integerParam),
  token_value_ids: idList,
  token_value_map_ids: idList,
  outgoing_url_ids: idList,
  enabled: v.optional(booleanParam),
};

export const outgoingWebhooks = defineResource({
  ...routing.outgoingWebhooks,
  ...outgoingWebhooksView,
  root: 'outgoing_webhook',
  plural: 'outgoing_webhooks',
  createSchema: v.object({ ...webhookWritable, name: presentString, trigger_type: triggerType }),
  updateSchema: v.object({ ...webhookWritable, name: v.optional(presentString), trigger_type: v.optional(triggerType) }),
  defaults: {
    name: null,
    trigger_type: null,
    trigger_duration: null,
    offer_id: null,
    schedule_action_id: null,
    sortable_order: 0,
    token_value_ids: [],
    outgoing_url_ids: [],
    token_value_map_ids: [],
    enabled: true,
  },
  order: { values: ['id', 'name', 'trigger_type', 'sortable_order', 'created_at', 'updated_at'], default: 'id' },
  filters: { trigger_type: { schema: triggerType }, offer_id: { schema: idParam }, enabled: { schema: booleanParam } },
  fulltextFields: ['name'],
});

export const outgoingWebhookUrls = defineResource({
  ...routing.outgoingWebhookUrls,
  ...outgoingWebhookUrlsView,
  root: 'outgoing_webhook_url',
  plural: 'outgoing_webhook_urls',
  createSchema: v.object({
    name: optionalText,
    url: urlTemplateParam,
    http_method: v.optional(httpMethodParam),
    content_type: v.optional(contentTypeParam),
    headers: v.optional(headersParam),
    body: v.optional(bodyTemplateParam),
  }),
  updateSchema: v.object({
    name: optionalText,
    url: v.optional(urlTemplateParam),
    http_method: v.optional(httpMethodParam),
    content_type: v.optional(contentTypeParam),
    headers: v.optional(headersParam),
    body: v.optional(bodyTemplateParam),
  }),
  defaults: { name: null, url: null, http_method: 'POST', content_type: 'application/json', headers: {}, body: null },
  order: { values: ['id', 'name', 'url', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'url'],
  // A deleted URL leaves every outgoing webhook's outgoing_url_ids.
  behaviour: () => import('./outgoing-webhook-url-behaviour.js'),
});
