import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { buyerIsAvailable } from './buyer-availability.js';

/** Lead submission and the leads API. */
export const handler = createRouteGroupHandler('leads', {
  'leads.buyerIsAvailable': buyerIsAvailable,
});
