import * as v from 'valibot';
import { blankable } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { optionalId, timeParam } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/subscriptions.js';
import { webhookManualFiresView } from './webhook-manual-fires-view.js';

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
  ...webhookManualFiresView,
  root: 'webhook_manual_fire',
  plural: 'webhook_manual_fires',
  // The same fields prefill `new` (the update schema) and create a fire.
  createSchema: manualFireFields,
  updateSchema: manualFireFields,
  // Searched by the name it is shown with ("Manual fire #12"), which is derived, not stored.
  fulltextFields: ['name'],
  defaults: { webhook_log_ids: [], url_count: 0, delivered_count: 0, failed_count: 0, last_status_code: null, last_error: null },
  behaviour: () => import('./manual-fire-behaviour.js'),
});
