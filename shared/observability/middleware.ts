import type { MiddlewareObj } from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logger } from '../logger.js';
import { publishMetrics } from './metrics.js';
import { startTracing } from './tracer.js';
import { mapStacksThroughBundleMap } from './source-mapped-stacks.js';

// In a Lambda bundle (import.meta.url is the bundle's), stack traces through its map, read on first use.
mapStacksThroughBundleMap(import.meta.url);

/**
 * What every function's Middy stack starts with: tracing started (the Powertools Tracer loaded on
 * the first invocation and the AWS SDK clients captured, shared/observability/tracer.ts), the
 * Lambda context on each log line (request id, cold start, function name), and this invocation's
 * business metrics published at its end, whether it succeeded or failed.
 */
export function functionObservability<Event, Result>(): Array<MiddlewareObj<Event, Result>> {
  const publish = () => publishMetrics();
  return [{ before: async () => void (await startTracing()) }, injectLambdaContext(logger) as MiddlewareObj<Event, Result>, { after: publish, onError: publish }];
}
