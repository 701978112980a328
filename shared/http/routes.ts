/**
 * The route table: every endpoint of the service. The CDK stack creates one API Gateway route per
 * entry, the local gateway serves exactly these, the fallback function answers 404/405 from them,
 * and a test checks that every entry has an operation in its route group's function.
 *
 * Each group's routes are declared once, in routes/<group>.ts: its resources' routes, generated
 * from their routing facts (shared/resources/routing/<group>.ts, which load none of their
 * schemas), and the endpoints with behaviour of their own. A group's function imports its own
 * module only, never this table (all groups' routes and all resources' facts, ~16 KB of a bundle).
 */
import type { RouteGroup } from './route-groups.js';
import type { RouteDefinition } from './route-definition.js';
import { withJsonTwins } from './format-suffix.js';
import { adminRoutes } from './routes/admin.js';
import { buyersRoutes } from './routes/buyers.js';
import { callsRoutes } from './routes/calls.js';
import { configurationRoutes } from './routes/configuration.js';
import { contactsRoutes } from './routes/contacts.js';
import { docsRoutes } from './routes/docs.js';
import { inboundRoutes } from './routes/inbound.js';
import { integrationsRoutes } from './routes/integrations.js';
import { leadsRoutes } from './routes/leads.js';
import { numbersRoutes } from './routes/numbers.js';
import { offersRoutes } from './routes/offers.js';
import { schedulesRoutes } from './routes/schedules.js';
import { subscriptionsRoutes } from './routes/subscriptions.js';
import { voiceRoutes } from './routes/voice.js';

export { routeGroups, type RouteGroup } from './route-groups.js';
export { type AuthKind, type HttpMethod, type RouteDefinition, resourceRoutes, routeKey } from './route-definition.js';

/** Each route group's own routes, as its module declares them. */
const declaredByGroup: Readonly<Record<RouteGroup, readonly RouteDefinition[]>> = {
  subscriptions: subscriptionsRoutes,
  offers: offersRoutes,
  integrations: integrationsRoutes,
  buyers: buyersRoutes,
  voice: voiceRoutes,
  inbound: inboundRoutes,
  contacts: contactsRoutes,
  leads: leadsRoutes,
  schedules: schedulesRoutes,
  configuration: configurationRoutes,
  admin: adminRoutes,
  numbers: numbersRoutes,
  calls: callsRoutes,
  docs: docsRoutes,
};

/**
 * Each route group's routes (the type makes a group without its module fail to compile), with the
 * `.json` twins of its routes (shared/http/format-suffix.ts), which its handler resolves itself.
 */
export const routesByGroup: Readonly<Record<RouteGroup, readonly RouteDefinition[]>> = Object.fromEntries(
  (Object.keys(declaredByGroup) as RouteGroup[]).map((group) => [group, withJsonTwins(declaredByGroup[group])]),
) as unknown as Record<RouteGroup, readonly RouteDefinition[]>;

export const routes: readonly RouteDefinition[] = Object.values(routesByGroup).flat();

/** The routes served by one route group. */
export function routesOfGroup(group: RouteGroup): RouteDefinition[] {
  return routes.filter((route) => route.group === group);
}
