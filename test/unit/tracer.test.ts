import { createSocket } from 'node:dgram';
import { Readable } from 'node:stream';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { HttpRequest } from '@smithy/types';
// The X-Ray SDK's segment class (the Tracer's own dependency): the invocation's segment, as Lambda's facade gives it.
import { Segment } from 'aws-xray-sdk-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * Tracing of the AWS SDK clients through the Powertools Tracer (shared/observability/tracer.ts).
 * Inside Lambda the X-Ray SDK under it makes a segment per invocation from _X_AMZN_TRACE_ID; it
 * decides that it runs in Lambda once, when first loaded (LAMBDA_TASK_ROOT), which the test setup
 * has done before this file runs. So each test gives the invocation's segment through the
 * Tracer's own hooks (the provider's context namespace and `setSegment`), as the X-Ray SDK's
 * Lambda mode would, and reads what the daemon gets when the segment closes. A UDP socket stands
 * in for the X-Ray daemon; the tests wait for the documents it receives, never for a time.
 */

const LAMBDA = { AWS_LAMBDA_FUNCTION_NAME: 'calls', AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x' };
const ROOT = '1-5759e988-bd862e3fe1be46a994272793';
const PARENT = '53995c3f42cd8ad8';

/** The tracer module as a function with this environment loads it, tracing started as the first invocation starts it (the Tracer reads the environment when created). */
async function tracerIn(env: Record<string, string>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const module = await import('../../shared/observability/tracer.js');
  const tracer = (await module.startTracing())!;
  tracer.provider.setDaemonAddress(daemon.address);
  return { traced: module.traced, tracer };
}

/** The names of the tracing middleware on a client's stack. */
async function tracing(client: { middlewareStack: { identify(): string[] } }) {
  const { TRACING_MIDDLEWARE } = await import('../../shared/observability/tracer.js');
  return client.middlewareStack.identify().filter((name) => name.startsWith(TRACING_MIDDLEWARE));
}

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

type TracerModule = Awaited<ReturnType<typeof tracerIn>>;

/** Runs `work` as an invocation with this trace header would (segment `PARENT` of trace `ROOT`), then closes the segment. */
async function inInvocation(module: TracerModule, sampled: boolean, work: () => Promise<unknown>) {
  const segment = new Segment('calls', ROOT, PARENT);
  if (!sampled) segment.notTraced = true;
  const namespace = module.tracer.provider.getNamespace();
  try {
    await namespace.runPromise(async () => {
      module.tracer.setSegment(segment);
      await work();
    });
  } finally {
    segment.close();
  }
}

/** The document of the next datagram (a JSON header line, then the segment). */
async function nextDocument() {
  const [header, body] = (await daemon.next()).split('\n');
  expect(JSON.parse(header!)).toEqual({ format: 'json', version: 1 });
  return JSON.parse(body!);
}

let daemon: Awaited<ReturnType<typeof fakeDaemon>>;
beforeAll(async () => {
  daemon = await fakeDaemon();
});
afterAll(() => daemon.close());
afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('tracing of the AWS SDK clients', () => {
  it('leaves clients untouched outside Lambda, so tests and npm start never load the Tracer or look for an X-Ray daemon', async () => {
    vi.resetModules();
    const { traced, startTracing } = await import('../../shared/observability/tracer.js');
    const client = traced(new SQSClient({ region: 'us-east-1' }));
    expect(await startTracing()).toBeUndefined();
    expect(await tracing(client)).toEqual([]);
  });

  it('loads the Tracer when the first invocation starts, not at module load, and captures the clients made before then', async () => {
    vi.resetModules();
    for (const [name, value] of Object.entries(LAMBDA)) vi.stubEnv(name, value);
    const { traced, startTracing } = await import('../../shared/observability/tracer.js');
    const early = traced(new SQSClient({ region: 'us-east-1' }));
    expect(await tracing(early)).toEqual([]);
    const { functionObservability } = await import('../../shared/observability/middleware.js');
    await functionObservability()[0]!.before!({} as never);
    expect(await tracing(early)).toHaveLength(1);
    expect(await startTracing()).toBe(await startTracing());
  });

  it('records each command of a client inside Lambda, unless POWERTOOLS_TRACE_ENABLED=false', async () => {
    expect(await tracing((await tracerIn(LAMBDA)).traced(new SQSClient({ region: 'us-east-1' })))).toHaveLength(1);
    expect(await tracing((await tracerIn({ ...LAMBDA, POWERTOOLS_TRACE_ENABLED: 'false' })).traced(new SQSClient({ region: 'us-east-1' })))).toEqual([]);
  });

  it('sends each command as a subsegment of the function segment to the daemon, and passes the trace on to the service', async () => {
    const module = await tracerIn(LAMBDA);
    const { client, sent } = clientAnswering(module.traced, 200, '{}');
    await inInvocation(module, true, () => client.send(new GetItemCommand({ TableName: 'calls-table', Key: { pk: { S: 'a' } } })));
    const segment = await nextDocument();
    expect(segment).toMatchObject({ trace_id: ROOT, parent_id: PARENT });
    expect(segment.subsegments).toHaveLength(1);
    const document = segment.subsegments[0];
    expect(document).toMatchObject({
      name: 'DynamoDB',
      namespace: 'aws',
      aws: { operation: 'GetItem', region: 'eu-west-1', request_id: 'REQ1', table_name: 'calls-table' },
      http: { response: { status: 200 } },
    });
    expect(document.id).toMatch(/^[0-9a-f]{16}$/);
    expect(document.end_time).toBeGreaterThanOrEqual(document.start_time);
    expect(document).not.toHaveProperty('fault');
    expect(sent[0]!['X-Amzn-Trace-Id']).toBe(`Root=${ROOT};Parent=${document.id};Sampled=1`);
  });

  it('flags a throttled command and names its error, and rethrows it', async () => {
    const module = await tracerIn(LAMBDA);
    const { client } = clientAnswering(module.traced, 400, JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', message: 'slow down' }));
    await inInvocation(module, true, () => expect(client.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'a' } } }))).rejects.toThrow('slow down'));
    const document = (await nextDocument()).subsegments[0];
    // (The X-Ray SDK also sets `fault` on an error the SDK client throws: its choice, no longer ours.)
    expect(document).toMatchObject({ name: 'DynamoDB', throttle: true, error: true, http: { response: { status: 400 } } });
    expect(document.cause.exceptions[0]).toMatchObject({ type: 'ProvisionedThroughputExceededException', message: 'slow down', remote: true });
  });

  it('sends nothing for an unsampled invocation but still passes its trace on', async () => {
    const module = await tracerIn(LAMBDA);
    const { client, sent } = clientAnswering(module.traced, 200, '{}');
    await inInvocation(module, false, () => client.send(new GetItemCommand({ TableName: 'unsampled', Key: { pk: { S: 'a' } } })));
    expect(sent[0]!['X-Amzn-Trace-Id']).toMatch(new RegExp(`^Root=${ROOT};Parent=[0-9a-f]{16};Sampled=0$`));
    // The next invocation is sampled: the first document the daemon gets is its command's.
    await inInvocation(module, true, () => client.send(new GetItemCommand({ TableName: 'sampled', Key: { pk: { S: 'a' } } })));
    expect((await nextDocument()).subsegments[0].aws.table_name).toBe('sampled');
  });
});
