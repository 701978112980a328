import * as v from 'valibot';
import { blankable } from '../http/param-schemas.js';
import { defineResource } from './define.js';
import { fireStatus } from '../events/fire-status.js';
import { optionalId, timeParam } from './field-schemas.js';
import * as routing from './routing.js';

const time = v.optional(blankable(timeParam));

const manualFireFields = v.object({
  outgoing_webhook_id: optionalId,
  buyer_conversion_id: optionalId,
  lead_id: optionalId,
  call_id: optionalId,
  created_at: time,
  updated_at: time,
});

/**
 * Manual fires of an outgoing webhook, served with the outgoing webhooks they fire (route group
 * `subscriptions`): creating one sends the webhook's URLs for the call or lead named
 * (shared/events/manual-fire-behaviour.ts); the fire shows each attempt's log id and how the
 * sends went (docs/events.md).
 */
export const webhookManualFires = defineResource({
  ...routing.webhookManualFires,
  root: 'webhook_manual_fire',
  plural: 'webhook_manual_fires',
  type: 'WebhookManualFire',
  // The same fields prefill `new` (the update schema) and create a fire.
  createSchema: manualFireFields,
  updateSchema: manualFireFields,
  defaults: { webhook_log_ids: [], url_count: 0, delivered_count: 0, failed_count: 0, last_status_code: null, last_error: null },
  columns: [
    'name',
    'context_menu_name',
    'company_id',
    'outgoing_webhook_id',
    'buyer_conversion_id',
    'lead_id',
    'call_id',
    'webhook_log_ids',
    'fire_status',
    'url_count',
    'delivered_count',
    'failed_count',
    'last_status_code',
    'last_error',
  ],
  foreignKeys: { outgoing_webhook_id: { resource: 'outgoing_webhooks' } },
  derive: (record) => {
    const name = `Manual fire #${record.id}`;
    return { name, context_menu_name: name, fire_status: fireStatus(record) };
  },
  behaviour: () => import('../events/manual-fire-behaviour.js'),
});
