import type { MiddlewareObj } from '@middy/core';
import { mergeParams, parseBody, parseQuery } from '../params.js';
import type { ApiEvent, ApiResponse, AppContext } from '../request.js';

/** Reads query string and body (JSON or form) into one parameter object. */
export function parseParams(): MiddlewareObj<ApiEvent, ApiResponse, Error, AppContext> {
  return {
    before: (request) => {
      const { event } = request;
      const rawBody = event.body && event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
      const body = parseBody(rawBody, event.headers?.['content-type']);
      request.context.params = mergeParams(parseQuery(event.rawQueryString), body);
    },
  };
}
