import type { MiddlewareObj, Request } from '@middy/core';
import { logger } from '../../logger.js';
import type { ApiEvent, ApiResponse, AppContext, AuthContext } from '../request.js';

/**
 * One log line per request (`message: "request"`), after the error handler has answered: the
 * route key (the route table's template, `GET /api/v1/calls/{id}`: never the path's values or
 * the query string, so no token or auth_token reaches a log), the status, the latency and the
 * company when credentials named one. Nothing from headers or body. Powertools adds the request
 * id, cold start and function name.
 */
export type RequestLogFields = {
  route: string;
  status: number;
  latency_ms: number;
  company_id?: number;
};

/** The fields of a request's line; pure. */
export function requestLogFields(line: { routeKey: string; status: number; latencyMs: number; auth: AuthContext | undefined }): RequestLogFields {
  const authenticated = line.auth && line.auth.method !== 'none';
  return {
    route: line.routeKey,
    status: line.status,
    latency_ms: Math.round(line.latencyMs),
    ...(authenticated ? { company_id: line.auth!.companyId } : {}),
  };
}

export function requestLog(): MiddlewareObj<ApiEvent, ApiResponse, Error, AppContext> {
  // Keyed by the request: the local gateway runs several requests of a function at once.
  const startedAt = new WeakMap<object, number>();
  const write = (request: Request<ApiEvent, ApiResponse, Error, AppContext>) => {
    const started = startedAt.get(request);
    logger.info(
      'request',
      requestLogFields({
        routeKey: request.event.routeKey,
        status: request.response?.statusCode ?? 500,
        latencyMs: started === undefined ? 0 : performance.now() - started,
        auth: request.context.auth,
      }),
    );
  };
  return {
    before: (request) => {
      startedAt.set(request, performance.now());
    },
    after: write,
    onError: write,
  };
}
