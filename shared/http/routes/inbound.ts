import { needs } from '../../auth/permissions.js';
import { API, type RouteDefinition, resourceRoutes } from '../route-definition.js';
import { inboundRoutings } from '../../resources/routing/inbound.js';

/** The inbound function's routes: its resource's, then ping, post and full (both in one request), and their logs. */
export const inboundRoutes: readonly RouteDefinition[] = [
  ...inboundRoutings.flatMap(resourceRoutes),
  // Ping, post and full: found by vanity name, no company credentials; GET too, and CORS preflight.
  ...(['ping', 'post', 'full'] as const).flatMap((kind): RouteDefinition[] => [
    { method: 'POST', path: `${API}/inbound_webhooks/${kind}/{vanity_uri}`, group: 'inbound', auth: 'ping', operation: `inbound_webhooks.${kind}` },
    { method: 'GET', path: `${API}/inbound_webhooks/${kind}/{vanity_uri}`, group: 'inbound', auth: 'ping', operation: `inbound_webhooks.${kind}` },
    { method: 'OPTIONS', path: `${API}/inbound_webhooks/${kind}/{vanity_uri}`, group: 'inbound', auth: 'none', operation: 'inbound_webhooks.preflight' },
  ]),
  { method: 'GET', path: `${API}/inbound_webhook_logs`, group: 'inbound', auth: 'basic', operation: 'inbound_webhook_logs.list', permission: needs('inbound_webhook_logs', 'list') },
];
