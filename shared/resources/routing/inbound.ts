import { ALL_OPERATIONS } from '../define.js';
import { routing, type ResourceRouting } from './resource-routing.js';

/** The routing facts of the resources the inbound function serves (a function imports only its own group's). */
export const inboundWebhooks = routing({ name: 'inbound_webhooks', group: 'inbound', operations: ALL_OPERATIONS });

/** The inbound group's resources, in the route table's order. */
export const inboundRoutings: readonly ResourceRouting[] = [inboundWebhooks];
