import type { RouteGroup } from '../shared/http/route-groups.js';

/**
 * Each route group's handler module, for the local gateway (which loads a group on its first
 * request, as Lambda would). The CDK stack bundles `functions/<group>/handler.ts` directly.
 */
export const handlerModules: Record<RouteGroup, () => Promise<{ handler: (event: never, context: never) => unknown }>> = {
  subscriptions: () => import('./subscriptions/handler.js'),
  offers: () => import('./offers/handler.js'),
  integrations: () => import('./integrations/handler.js'),
  admin: () => import('./admin/handler.js'),
  contacts: () => import('./contacts/handler.js'),
  inbound: () => import('./inbound/handler.js'),
  voice: () => import('./voice/handler.js'),
  buyers: () => import('./buyers/handler.js'),
  numbers: () => import('./numbers/handler.js'),
  calls: () => import('./calls/handler.js'),
  leads: () => import('./leads/handler.js'),
  schedules: () => import('./schedules/handler.js'),
  configuration: () => import('./configuration/handler.js'),
  docs: () => import('./docs/handler.js'),
};
