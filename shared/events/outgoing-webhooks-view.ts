import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/subscriptions.js';

/** How the resources of outgoing-webhooks-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const outgoingWebhooksView = defineView({
  name: routing.outgoingWebhooks.name,
  type: 'OutgoingWebhook',
  columns: [
    'company_id',
    'name',
    'trigger_type',
    'trigger_duration',
    'offer_id',
    'schedule_action_id',
    'sortable_order',
    'token_value_ids',
    'outgoing_url_ids',
    'token_value_map_ids',
    'enabled',
  ],
  foreignKeys: { offer_id: { resource: 'offers' }, outgoing_url_ids: { resource: 'outgoing_webhook_urls' } },
});

export const outgoingWebhookUrlsView = defineView({
  name: routing.outgoingWebhookUrls.name,
  type: 'OutgoingWebhookUrl',
  columns: ['company_id', 'name', 'url', 'http_method', 'content_type', 'headers', 'body'],
});
