import { API, type RouteDefinition, resourceRoutes } from '../route-definition.js';
import { adminRoutings } from '../../resources/routing/admin.js';

/** The admin function's routes: its resources', then collections. */
export const adminRoutes: readonly RouteDefinition[] = [
  ...adminRoutings.flatMap(resourceRoutes),
  { method: 'GET', path: `${API}/collections/{type}`, group: 'admin', auth: 'basic', operation: 'collections.show', permission: 'company' },
];
