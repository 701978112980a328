import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { resourcesOfGroup } from '../../shared/resources/registry.js';

/** Offers, traffic sources and traffic source payouts (offer conversions). */
export const handler = createRouteGroupHandler('offers', groupOperations(resourcesOfGroup('offers')));
