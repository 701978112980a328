import { fireStatus } from './fire-status.js';
import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/subscriptions.js';

/** How the resources of webhook-manual-fires-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const webhookManualFiresView = defineView({
  name: routing.webhookManualFires.name,
  type: 'WebhookManualFire',
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
});
