import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { inboundRoutes } from '../../shared/http/routes/inbound.js';
import { METRIC } from '../../shared/observability/metric-names.js';
import { lazyOperation } from '../../shared/http/lazy-operation.js';
import { lazyGroupOperations } from '../../shared/resources/lazy-operations.js';
import { inboundRoutings } from '../../shared/resources/routing/inbound.js';

/** Inbound webhooks: configuration, the partner-facing ping, post and full, and their logs. */
export const handler = createRouteGroupHandler('inbound', inboundRoutes, {
  ...lazyGroupOperations('inbound', inboundRoutings, async () => [(await import('../../shared/routing/inbound-webhooks-resource.js')).inboundWebhooks]),
  'inbound_webhooks.ping': lazyOperation(async () => {
    const [{ inboundOperation }, { ping }] = await Promise.all([import('../../shared/routing/inbound.js'), import('./ping.js')]);
    return inboundOperation(ping, METRIC.pings);
  }),
  'inbound_webhooks.post': lazyOperation(async () => {
    const [{ inboundOperation }, { post }] = await Promise.all([import('../../shared/routing/inbound.js'), import('./post.js')]);
    return inboundOperation(post, METRIC.posts);
  }),
  // Ping and post in one request; counted as a post (it ends with one).
  'inbound_webhooks.full': lazyOperation(async () => {
    const [{ inboundOperation }, { full }] = await Promise.all([import('../../shared/routing/inbound.js'), import('./post.js')]);
    return inboundOperation(full, METRIC.posts);
  }),
  'inbound_webhooks.preflight': lazyOperation(async () => (await import('../../shared/routing/inbound.js')).corsPreflight),
  'inbound_webhook_logs.list': lazyOperation(async () => (await import('./logs.js')).listLogs),
});
