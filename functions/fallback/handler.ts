import { unmatchedResponse } from '../../shared/http/fallback.js';
import type { ApiEvent, ApiResponse } from '../../shared/http/request.js';
import { matchRoute } from '../../shared/http/route-match.js';
import { routes } from '../../shared/http/routes.js';
import { mapStacksThroughBundleMap } from '../../shared/observability/source-mapped-stacks.js';

mapStacksThroughBundleMap(import.meta.url);

/**
 * API Gateway's `$default` route: a request no route-table entry serves gets the same 404 or 405
 * envelope as from the local gateway, instead of API Gateway's bare `{"message":"Not Found"}`.
 */
export const handler = async (event: ApiEvent): Promise<ApiResponse> => {
  const match = matchRoute(event.requestContext.http.method, event.rawPath, routes);
  // A matched route never reaches $default; answer 404 rather than guess.
  return unmatchedResponse(match.kind === 'matched' ? { kind: 'not_found' } : match, event.requestContext.http.method, event.rawPath);
};
