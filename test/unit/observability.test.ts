import middy from '@middy/core';
import { createSocket } from 'node:dgram';
import { Readable } from 'node:stream';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { HttpRequest } from '@smithy/types';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { requestLogFields } from '../../shared/http/middleware/request-log.js';
import { logLevelFromEnv } from '../../shared/logger.js';
import { METRIC } from '../../shared/observability/metric-names.js';
import { countMetric, powertoolsMetrics, publishMetrics, setMetricsRecorder } from '../../shared/observability/metrics.js';
import { functionObservability } from '../../shared/observability/middleware.js';
import { TRACING_MIDDLEWARE } from '../../shared/observability/tracer.js';
import { RecordingMetrics } from '../fixtures/metrics.js';

/** What `run` writes to stdout (where Powertools Metrics writes EMF). */
function stdoutOf(run: () => void): string {
  const original = process.stdout.write;
  let written = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    written += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  try {
    run();
  } finally {
    process.stdout.write = original;
  }
  return written;
}

describe('log level from the environment', () => {
  it('takes POWERTOOLS_LOG_LEVEL over LOG_LEVEL, in any case, and pino\'s fatal as CRITICAL', () => {
    expect(logLevelFromEnv({ LOG_LEVEL: 'silent' })).toBe('SILENT');
    expect(logLevelFromEnv({ LOG_LEVEL: 'warn' })).toBe('WARN');
    expect(logLevelFromEnv({ LOG_LEVEL: 'fatal' })).toBe('CRITICAL');
    expect(logLevelFromEnv({ POWERTOOLS_LOG_LEVEL: 'debug', LOG_LEVEL: 'silent' })).toBe('DEBUG');
  });

  it('is INFO when nothing or nothing known is set', () => {
    expect(logLevelFromEnv({})).toBe('INFO');
    expect(logLevelFromEnv({ LOG_LEVEL: 'loud' })).toBe('INFO');
  });
});

describe('request log fields', () => {
  it('carry route, status, whole milliseconds and the company of credentials that named one', () => {
    expect(requestLogFields({ routeKey: 'GET /api/v1/calls/{id}', status: 200, latencyMs: 12.6, auth: { companyId: 7, userId: 3, method: 'auth_token' } })).toEqual({
      route: 'GET /api/v1/calls/{id}',
      status: 200,
      latency_ms: 13,
      company_id: 7,
    });
  });

  it('leave the company out when nobody authenticated (carrier, partners, refused credentials)', () => {
    expect(requestLogFields({ routeKey: 'POST /api/v1/voice/twilio/incoming', status: 200, latencyMs: 3, auth: { companyId: 0, method: 'none' } })).toEqual({
      route: 'POST /api/v1/voice/twilio/incoming',
      status: 200,
      latency_ms: 3,
    });
    expect(requestLogFields({ routeKey: 'GET /api/v1/offers', status: 401, latencyMs: 1, auth: undefined })).not.toHaveProperty('company_id');
  });
});

describe('business metrics through Powertools', () => {
  it('are one EMF line per publish: namespace, the service dimension only, counts summed per name', () => {
    const metrics = powertoolsMetrics({ namespace: 'CallTracking', serviceName: 'call-tracking' });
    metrics.count(METRIC.callsStarted, 1);
    metrics.count(METRIC.callsStarted, 1);
    metrics.count(METRIC.staleCallsEnded, 0);
    const lines = stdoutOf(() => metrics.publish()).trim().split('\n');
    expect(lines).toHaveLength(1);
    const emf = JSON.parse(lines[0]!) as Record<string, any>;
    expect(emf._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'CallTracking',
        Dimensions: [['service']],
        Metrics: expect.arrayContaining([
          { Name: 'CallsStarted', Unit: 'Count' },
          { Name: 'StaleCallsEnded', Unit: 'Count' },
        ]),
      },
    ]);
    expect(emf.service).toBe('call-tracking');
    expect([emf.CallsStarted].flat().reduce((sum: number, value: number) => sum + value, 0)).toBe(2);
    expect(emf.StaleCallsEnded).toBe(0);
  });

  it('publish nothing when nothing was counted, and forget what was published', () => {
    const metrics = powertoolsMetrics({ namespace: 'CallTracking', serviceName: 'call-tracking' });
    expect(stdoutOf(() => metrics.publish())).toBe('');
    metrics.count(METRIC.pings, 1);
    expect(stdoutOf(() => metrics.publish())).toContain('"Pings"');
    expect(stdoutOf(() => metrics.publish())).toBe('');
  });

  it('print nothing outside Lambda (tests, npm start): the configured recorder is silent', () => {
    setMetricsRecorder();
    expect(process.env.AWS_LAMBDA_FUNCTION_NAME).toBeUndefined();
    expect(
      stdoutOf(() => {
        countMetric(METRIC.callsStarted);
        publishMetrics();
      }),
    ).toBe('');
  });
});

describe('the functions\' observability middleware', () => {
  it('publishes what the invocation counted when it succeeds and when it fails', async () => {
    const recorder = new RecordingMetrics();
    setMetricsRecorder(recorder);
    try {
      const handler = middy<{ fail: boolean }, string>()
        .use(functionObservability())
        .handler(async (event) => {
          countMetric(METRIC.deliveriesSucceeded, 2);
          if (event.fail) throw new Error('the queue is gone');
          return 'done';
        });
      await expect(handler({ fail: false }, {} as never)).resolves.toBe('done');
      expect(recorder.published()).toEqual({ DeliveriesSucceeded: 2 });
      await expect(handler({ fail: true }, {} as never)).rejects.toThrow('the queue is gone');
      expect(recorder.published()).toEqual({ DeliveriesSucceeded: 4 });
    } finally {
      setMetricsRecorder();
    }
  });
});

describe('tracing of the AWS SDK clients', () => {
  const tracing = (client: { middlewareStack: { identify(): string[] } }) => client.middlewareStack.identify().filter((name) => name.startsWith(TRACING_MIDDLEWARE));
  const LAMBDA = { AWS_LAMBDA_FUNCTION_NAME: 'calls', AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x' };
  const ROOT = '1-5759e988-bd862e3fe1be46a994272793';
  const PARENT = '53995c3f42cd8ad8';

  /** The tracer module as a function with this environment loads it (it reads the environment at init). */
  async function tracerIn(env: Record<string, string>) {
    vi.resetModules();
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    return import('../../shared/observability/tracer.js');
  }

  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  /** A DynamoDB client whose requests get this response, recording the headers each request went out with. */
  function clientAnswering(traced: <C>(client: C) => C, statusCode: number, body: string) {
    const sent: Record<string, string>[] = [];
    const client = new DynamoDBClient({
      region: 'eu-west-1',
      maxAttempts: 1,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      requestHandler: {
        handle: async (request: HttpRequest) => {
          sent.push({ ...request.headers });
          return { response: { statusCode, headers: { 'x-amzn-requestid': 'REQ1', 'content-type': 'application/x-amz-json-1.0' }, body: Readable.from([Buffer.from(body)]) } };
        },
      },
    });
    return { client: traced(client), sent };
  }

  /** A UDP socket standing in for the X-Ray daemon; `next()` resolves with the next document it receives. */
  async function fakeDaemon() {
    const socket = createSocket('udp4');
    const received: string[] = [];
    const waiting: ((text: string) => void)[] = [];
    socket.on('message', (message) => {
      const text = message.toString('utf8');
      const waiter = waiting.shift();
      if (waiter) waiter(text);
      else received.push(text);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return {
      address: `127.0.0.1:${socket.address().port}`,
      next: () => new Promise<string>((resolve) => (received.length ? resolve(received.shift()!) : waiting.push(resolve))),
      close: () => socket.close(),
    };
  }

  it('leaves clients untouched outside Lambda, so tests and npm start never look for an X-Ray daemon', async () => {
    const { traced } = await import('../../shared/observability/tracer.js');
    expect(tracing(traced(new SQSClient({ region: 'us-east-1' })))).toEqual([]);
  });

  it('records each command of a client inside Lambda, unless POWERTOOLS_TRACE_ENABLED=false', async () => {
    expect(tracing((await tracerIn(LAMBDA)).traced(new SQSClient({ region: 'us-east-1' })))).toHaveLength(1);
    expect(tracing((await tracerIn({ ...LAMBDA, POWERTOOLS_TRACE_ENABLED: 'false' })).traced(new SQSClient({ region: 'us-east-1' })))).toEqual([]);
  });

  it('sends each command as a subsegment of the function segment to the daemon, and passes the trace on to the service', async () => {
    const daemon = await fakeDaemon();
    try {
      const { traced } = await tracerIn({ ...LAMBDA, AWS_XRAY_DAEMON_ADDRESS: daemon.address, _X_AMZN_TRACE_ID: `Root=${ROOT};Parent=${PARENT};Sampled=1` });
      const { client, sent } = clientAnswering(traced, 200, '{}');
      await client.send(new GetItemCommand({ TableName: 'calls-table', Key: { pk: { S: 'a' } } }));
      const [header, body] = (await daemon.next()).split('\n');
      expect(JSON.parse(header!)).toEqual({ format: 'json', version: 1 });
      const document = JSON.parse(body!);
      expect(document).toMatchObject({
        type: 'subsegment',
        name: 'DynamoDB',
        namespace: 'aws',
        trace_id: ROOT,
        parent_id: PARENT,
        aws: { operation: 'GetItem', region: 'eu-west-1', request_id: 'REQ1', table_name: 'calls-table', retries: 0 },
        http: { response: { status: 200 } },
      });
      expect(document.id).toMatch(/^[0-9a-f]{16}$/);
      expect(document.end_time).toBeGreaterThanOrEqual(document.start_time);
      expect(document).not.toHaveProperty('fault');
      expect(sent[0]!['X-Amzn-Trace-Id']).toBe(`Root=${ROOT};Parent=${document.id};Sampled=1`);
    } finally {
      daemon.close();
    }
  });

  it('flags a throttled command and names its error, and rethrows it', async () => {
    const daemon = await fakeDaemon();
    try {
      const { traced } = await tracerIn({ ...LAMBDA, AWS_XRAY_DAEMON_ADDRESS: `udp:${daemon.address} tcp:127.0.0.1:1`, _X_AMZN_TRACE_ID: `Root=${ROOT};Parent=${PARENT};Sampled=1` });
      const { client } = clientAnswering(traced, 400, JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', message: 'slow down' }));
      await expect(client.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'a' } } }))).rejects.toThrow('slow down');
      const document = JSON.parse((await daemon.next()).split('\n')[1]!);
      expect(document).toMatchObject({ name: 'DynamoDB', throttle: true, error: true, http: { response: { status: 400 } } });
      expect(document).not.toHaveProperty('fault');
      expect(document.cause.exceptions[0]).toMatchObject({ type: 'ProvisionedThroughputExceededException', message: 'slow down', remote: true });
    } finally {
      daemon.close();
    }
  });

  it('sends nothing for an unsampled invocation but still passes its trace on', async () => {
    const daemon = await fakeDaemon();
    try {
      const unsampled = `Root=${ROOT};Parent=${PARENT};Sampled=0`;
      const { traced } = await tracerIn({ ...LAMBDA, AWS_XRAY_DAEMON_ADDRESS: daemon.address, _X_AMZN_TRACE_ID: unsampled });
      const { client, sent } = clientAnswering(traced, 200, '{}');
      await client.send(new GetItemCommand({ TableName: 'unsampled', Key: { pk: { S: 'a' } } }));
      expect(sent[0]!['X-Amzn-Trace-Id']).toMatch(new RegExp(`^Root=${ROOT};Parent=[0-9a-f]{16};Sampled=0$`));
      // The next invocation is sampled: the first document the daemon gets is its command's.
      vi.stubEnv('_X_AMZN_TRACE_ID', `Root=${ROOT};Parent=${PARENT};Sampled=1`);
      await client.send(new GetItemCommand({ TableName: 'sampled', Key: { pk: { S: 'a' } } }));
      expect(JSON.parse((await daemon.next()).split('\n')[1]!).aws.table_name).toBe('sampled');
    } finally {
      daemon.close();
    }
  });

  it('reads trace headers and daemon addresses as the X-Ray SDK does', async () => {
    const { parseTraceHeader, daemonAddress } = await import('../../shared/observability/tracer.js');
    expect(parseTraceHeader(`Root=${ROOT};Parent=${PARENT};Sampled=1;Lineage=a:1`)).toEqual({ root: ROOT, parent: PARENT, sampled: true });
    // Pass-through (tracing not active on the function): a root only, nothing to attach to.
    expect(parseTraceHeader(`Root=${ROOT}`)).toEqual({ root: ROOT, parent: undefined, sampled: false });
    expect(parseTraceHeader('Root=nonsense;Parent=1;Sampled=1')).toBeUndefined();
    expect(parseTraceHeader(undefined)).toBeUndefined();
    expect(daemonAddress('169.254.79.129:2000')).toEqual({ host: '169.254.79.129', port: 2000 });
    expect(daemonAddress('tcp:10.0.0.1:2001 udp:10.0.0.2:2002')).toEqual({ host: '10.0.0.2', port: 2002 });
    expect(daemonAddress(undefined)).toEqual({ host: '127.0.0.1', port: 2000 });
  });
});
