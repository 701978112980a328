import { needs } from '../../auth/permissions.js';
import { API, type RouteDefinition, resourceRoutes } from '../route-definition.js';
import { subscriptionsRoutings } from '../../resources/routing/subscriptions.js';

/** The subscriptions function's routes: its resources', then deletion by target URL, webhook logs and change logs. */
export const subscriptionsRoutes: readonly RouteDefinition[] = [
  ...subscriptionsRoutings.flatMap(resourceRoutes),
  { method: 'DELETE', path: `${API}/subscriptions`, group: 'subscriptions', auth: 'basic', operation: 'subscriptions.deleteByTargetUrl', permission: needs('subscriptions', 'delete') },
  { method: 'GET', path: `${API}/webhook_logs`, group: 'subscriptions', auth: 'basic', operation: 'webhook_logs.list', permission: needs('webhook_logs', 'list') },
  { method: 'GET', path: `${API}/webhook_logs/{id}`, group: 'subscriptions', auth: 'basic', operation: 'webhook_logs.show', permission: needs('webhook_logs', 'show') },
  // The audit trail of every create, update and delete through the resource engine (docs/resources.md, "Change logs").
  { method: 'GET', path: `${API}/change_logs`, group: 'subscriptions', auth: 'basic', operation: 'change_logs.list', permission: needs('change_logs', 'list') },
  { method: 'GET', path: `${API}/change_logs/{id}`, group: 'subscriptions', auth: 'basic', operation: 'change_logs.show', permission: needs('change_logs', 'show') },
];
