import { adminRoutings } from './routing/admin.js';
import { buyersRoutings } from './routing/buyers.js';
import { configurationRoutings } from './routing/configuration.js';
import { contactsRoutings } from './routing/contacts.js';
import { inboundRoutings } from './routing/inbound.js';
import { integrationsRoutings } from './routing/integrations.js';
import { numbersRoutings } from './routing/numbers.js';
import { offersRoutings } from './routing/offers.js';
import type { ResourceRouting } from './routing/resource-routing.js';
import { schedulesRoutings } from './routing/schedules.js';
import { subscriptionsRoutings } from './routing/subscriptions.js';

/**
 * The routing facts of every registry resource, assembled from the route groups' modules
 * (routing/<group>.ts, where each resource's facts are declared once). The route table
 * (shared/http/routes.ts) reads only these light modules, so resolving routes does not load every
 * resource's schemas and hooks: each definition file spreads its facts from its group's module
 * and adds the rest. A function imports its own group's module, never this one, unless it needs
 * every resource (change logs, admin exports): this list costs 5 KB in a bundle.
 */
export type { ResourceRouting } from './routing/resource-routing.js';
export * from './routing/subscriptions.js';
export * from './routing/offers.js';
export * from './routing/integrations.js';
export * from './routing/admin.js';
export * from './routing/buyers.js';
export * from './routing/inbound.js';
export * from './routing/numbers.js';
export * from './routing/schedules.js';
export * from './routing/configuration.js';
export * from './routing/contacts.js';

/** Every registry resource's routing, in the route table's order, group by group (registry.ts lists the definitions in the same order; a test checks). */
export const resourceRoutings: readonly ResourceRouting[] = [
  ...subscriptionsRoutings,
  ...offersRoutings,
  ...integrationsRoutings,
  ...adminRoutings,
  ...buyersRoutings,
  ...inboundRoutings,
  ...numbersRoutings,
  ...schedulesRoutings,
  ...configurationRoutings,
  ...contactsRoutings,
];
