import { Tracer } from '@aws-lambda-powertools/tracer';
import { runningInLambda, serviceName } from './runtime.js';

/**
 * X-Ray tracing of the AWS SDK clients through the Powertools Tracer (issue 32; until then a
 * segment sender of our own): each command becomes a subsegment of the function's segment, sent
 * to the X-Ray daemon Lambda runs beside the function (active tracing), with the trace header
 * passed on to the service (aws-xray-sdk-core's captureAWSv3Client, which the Tracer wraps).
 *
 * The package comes from Powertools' published Lambda layer, not the bundle (bundling-options.ts,
 * `powertoolsLayer`; docs/decisions.md says why, with the figures).
 *
 * On only inside Lambda, and off with POWERTOOLS_TRACE_ENABLED=false (the Tracer's own setting),
 * so `npm start`, the tests and the CLIs never look for a daemon. Outgoing HTTP(S) is deliberately
 * not captured (`captureHTTPsRequests: false`): a customer's webhook URL may carry a secret in its
 * query string, and a trace would keep it.
 */
export const tracer = new Tracer({ serviceName, enabled: runningInLambda() ? undefined : false, captureHTTPsRequests: false });

/** The name aws-xray-sdk-core gives the middleware it adds to a captured client. */
export const TRACING_MIDDLEWARE = 'XRaySDKInstrumentation';

/** The client, with each command recorded as a trace subsegment when tracing is on; as is otherwise. */
export function traced<C>(client: C): C {
  return tracer.isTracingEnabled() ? tracer.captureAWSv3Client(client) : client;
}
