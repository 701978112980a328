import { errorEnvelope } from './envelope.js';
import { jsonResponse } from './middleware/responses.js';
import type { ApiResponse } from './request.js';
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
