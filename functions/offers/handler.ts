import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { offersRoutes } from '../../shared/http/routes/offers.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { offers, trafficSources } from '../../shared/resources/offers.js';
import { offerConversions } from '../../shared/resources/offer-conversions.js';

/** Offers, traffic sources and traffic source payouts (offer conversions). */
export const handler = createRouteGroupHandler('offers', offersRoutes, groupOperations('offers', [offers, trafficSources, offerConversions]));
