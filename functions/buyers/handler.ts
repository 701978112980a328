import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { lazyOperation } from '../../shared/http/lazy-operation.js';
import { lazyGroupOperations } from '../../shared/resources/lazy-operations.js';
import { buyersRoutings } from '../../shared/resources/routing/buyers.js';
import { buyersRoutes } from '../../shared/http/routes/buyers.js';

/** Buyers and buyer groups, plus lookup by the client's own buyer id. */
export const handler = createRouteGroupHandler('buyers', buyersRoutes, {
  ...lazyGroupOperations('buyers', buyersRoutings, async () => {
    const { buyers, buyerGroups } = await import('../../shared/buyers/buyers-resource.js');
    return [buyers, buyerGroups];
  }),
  'buyers.showByUserBuyerId': lazyOperation(async () => (await import('./by-user-buyer-id.js')).showByUserBuyerId),
  'buyers.bids': lazyOperation(async () => (await import('./bids.js')).listBids),
});
