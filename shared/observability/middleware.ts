import type { MiddlewareObj } from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logger } from '../logger.js';
import { publishMetrics } from './metrics.js';

/**
 * What every function's Middy stack starts with: the Lambda context on each log line (request
 * id, cold start, function name), and this invocation's business metrics published at its end,
 * whether it succeeded or failed.
 */
export function functionObservability<Event, Result>(): Array<MiddlewareObj<Event, Result>> {
  const publish = () => publishMetrics();
  return [injectLambdaContext(logger) as MiddlewareObj<Event, Result>, { after: publish, onError: publish }];
}
