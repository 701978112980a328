import { createRouteForwarding } from '../../shared/adapters/route-forwarding.js';
import { errorEnvelope } from '../../shared/http/envelope.js';
import { canonicalPath, forwardedEvent, unmatchedResponse } from '../../shared/http/fallback.js';
import { jsonResponse } from '../../shared/http/middleware/responses.js';
import type { ApiEvent, ApiResponse } from '../../shared/http/request.js';
import { isPartnerRoute } from '../../shared/http/route-definition.js';
import { matchRoute } from '../../shared/http/route-match.js';
import { routes } from '../../shared/http/routes.js';
import { logger } from '../../shared/logger.js';
import { mapStacksThroughBundleMap } from '../../shared/observability/source-mapped-stacks.js';
import type { RouteForwardingPort } from '../../shared/ports/route-forwarding.js';

mapStacksThroughBundleMap(import.meta.url);

/**
 * API Gateway's `$default` route: a request no route-table entry serves gets the same 404 or 405
 * envelope as from the local gateway, instead of API Gateway's bare `{"message":"Not Found"}`.
 * A path that names a route but is written loosely (a trailing slash, which no API Gateway route
 * can hold) is handed to that route's function, so it is served as the local gateway serves it
 * (shared/ports/route-forwarding.ts).
 */
export function createFallbackHandler(forwarding: RouteForwardingPort | undefined) {
  return async (event: ApiEvent): Promise<ApiResponse> => {
    const method = event.requestContext.http.method;
    const match = matchRoute(method, event.rawPath, routes);
    if (match.kind !== 'matched') return unmatchedResponse(match, method, event.rawPath);
    // A route's own path never reaches $default (unless the stage serves no routes at all): answer
    // 404 rather than guess. Partner routes are not forwarded: a slashed path would pass their
    // tighter API Gateway throttle.
    if (!forwarding || canonicalPath(event.rawPath) === event.rawPath || isPartnerRoute(match.route)) return unmatchedResponse({ kind: 'not_found' }, method, event.rawPath);
    try {
      return await forwarding.forward(match.route.group, forwardedEvent(event, match.route, match.pathParameters));
    } catch (error) {
      logger.error('forwarding a loosely written path to its route failed', { path: event.rawPath, group: match.route.group, error });
      return jsonResponse(500, errorEnvelope(500, { base: ['Internal server error'] }));
    }
  };
}

export const handler = createFallbackHandler(createRouteForwarding());
