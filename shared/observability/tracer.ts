import { Tracer } from '@aws-lambda-powertools/tracer';
import { runningInLambda, serviceName } from './runtime.js';

/**
 * X-Ray tracing of the AWS SDK clients (Powertools Tracer). Active only inside Lambda: Powertools
 * itself also needs AWS_EXECUTION_ENV and honours POWERTOOLS_TRACE_ENABLED=false, so `npm start`,
 * the tests and the CLIs never look for an X-Ray daemon. Outgoing HTTPS (webhook deliveries, the
 * carrier's API) is deliberately not captured: a customer's webhook URL may carry a secret in its
 * query string, and a trace would keep it.
 */
const tracer = new Tracer({ serviceName, enabled: runningInLambda(), captureHTTPsRequests: false });

/** The client, with each command recorded as a trace subsegment when tracing is on; as is otherwise. */
export function traced<Client>(client: Client): Client {
  return tracer.captureAWSv3Client(client);
}
