import type { MiddlewareObj } from '@middy/core';
import { NotFoundError } from '../errors.js';
import { pathParamTooLong } from '../input-limits.js';
import type { ApiEvent, ApiResponse, AppContext } from '../request.js';
import { withJsonTwins, withoutJsonSuffix } from '../format-suffix.js';
import { routeKey, type RouteDefinition } from '../route-definition.js';

/**
 * Finds the route-table entry for the event's route key among the group's routes. A path
 * parameter longer than any id, token or name could be is a 404 here, before any lookup. The
 * group's `.json` twins are its routes too, and a `.json` on a last path parameter is cut
 * (shared/http/format-suffix.ts).
 */
export function resolveRoute(groupRoutes: readonly RouteDefinition[]): MiddlewareObj<ApiEvent, ApiResponse, Error, AppContext> {
  const byKey = new Map(withJsonTwins(groupRoutes).map((route) => [routeKey(route), route]));
  return {
    before: (request) => {
      const route = byKey.get(request.event.routeKey);
      if (!route) throw new NotFoundError(`No route for ${request.event.routeKey}`);
      if (Object.values(request.event.pathParameters ?? {}).some(pathParamTooLong)) throw new NotFoundError();
      if (request.event.pathParameters) request.event.pathParameters = withoutJsonSuffix(route, request.event.pathParameters);
      request.context.route = route;
    },
  };
}
