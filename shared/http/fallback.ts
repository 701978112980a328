import { errorEnvelope } from './envelope.js';
import { jsonResponse } from './middleware/responses.js';
import type { ApiEvent, ApiResponse } from './request.js';
import { routeKey, type RouteDefinition } from './route-definition.js';
import type { RouteMatch } from './route-match.js';

/** Longest path echoed back in a 404: enough to spot a typo, never a mirror for a hostile megabyte. */
const MAX_ECHOED_PATH = 200;

/**
 * The answer for a request no route serves: 405 with Allow when the path exists, else 404 naming
 * the method and path, so a client can tell a typo in a path from a missing record (`Not found`).
 */
export function unmatchedResponse(match: Exclude<RouteMatch, { kind: 'matched' }>, method: string, path: string): ApiResponse {
  if (match.kind === 'method_not_allowed') {
    const response = jsonResponse(405, errorEnvelope(405, { base: ['Method not allowed'] }));
    return { ...response, headers: { ...response.headers, allow: match.allowed.join(', ') } };
  }
  const shownPath = path.length > MAX_ECHOED_PATH ? `${path.slice(0, MAX_ECHOED_PATH)}...` : path;
  return jsonResponse(404, errorEnvelope(404, { base: [`No route matches ${method.slice(0, 10)} ${shownPath}`] }));
}

/**
 * A path as API Gateway's routes spell it: no empty segment, no trailing slash. The route
 * table's matcher (and so the local gateway) reads `/api/v1/calls/stats/` as the route
 * `/api/v1/calls/stats`; API Gateway matches paths exactly and a route's path may not end in "/",
 * so there such a path reaches `$default`.
 */
export function canonicalPath(path: string): string {
  return `/${path.split('/').filter(Boolean).join('/')}`;
}

/** The event API Gateway would have sent for the route a loosely written path names: its route key, canonical path and path parameters. */
export function forwardedEvent(event: ApiEvent, route: RouteDefinition, pathParameters: Record<string, string>): ApiEvent {
  const key = routeKey(route);
  const rawPath = canonicalPath(event.rawPath);
  return {
    ...event,
    routeKey: key,
    rawPath,
    pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
    requestContext: { ...event.requestContext, routeKey: key, http: { ...event.requestContext.http, path: rawPath } },
  };
}
