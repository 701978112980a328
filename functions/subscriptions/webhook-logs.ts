import { OUTGOING_WEBHOOK_TRIGGER_TYPES } from '../../shared/events/event-names.js';
import { WEBHOOK_LOG_COLUMNS, WEBHOOK_LOGS } from '../../shared/events/webhook-logs.js';
import { dayLogOperations } from '../../shared/http/day-log-list.js';
import { booleanParam, idParam, oneOf } from '../../shared/http/param-schemas.js';

/**
 * `GET /api/v1/webhook_logs` and `GET /api/v1/webhook_logs/:id`: every delivery attempt of
 * subscriptions and outgoing webhooks (shared/events/webhook-logs.ts), newest first by cursor.
 * `event` takes the event names and the outgoing webhooks' `manual` and `schedule_action`.
 */
export const { list: listWebhookLogs, show: showWebhookLog, listSchema: webhookLogListSchema, showSchema: webhookLogShowSchema } = dayLogOperations({
  resource: WEBHOOK_LOGS,
  root: 'webhook_log',
  plural: 'webhook_logs',
  columns: WEBHOOK_LOG_COLUMNS,
  timeColumns: ['created_at', 'next_attempt_at'],
  filters: {
    subscription_id: idParam,
    outgoing_webhook_id: idParam,
    webhook_manual_fire_id: idParam,
    event: oneOf(OUTGOING_WEBHOOK_TRIGGER_TYPES),
    kind: oneOf(['subscription', 'outgoing_webhook']),
    success: booleanParam,
  },
});
