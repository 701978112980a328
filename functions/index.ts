import type { RouteGroup } from '../shared/http/routes.js';

/**
 * Each route group's handler module, for the local gateway (which loads a group on its first
 * request, as Lambda would). The CDK stack bundles `functions/<group>/handler.ts` directly.
 */
export const handlerModules: Record<RouteGroup, () => Promise<{ handler: (event: never, context: never) => unknown }>> = {
  subscriptions: () => import('./subscriptions/handler.js'),
};
