import type { MiddlewareObj } from '@middy/core';
import { boundParams, PayloadTooLargeError, type LargeFieldLimit } from '../input-limits.js';
import { mergeParams, parseBody, parseQuery } from '../params.js';
import type { ApiEvent, ApiResponse, AppContext, Params } from '../request.js';

/** The request body as text (API Gateway base64-encodes bodies it does not take for text). */
export function rawBodyOf(event: ApiEvent): string | undefined {
  return event.body && event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/**
 * Query string and body (JSON or form) as one bounded parameter object, body winning; a route
 * with a large field (an upload) allows a larger body and that field.
 */
export function requestParams(event: ApiEvent, largeField?: LargeFieldLimit): Params {
  const body = parseBody(rawBodyOf(event), event.headers?.['content-type'], largeField?.bodyBytes);
  return boundParams(mergeParams(parseQuery(event.rawQueryString), body), largeField);
}

/** The body's bytes as sent (a `rawBody` route's file), refused past `maxBytes`. */
export function rawBytesOf(event: ApiEvent, maxBytes: number): Buffer {
  const bytes = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  if (bytes.length > maxBytes) throw new PayloadTooLargeError('body', `is larger than ${maxBytes} bytes`);
  return bytes;
}

/**
 * Reads query string and body into one parameter object (the query string alone on a `rawBody`
 * route, whose operation reads the bytes itself). Runs after authentication, so a
 * request without credentials never makes the service parse its body.
 */
export function parseParams(): MiddlewareObj<ApiEvent, ApiResponse, Error, AppContext> {
  return {
    before: (request) => {
      const route = request.context.route;
      request.context.params ??= route?.rawBody ? boundParams(parseQuery(request.event.rawQueryString)) : requestParams(request.event, route?.largeField);
    },
  };
}
