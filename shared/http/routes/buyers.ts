import { needs } from '../../auth/permissions.js';
import { API, type RouteDefinition, resourceRoutes } from '../route-definition.js';
import { buyersRoutings } from '../../resources/routing/buyers.js';

/** The buyers function's routes: its resources', then a buyer found by its user buyer id. */
export const buyersRoutes: readonly RouteDefinition[] = [
  ...buyersRoutings.flatMap(resourceRoutes),
  { method: 'GET', path: `${API}/buyers/{user_buyer_id}/by_user_buyer_id`, group: 'buyers', auth: 'basic', operation: 'buyers.showByUserBuyerId', permission: needs('buyers', 'show') },
  // A bidding buyer's recent asks (docs/rtb.md).
  { method: 'GET', path: `${API}/buyers/{id}/bids`, group: 'buyers', auth: 'basic', operation: 'buyers.bids', permission: needs('buyers', 'show') },
];
