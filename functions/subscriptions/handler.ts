import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { resourcesOfGroup } from '../../shared/resources/registry.js';
import { deleteByTargetUrl } from './delete-by-target-url.js';
import { listWebhookLogs, showWebhookLog } from './webhook-logs.js';

/**
 * Event subscriptions and outgoing webhooks: the six operations of subscriptions, outgoing
 * webhooks and their URLs, manual fires, delete by target_url, and the webhook logs.
 */
export const handler = createRouteGroupHandler('subscriptions', {
  ...groupOperations(resourcesOfGroup('subscriptions')),
  'subscriptions.deleteByTargetUrl': deleteByTargetUrl,
  'webhook_logs.list': listWebhookLogs,
  'webhook_logs.show': showWebhookLog,
});
