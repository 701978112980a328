import { type RouteDefinition, resourceRoutes } from '../route-definition.js';
import { offersRoutings } from '../../resources/routing/offers.js';

/** The offers function's routes: its resources' only. */
export const offersRoutes: readonly RouteDefinition[] = offersRoutings.flatMap(resourceRoutes);
