import { errorEnvelope } from './envelope.js';
import { jsonResponse } from './middleware/responses.js';
import type { ApiResponse } from './request.js';
import type { RouteMatch } from './route-match.js';

/** The answer for a request no route serves: 405 with Allow when the path exists, else 404. */
export function unmatchedResponse(match: Exclude<RouteMatch, { kind: 'matched' }>): ApiResponse {
  if (match.kind === 'method_not_allowed') {
    const response = jsonResponse(405, errorEnvelope(405, { base: ['Method not allowed'] }));
    return { ...response, headers: { ...response.headers, allow: match.allowed.join(', ') } };
  }
  return jsonResponse(404, errorEnvelope(404, { base: ['Not found'] }));
}
