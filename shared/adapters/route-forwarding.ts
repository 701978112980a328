import { traced } from '../observability/tracer.js';
import type { RouteForwardingPort } from '../ports/route-forwarding.js';
import { LambdaRouteForwarding } from './aws/lambda-route-forwarding.js';

/**
 * The fallback function's forwarding of loosely written paths (shared/ports/route-forwarding.ts):
 * to the functions ROUTE_FUNCTIONS names (a JSON object, route group to function name, set by the
 * stack), else none (the local gateway, tests): such a path is then answered 404 like any other
 * that reaches `$default`.
 */
export function createRouteForwarding(env: NodeJS.ProcessEnv = process.env): RouteForwardingPort | undefined {
  if (!env.ROUTE_FUNCTIONS) return undefined;
  const functions = JSON.parse(env.ROUTE_FUNCTIONS) as unknown;
  if (!functions || typeof functions !== 'object' || Array.isArray(functions) || Object.values(functions).some((name) => typeof name !== 'string')) {
    throw new Error('ROUTE_FUNCTIONS must be a JSON object of route group to function name');
  }
  let client: Promise<import('@aws-sdk/client-lambda').LambdaClient> | undefined;
  return new LambdaRouteForwarding(() => (client ??= import('@aws-sdk/client-lambda').then(({ LambdaClient }) => traced(new LambdaClient({})))), functions as Record<string, string>);
}
