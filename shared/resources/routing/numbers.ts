import { ALL_OPERATIONS } from '../define.js';
import { routing, type ResourceRouting } from './resource-routing.js';

/** The routing facts of the resources the numbers function serves (a function imports only its own group's). */
export const phoneNumbers = routing({ name: 'phone_numbers', group: 'numbers', operations: ['list', 'create', 'show', 'update', 'delete'] });
export const ringPools = routing({ name: 'ring_pools', group: 'numbers', operations: ALL_OPERATIONS });
export const numberOrderPrefixes = routing({ name: 'number_order_prefixes', group: 'numbers', operations: ALL_OPERATIONS, csv: true });
export const numberOrders = routing({ name: 'number_orders', group: 'numbers', operations: ALL_OPERATIONS, csv: true });

/** The numbers group's resources, in the route table's order. */
export const numbersRoutings: readonly ResourceRouting[] = [phoneNumbers, ringPools, numberOrderPrefixes, numberOrders];
