import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { inboundRoutes } from '../../shared/http/routes/inbound.js';
import { METRIC } from '../../shared/observability/metric-names.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { inboundWebhooks } from '../../shared/resources/inbound-webhooks.js';
import { corsPreflight, inboundOperation } from '../../shared/routing/inbound.js';
import { listLogs } from './logs.js';
import { ping } from './ping.js';
import { post } from './post.js';

/** Inbound webhooks: configuration, the partner-facing ping and post, and their logs. */
export const handler = createRouteGroupHandler('inbound', inboundRoutes, {
  ...groupOperations('inbound', [inboundWebhooks]),
  'inbound_webhooks.ping': inboundOperation(ping, METRIC.pings),
  'inbound_webhooks.post': inboundOperation(post, METRIC.posts),
  'inbound_webhooks.preflight': corsPreflight,
  'inbound_webhook_logs.list': listLogs,
});
