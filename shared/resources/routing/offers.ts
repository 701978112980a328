import { ALL_OPERATIONS } from '../define.js';
import { routing, type ResourceRouting } from './resource-routing.js';

/** The routing facts of the resources the offers function serves (a function imports only its own group's). */
export const offers = routing({ name: 'offers', group: 'offers', operations: ALL_OPERATIONS, csv: true });
export const trafficSources = routing({ name: 'traffic_sources', group: 'offers', operations: ALL_OPERATIONS, csv: true });
export const offerConversions = routing({ name: 'offer_conversions', group: 'offers', operations: ALL_OPERATIONS, csv: true });

/** The offers group's resources, in the route table's order. */
export const offersRoutings: readonly ResourceRouting[] = [offers, trafficSources, offerConversions];
