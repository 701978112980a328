import { needs } from '../../auth/permissions.js';
import { API, type RouteDefinition, resourceRoutes } from '../route-definition.js';
import { adminRoutings } from '../../resources/routing/admin.js';

/** The admin function's routes: its resources', teams under their hosted path, then collections. */
export const adminRoutes: readonly RouteDefinition[] = [
  ...adminRoutings.flatMap(resourceRoutes),
  // Teams under the hosted service's own path, which the official PHP SDK reads (docs/compatibility.md).
  { method: 'GET', path: `${API}/teams`, group: 'admin', auth: 'basic', operation: 'access_control_lists.list', permission: needs('access_control_lists', 'list') },
  { method: 'GET', path: `${API}/teams/{id}`, group: 'admin', auth: 'basic', operation: 'access_control_lists.show', permission: needs('access_control_lists', 'show') },
  { method: 'GET', path: `${API}/collections/{type}`, group: 'admin', auth: 'basic', operation: 'collections.show', permission: 'company' },
  // The caller's own company (its time zone, which the console's date ranges use).
  { method: 'GET', path: `${API}/company`, group: 'admin', auth: 'basic', operation: 'company.show', permission: 'company' },
];
