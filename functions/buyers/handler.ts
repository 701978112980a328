import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { buyersRoutes } from '../../shared/http/routes/buyers.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { buyers, buyerGroups } from '../../shared/resources/buyers.js';
import { showByUserBuyerId } from './by-user-buyer-id.js';

/** Buyers and buyer groups, plus lookup by the client's own buyer id. */
export const handler = createRouteGroupHandler('buyers', buyersRoutes, {
  ...groupOperations('buyers', [buyers, buyerGroups]),
  'buyers.showByUserBuyerId': showByUserBuyerId,
});
