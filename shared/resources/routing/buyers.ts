import { ALL_OPERATIONS } from '../define.js';
import { routing, type ResourceRouting } from './resource-routing.js';

/** The routing facts of the resources the buyers function serves (a function imports only its own group's). */
// Buyer team members see and change their own buyer (docs/permissions.md).
export const buyers = routing({ name: 'buyers', group: 'buyers', operations: ALL_OPERATIONS, csv: true, buyerTeam: ['list', 'show', 'update'] });
export const buyerGroups = routing({ name: 'buyer_groups', group: 'buyers', operations: ['list', 'create', 'show', 'update', 'delete'], createPath: '/api/v1/buyer_groups/{id}' });

/** The buyers group's resources, in the route table's order. */
export const buyersRoutings: readonly ResourceRouting[] = [buyers, buyerGroups];
