import * as v from 'valibot';
import { blankable } from '../http/param-schemas.js';
import { defineResource } from './define.js';
import { optionalId, timeParam } from './field-schemas.js';

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
 * `subscriptions`). Stored now; the firing itself is not served yet, so `webhook_log_ids` stays
 * empty and `outgoing_webhook_id` is checked as an id only until then.
 */
export const webhookManualFires = defineResource({
  name: 'webhook_manual_fires',
  group: 'subscriptions',
  root: 'webhook_manual_fire',
  plural: 'webhook_manual_fires',
  type: 'WebhookManualFire',
  operations: ['list', 'new', 'create', 'show'],
  // The same fields prefill `new` (the update schema) and create a fire.
  createSchema: manualFireFields,
  updateSchema: manualFireFields,
  defaults: { webhook_log_ids: [] },
  columns: ['name', 'context_menu_name', 'company_id', 'outgoing_webhook_id', 'buyer_conversion_id', 'lead_id', 'call_id', 'webhook_log_ids'],
  derive: (record) => {
    const name = `Manual fire #${record.id}`;
    return { name, context_menu_name: name };
  },
});
