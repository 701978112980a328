import type { MiddlewareObj } from '@middy/core';
import { logger } from '../../logger.js';
import { errorEnvelope } from '../../http/envelope.js';
import { KeyTooLongError } from '../../db/item-limits.js';
import { HttpError, NotFoundError } from '../errors.js';
import type { ApiEvent, ApiResponse, AppContext } from '../request.js';
import { jsonResponse } from './responses.js';

/**
 * Turns any error into the error envelope. Errors below 500 tell the client what was wrong;
 * anything else is logged with its stack and answered with a bare 500 and the request id.
 */
export function errorHandler(): MiddlewareObj<ApiEvent, ApiResponse, Error, AppContext> {
  return {
    onError: (request) => {
      // A value too long to be a key names nothing: reading it finds nothing.
      const error =
        request.error instanceof KeyTooLongError && ['GET', 'DELETE'].includes(request.event.requestContext?.http?.method ?? '')
          ? new NotFoundError()
          : request.error;
      const requestId = request.context.awsRequestId;
      if (error instanceof HttpError && error.statusCode < 500) {
        const body = error.toJSON();
        request.response = jsonResponse(error.statusCode, errorEnvelope(body.status, body.errors));
        return;
      }
      logger.error('request failed', { error, route: request.event.routeKey });
      request.response = jsonResponse(500, errorEnvelope(500, { base: ['Internal server error'] }, requestId));
    },
  };
}
