import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { subscriptionsRoutes } from '../../shared/http/routes/subscriptions.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { subscriptions } from '../../shared/resources/subscriptions.js';
import { outgoingWebhookUrls, outgoingWebhooks } from '../../shared/resources/outgoing-webhooks.js';
import { webhookManualFires } from '../../shared/resources/webhook-manual-fires.js';
import { deleteByTargetUrl } from './delete-by-target-url.js';
import { listWebhookLogs, showWebhookLog } from './webhook-logs.js';
import { listChangeLogs, showChangeLog } from './change-logs.js';

/**
 * Event subscriptions and outgoing webhooks: the six operations of subscriptions, outgoing
 * webhooks and their URLs, manual fires, delete by target_url, the webhook logs, and the change
 * logs (the audit trail of every record written through the API).
 */
export const handler = createRouteGroupHandler('subscriptions', subscriptionsRoutes, {
  ...groupOperations('subscriptions', [subscriptions, outgoingWebhookUrls, outgoingWebhooks, webhookManualFires]),
  'subscriptions.deleteByTargetUrl': deleteByTargetUrl,
  'webhook_logs.list': listWebhookLogs,
  'webhook_logs.show': showWebhookLog,
  'change_logs.list': listChangeLogs,
  'change_logs.show': showChangeLog,
});
