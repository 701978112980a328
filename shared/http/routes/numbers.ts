import { needs } from '../../auth/permissions.js';
import { API, type RouteDefinition, resourceRoutes } from '../route-definition.js';
import { numbersRoutings } from '../../resources/routing/numbers.js';

/**
 * The numbers function's routes: its resources', number search, resuming a number order, and the
 * public number lookup of the number-replacement script (docs/compatibility.md), at the path the
 * script calls.
 */
export const numbersRoutes: readonly RouteDefinition[] = [
  ...numbersRoutings.flatMap(resourceRoutes),
  { method: 'GET', path: `${API}/phone_numbers/search`, group: 'numbers', auth: 'basic', operation: 'phone_numbers.search', permission: needs('phone_numbers', 'create') },
  { method: 'POST', path: `${API}/number_orders/{id}/resume`, group: 'numbers', auth: 'basic', operation: 'number_orders.resume', permission: needs('number_orders', 'update') },
  { method: 'GET', path: `${API}/numbers.json`, group: 'numbers', auth: 'none', operation: 'numbers.lookup' },
  { method: 'OPTIONS', path: `${API}/numbers.json`, group: 'numbers', auth: 'none', operation: 'numbers.lookupPreflight' },
];
