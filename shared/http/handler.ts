import middy from '@middy/core';
import { loadQueryParser } from './params.js';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { clock } from '../adapters/clock.js';
import { functionObservability } from '../observability/middleware.js';
import { listEnvelope, recordEnvelope } from './envelope.js';
import { assertResponseWithinBudget } from './response-budget.js';
import { requestUrl } from './request-url.js';
import { authenticate, type CarrierSignatureCheck } from './middleware/authenticate.js';
import { errorHandler } from './middleware/error-handler.js';
import { parseParams, rawBytesOf } from './middleware/parse-params.js';
import { requestLog } from './middleware/request-log.js';
import { resolveRoute } from './middleware/resolve-route.js';
import { jsonResponse } from './middleware/responses.js';
import type { ApiEvent, ApiResponse, AppContext, Operation, OperationResult } from './request.js';
import type { RouteDefinition } from './route-definition.js';
import type { RouteGroup } from './route-groups.js';

/** The operations a route group's function implements, keyed by the route table's `operation`. */
export type OperationTable = Record<string, Operation>;

function toResponse(result: OperationResult): ApiResponse {
  switch (result.kind) {
    case 'record':
      return jsonResponse(200, recordEnvelope(result.root, result.record, result.associations));
    case 'list':
      return jsonResponse(200, listEnvelope(result.plural, result.records, result.metadata, result.bare, result.alsoAs));
    case 'raw':
      return result.response;
  }
}

/**
 * Builds a route group's Lambda handler: the shared Middy stack, then dispatch to the operation
 * the route table names. Every function of the service is made by this one factory. The request
 * line is written after the error handler has answered, so it carries the status sent.
 * `groupRoutes` is the group's own module (shared/http/routes/<group>.ts), not a slice of the whole
 * route table, so a function bundles its own routes only.
 */
export function createRouteGroupHandler(group: RouteGroup, groupRoutes: readonly RouteDefinition[], operations: OperationTable, options: { carrierSignature?: CarrierSignatureCheck } = {}) {
  for (const route of groupRoutes) {
    if (route.group !== group) throw new Error(`Route group ${group} is given ${route.operation}, a route of ${route.group}`);
    if (!operations[route.operation]) throw new Error(`Route group ${group} has no operation ${route.operation}`);
    if (route.auth === 'carrier' && !options.carrierSignature) throw new Error(`Route group ${group} has carrier routes but no carrierSignature check`);
  }
  return middy<ApiEvent, ApiResponse, Error, AppContext>()
    .use(functionObservability<ApiEvent, ApiResponse>())
    .use(requestLog())
    .use(errorHandler())
    .use(httpHeaderNormalizer())
    // qs, loaded on the first request rather than at module load (params.ts).
    .use({ before: () => loadQueryParser() })
    .use(resolveRoute(groupRoutes))
    .use(authenticate(groupRoutes, options.carrierSignature))
    .use(parseParams())
    .handler(async (event, context) => {
      const { route, params, auth } = context;
      if (!route || !params || !auth) throw new Error('middleware did not prepare the request');
      const operation = operations[route.operation]!;
      const result = await operation({
        route,
        params,
        pathParams: event.pathParameters ?? {},
        auth,
        requestId: context.awsRequestId,
        now: clock().now(),
        url: requestUrl(event),
        headers: event.headers ?? {},
        ...(route.rawBody ? { body: rawBytesOf(event, route.rawBody.maxBytes) } : {}),
      });
      const response = toResponse(result);
      assertResponseWithinBudget(response.body);
      return response;
    });
}
