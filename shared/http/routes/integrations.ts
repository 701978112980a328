import { needs } from '../../auth/permissions.js';
import { API, type RouteDefinition, resourceRoutes } from '../route-definition.js';
import { integrationsRoutings } from '../../resources/routing/integrations.js';

/** The integrations function's routes: its resources', then an integration object's activation. */
export const integrationsRoutes: readonly RouteDefinition[] = [
  ...integrationsRoutings.flatMap(resourceRoutes),
  { method: 'PUT', path: `${API}/integrations/objects/{id}`, group: 'integrations', auth: 'basic', operation: 'integrations.setActive', permission: needs('integrations', 'update') },
];
