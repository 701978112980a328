import type { Tracer } from '@aws-lambda-powertools/tracer';
import { runningInLambda, serviceName } from './runtime.js';

/**
 * X-Ray tracing of the AWS SDK clients through the Powertools Tracer (issue 32; until then a
 * segment sender of our own): each command becomes a subsegment of the function's segment, sent
 * to the X-Ray daemon Lambda runs beside the function (active tracing), with the trace header
 * passed on to the service (aws-xray-sdk-core's captureAWSv3Client, which the Tracer wraps).
 *
 * The package comes from Powertools' published Lambda layer, not the bundle (bundling-options.ts,
 * `powertoolsLayer`), and is loaded when the first invocation starts (`startTracing`, first in
 * every function's Middy stack, shared/observability/middleware.ts), not at module load: loading
 * aws-xray-sdk-core is most of what it costs, and would otherwise put every function's init well
 * over the cold-start goal (docs/benchmarks.md). Clients made before then are captured then.
 *
 * Only inside Lambda, and the Tracer's own settings apply (POWERTOOLS_TRACE_ENABLED=false turns
 * it off), so `npm start`, the tests and the CLIs never load it or look for a daemon. Outgoing
 * HTTP(S) is deliberately not captured (`captureHTTPsRequests: false`): a customer's webhook URL
 * may carry a secret in its query string, and a trace would keep it.
 */

/** The name aws-xray-sdk-core gives the middleware it adds to a captured client. */
export const TRACING_MIDDLEWARE = 'XRaySDKInstrumentation';

const inLambda = runningInLambda();
let tracer: Tracer | undefined;
let starting: Promise<Tracer | undefined> | undefined;
/** Clients made before the Tracer was loaded, captured when it is. */
const waiting: unknown[] = [];

/** The client, with each command recorded as a trace subsegment when tracing is on; as is otherwise. */
export function traced<C>(client: C): C {
  if (!inLambda) return client;
  if (tracer) return tracer.captureAWSv3Client(client);
  waiting.push(client);
  return client;
}

/**
 * Loads the Tracer (once per container) and captures the clients made so far; resolves with it,
 * or undefined outside Lambda. A Tracer that fails to load (the layer missing) leaves the
 * function untraced, with an error logged, rather than failing its requests.
 */
export function startTracing(): Promise<Tracer | undefined> {
  if (!inLambda) return Promise.resolve(undefined);
  starting ??= import('@aws-lambda-powertools/tracer').then(
    ({ Tracer: PowertoolsTracer }) => {
      tracer = new PowertoolsTracer({ serviceName, captureHTTPsRequests: false });
      for (const client of waiting.splice(0)) tracer.captureAWSv3Client(client);
      return tracer;
    },
    async (error: unknown) => {
      // The logger is imported here, not at module load: the database client imports this module,
      // and a logger made that early would miss a LOG_LEVEL set later (as the tests set it per file).
      const { logger } = await import('../logger.js');
      logger.error('the Powertools Tracer could not be loaded: this function is not traced', { error });
      return undefined;
    },
  );
  return starting;
}
