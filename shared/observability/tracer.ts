import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import type { BuildMiddleware, MetadataBearer, MiddlewareStack } from '@smithy/types';
import { runningInLambda } from './runtime.js';

/**
 * X-Ray tracing of the AWS SDK clients: each command becomes a subsegment of the function's
 * segment, sent to the X-Ray daemon Lambda runs beside the function (active tracing), with the
 * trace header passed on to the service, as aws-xray-sdk-core's captureAWSv3Client does (its
 * `aws3_p` patcher is the model: same names, fields and flags). Written here rather than taken
 * from the Powertools Tracer because that loads all of aws-xray-sdk-core (with semver and
 * cls-hooked): ~115 KB and ~20 ms of every function's cold start, for this one middleware
 * (docs/benchmarks.md, "Lambda bundles").
 *
 * Active only inside Lambda, and off with POWERTOOLS_TRACE_ENABLED=false (the setting the
 * Powertools Tracer honoured), so `npm start`, the tests and the CLIs never look for a daemon.
 * Outgoing HTTPS (webhook deliveries, the carrier's API) is deliberately not captured: a
 * customer's webhook URL may carry a secret in its query string, and a trace would keep it.
 */
export const TRACING_MIDDLEWARE = 'XRayTracing';

export interface TraceHeader {
  root: string;
  /** The function segment's id; absent in pass-through mode (tracing not active: nothing is sent). */
  parent?: string;
  sampled: boolean;
}

/** Reads `Root=1-…;Parent=…;Sampled=1` (the `_X_AMZN_TRACE_ID` Lambda sets per invocation). */
export function parseTraceHeader(header: string | undefined): TraceHeader | undefined {
  if (!header) return undefined;
  const fields = new Map<string, string>();
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) fields.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  const root = fields.get('Root');
  if (!root || !/^1-[0-9a-f]{8}-[0-9a-f]{24}$/.test(root)) return undefined;
  const parent = fields.get('Parent');
  return { root, parent: parent && /^[0-9a-f]{16}$/.test(parent) ? parent : undefined, sampled: fields.get('Sampled') === '1' };
}

/** The daemon's UDP address from AWS_XRAY_DAEMON_ADDRESS (`host:port`, or `udp:host:port tcp:host:port`). */
export function daemonAddress(setting: string | undefined): { host: string; port: number } {
  const udp = (setting ?? '').split(' ').map((part) => part.trim()).find((part) => part && !part.startsWith('tcp:')) ?? '';
  const [host, port] = udp.replace(/^udp:/, '').split(':');
  return host && Number(port) > 0 ? { host, port: Number(port) } : { host: '127.0.0.1', port: 2000 };
}

/** The request parameter each service's subsegment names, as aws-xray-sdk-core's whitelist does for these. */
const CAPTURED_PARAMS: Record<string, Record<string, string>> = {
  DynamoDB: { TableName: 'table_name' },
  SQS: { QueueUrl: 'queue_url' },
  S3: { Bucket: 'bucket_name', Key: 'key' },
  SESv2: {},
  KMS: { KeyId: 'key_id' },
  'Secrets Manager': { SecretId: 'secret_id' },
};

/** The error names the SDK classifies as throttling (@smithy/service-error-classification's list). */
const THROTTLING_ERRORS = new Set([
  'BandwidthLimitExceeded', 'EC2ThrottledException', 'LimitExceededException', 'PriorRequestNotComplete', 'ProvisionedThroughputExceededException',
  'RequestLimitExceeded', 'RequestThrottled', 'RequestThrottledException', 'SlowDown', 'ThrottledException', 'Throttling', 'ThrottlingException',
  'TooManyRequestsException', 'TransactionInProgressException',
]);

export interface CommandOutcome {
  service: string;
  operation: string;
  region: string | undefined;
  input: Record<string, unknown>;
  startTime: number;
  endTime: number;
  /** From the output's or the error's `$metadata`. */
  metadata?: { httpStatusCode?: number; requestId?: string; extendedRequestId?: string; attempts?: number };
  error?: { name?: string; message?: string; $retryable?: { throttling?: boolean } };
}

/** The subsegment document of one command (pure; the fields aws-xray-sdk-core's captureAWSv3Client sends). */
export function subsegmentDocument(trace: { root: string; parent: string }, id: string, outcome: CommandOutcome): Record<string, unknown> {
  const { metadata = {}, error } = outcome;
  const aws: Record<string, unknown> = { operation: outcome.operation, retries: Math.max(0, (metadata.attempts ?? 1) - 1) };
  if (outcome.region) aws.region = outcome.region;
  if (metadata.requestId) aws.request_id = metadata.requestId;
  if (metadata.extendedRequestId && outcome.service === 'S3') aws.id_2 = metadata.extendedRequestId;
  for (const [param, field] of Object.entries(CAPTURED_PARAMS[outcome.service] ?? {})) {
    if (typeof outcome.input[param] === 'string') aws[field] = outcome.input[param];
  }
  const status = metadata.httpStatusCode;
  const document: Record<string, unknown> = {
    id,
    name: outcome.service,
    start_time: outcome.startTime,
    end_time: outcome.endTime,
    type: 'subsegment',
    trace_id: trace.root,
    parent_id: trace.parent,
    namespace: 'aws',
    aws,
  };
  if (status) document.http = { response: { status } };
  if (error?.$retryable?.throttling || THROTTLING_ERRORS.has(String(error?.name)) || status === 429) document.throttle = true;
  if (status && status >= 500) document.fault = true;
  else if (status && status >= 400) document.error = true;
  else if (error) document.fault = true;
  if (error) document.cause = { exceptions: [{ id: randomBytes(8).toString('hex'), message: String(error.message ?? ''), type: String(error.name ?? 'Error'), remote: Boolean(status) }] };
  return document;
}

const PROTOCOL_HEADER = '{"format":"json","version":1}\n';
let socket: Socket | undefined;

/** Fire and forget: a lost subsegment must never fail or slow a request. */
function send(document: Record<string, unknown>): void {
  try {
    const { host, port } = daemonAddress(process.env.AWS_XRAY_DAEMON_ADDRESS);
    socket ??= createSocket('udp4').unref();
    socket.send(PROTOCOL_HEADER + JSON.stringify(document), port, host, () => undefined);
  } catch {
    // Tracing is best effort.
  }
}

/** The invocation's trace header: Lambda's invoke store where the runtime has one, else the environment. */
function currentTraceHeader(): string | undefined {
  const store = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId?: () => string | undefined } } }).awslambda?.InvokeStore;
  return store?.getXRayTraceId?.() ?? process.env._X_AMZN_TRACE_ID;
}

const seconds = () => Date.now() / 1000;

function tracingMiddleware(region: () => Promise<string> | string): BuildMiddleware<object, MetadataBearer> {
  return (next, context) => async (args) => {
    const trace = parseTraceHeader(currentTraceHeader());
    if (!trace?.parent) return next(args);
    const id = randomBytes(8).toString('hex');
    const request = args.request as { headers?: Record<string, string> } | undefined;
    if (request?.headers) request.headers['X-Amzn-Trace-Id'] = `Root=${trace.root};Parent=${id};Sampled=${trace.sampled ? 1 : 0}`;
    if (!trace.sampled) return next(args);
    const base = {
      service: (context.clientName ?? 'AWSClient').replace(/Client$/, ''),
      operation: (context.commandName ?? 'UnknownCommand').replace(/Command$/, ''),
      input: (args.input ?? {}) as Record<string, unknown>,
      startTime: seconds(),
    };
    const emit = async (metadata: CommandOutcome['metadata'], error?: CommandOutcome['error']) => {
      const resolved = await Promise.resolve(region()).catch(() => undefined);
      send(subsegmentDocument({ root: trace.root, parent: trace.parent! }, id, { ...base, region: resolved, endTime: seconds(), metadata, error }));
    };
    try {
      const result = await next(args);
      await emit(result.output?.$metadata);
      return result;
    } catch (error) {
      await emit((error as MetadataBearer).$metadata, error as CommandOutcome['error']);
      throw error;
    }
  };
}

const enabled = runningInLambda() && process.env.POWERTOOLS_TRACE_ENABLED?.toLowerCase() !== 'false';

/** The client, with each command recorded as a trace subsegment when tracing is on; as is otherwise. */
export function traced<C>(client: C): C {
  if (!enabled) return client;
  const sdkClient = client as unknown as { middlewareStack: MiddlewareStack<object, MetadataBearer>; config: { region?: () => Promise<string> | string } };
  sdkClient.middlewareStack.remove(TRACING_MIDDLEWARE);
  sdkClient.middlewareStack.add(tracingMiddleware(sdkClient.config.region ?? (() => '')), { step: 'build', name: TRACING_MIDDLEWARE });
  return client;
}
