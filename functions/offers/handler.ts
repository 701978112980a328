import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { offersRoutes } from '../../shared/http/routes/offers.js';
import { lazyGroupOperations } from '../../shared/resources/lazy-operations.js';
import { offersRoutings } from '../../shared/resources/routing/offers.js';

/** Offers, traffic sources and traffic source payouts (offer conversions). */
export const handler = createRouteGroupHandler(
  'offers',
  offersRoutes,
  lazyGroupOperations('offers', offersRoutings, async () => {
    const { offers, trafficSources } = await import('../../shared/offers/offers-resource.js');
    const { offerConversions } = await import('../../shared/offers/offer-conversions-resource.js');
    return [offers, trafficSources, offerConversions];
  }),
);
