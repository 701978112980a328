import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { lazyOperation } from '../../shared/http/lazy-operation.js';
import { lazyGroupOperations } from '../../shared/resources/lazy-operations.js';
import { subscriptionsRoutings } from '../../shared/resources/routing/subscriptions.js';
import { subscriptionsRoutes } from '../../shared/http/routes/subscriptions.js';

/**
 * Event subscriptions and outgoing webhooks: the six operations of subscriptions, outgoing
 * webhooks and their URLs, manual fires, delete by target_url, the webhook logs, and the change
 * logs (the audit trail of every record written through the API).
 */
export const handler = createRouteGroupHandler('subscriptions', subscriptionsRoutes, {
  ...lazyGroupOperations('subscriptions', subscriptionsRoutings, async () => {
    const { subscriptions } = await import('../../shared/events/subscriptions-resource.js');
    const { outgoingWebhookUrls, outgoingWebhooks } = await import('../../shared/events/outgoing-webhooks-resource.js');
    const { webhookManualFires } = await import('../../shared/events/webhook-manual-fires-resource.js');
    return [subscriptions, outgoingWebhookUrls, outgoingWebhooks, webhookManualFires];
  }),
  'subscriptions.deleteByTargetUrl': lazyOperation(async () => (await import('./delete-by-target-url.js')).deleteByTargetUrl),
  'webhook_logs.list': lazyOperation(async () => (await import('./webhook-logs.js')).listWebhookLogs),
  'webhook_logs.show': lazyOperation(async () => (await import('./webhook-logs.js')).showWebhookLog),
  'change_logs.list': lazyOperation(async () => (await import('./change-logs.js')).listChangeLogs),
  'change_logs.show': lazyOperation(async () => (await import('./change-logs.js')).showChangeLog),
});
