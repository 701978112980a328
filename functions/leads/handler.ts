import { createRouteGroupHandler } from '../../shared/http/handler.js';

/** Lead submission and the leads API. */
export const handler = createRouteGroupHandler('leads', {});
