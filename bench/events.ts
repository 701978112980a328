/**
 * Event delivery: how long a call's end takes to reach a subscriber, how many deliveries per
 * second the local path makes, and what one event asks of DynamoDB and of the queue.
 *
 *   npx tsx bench/events.ts        (or: npm run bench:events)
 *
 * Starts its own DynamoDB Local in memory (bench/support.ts), the local gateway, the local
 * delivery worker (the same handler the delivery Lambda runs, fed by the table queue) and a
 * receiver on 127.0.0.1 that verifies every delivery's signature with `standardwebhooks`.
 *
 * 1. End to end: 40 calls, one at a time, through the carrier webhooks (the call simulator), to a
 *    company with a `call_ended` subscription; per delivery, the time from the event's timestamp
 *    (the final carrier callback) to the signed request arriving. p50 and p99.
 * 2. Requests per event: 200 events each written with a change through the outbox, published,
 *    fanned out and delivered to one subscription. DynamoDB requests by command (the table queue's
 *    own items excluded: in AWS that is SQS) and queue requests by operation (what SQS would bill,
 *    Lambda's receives and deletes included); the service's global secondary index write units
 *    (bench/index-writes.ts; traced in this part only).
 * 3. Throughput: 1,000 events (5 subscriptions each for 200 events) queued at once, drained by the
 *    worker: deliveries per second.
 *
 * Times are this machine's and DynamoDB Local's; the request counts are exact.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { registerLocalAdapters, setLocalTestEnvironment } from '../test/setup/adapter-env.js';
import { percentile, printTable, runWithDynamoDbLocal } from './support.js';
import { traceIndexWritesOf } from './index-writes.js';

const CALLS = 40;
const EVENTS_COUNTED = 200;
const THROUGHPUT_EVENTS = 200;
const THROUGHPUT_SUBSCRIPTIONS = 5;

// Local adapters as in the tests (nothing leaves the machine), with this bench's own queue names.
setLocalTestEnvironment();
process.env.LOCAL_QUEUE_NAME = 'bench-events';
process.env.TWILIO_AUTH_TOKEN = 'bench-voice-token';
process.env.WEBHOOK_ALLOWED_CIDRS = '127.0.0.0/8';
process.env.LOG_LEVEL = 'silent';

await runWithDynamoDbLocal({ tableName: 'call-tracking-bench-events', timeoutSeconds: 600 }, run);

async function run(): Promise<void> {
  const { db, tableName } = await import('../shared/db/client.js');
  await registerLocalAdapters();
  const { ensureTable } = await import('../shared/local/table-setup.js');
  await ensureTable(db, tableName);
  const { addApiKey, ensureCompany } = await import('../shared/db/companies.js');
  const { createGateway, listen } = await import('../shared/local/gateway.js');
  const { simulateCall } = await import('../shared/local/call-simulator.js');
  const { eventQueue, setEventQueue } = await import('../shared/adapters/index.js');
  const { startDeliveryWorker } = await import('../shared/local/delivery-worker.js');
  const { stageMessages, publishStaged } = await import('../shared/events/outbox.js');
  const { TransactWriteCommand } = await import('@aws-sdk/lib-dynamodb');
  const { Webhook } = await import('standardwebhooks');
  type TableQueue = import('../shared/adapters/local/table-queue.js').TableQueue;
  type QueueMessage = import('../shared/ports/events.js').QueueMessage;

  // The queue port, counted per operation (what SQS would be asked), around the table queue.
  const queue = eventQueue() as TableQueue;
  const queueOps: Record<string, number> = {};
  const count = (name: string, n = 1) => (queueOps[name] = (queueOps[name] ?? 0) + n);
  const originalReceive = queue.receive.bind(queue);
  const originalDelete = queue.delete.bind(queue);
  const originalSend = queue.send.bind(queue);
  const originalRetry = queue.retryLater.bind(queue);
  queue.receive = async (max) => {
    const got = await originalReceive(max);
    if (got.length) count('ReceiveMessage');
    return got;
  };
  queue.delete = async (handle) => {
    count('DeleteMessage');
    return originalDelete(handle);
  };
  queue.send = async (messages, delay) => {
    count('SendMessageBatch', Math.ceil(messages.length / 10));
    return originalSend(messages, delay);
  };
  queue.retryLater = async (handle, seconds) => {
    count('ChangeMessageVisibility');
    return originalRetry(handle, seconds);
  };
  setEventQueue(queue);

  // DynamoDB requests and write units by command, the table queue's own (keys `Q#...`) apart:
  // in AWS those are SQS requests, counted above.
  type Tally = { requests: Record<string, number>; units: number };
  const tally = { service: { requests: {}, units: 0 } as Tally, queue: { requests: {}, units: 0 } as Tally };
  db.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const target = JSON.stringify(args.input).includes('"Q#') ? tally.queue : tally.service;
      const result = await next(args);
      const name = (context.commandName ?? 'unknown').replace('Command', '');
      target.requests[name] = (target.requests[name] ?? 0) + 1;
      const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }).ConsumedCapacity;
      target.units += ([] as { CapacityUnits?: number }[]).concat(consumed ?? []).reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
      return result;
    },
    { step: 'initialize', name: 'benchEventTally' },
  );
  // Index writes of the service's writes (the table queue's own apart), inside the tally; traced in
  // part 2 only (the tracer reads each item before and after: parts 1 and 3 are timed).
  const serviceIndex = { total: 0, reported: 0 };
  const indexTracer = await traceIndexWritesOf(db, (write) => {
    if (JSON.stringify(write.input).includes('"Q#')) return;
    serviceIndex.total += write.total;
    serviceIndex.reported += write.reported ?? 0;
  });
  indexTracer.enabled = false;
  const resetTally = () => {
    tally.service = { requests: {}, units: 0 };
    tally.queue = { requests: {}, units: 0 };
    serviceIndex.total = 0;
    serviceIndex.reported = 0;
  };

  const gateway = createGateway();
  const port = await listen(gateway, 0);
  const base = `http://127.0.0.1:${port}`;
  const arrivals: Array<{ at: number; body: string; headers: Record<string, string> }> = [];
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      arrivals.push({ at: Date.now(), body: Buffer.concat(chunks).toString('utf8'), headers: request.headers as Record<string, string> });
      response.end('ok');
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', () => done()));
  const receiverPort = (receiver.address() as { port: number }).port;
  const stopWorker = startDeliveryWorker(queue, { pollMs: 20, onError: (error) => console.error(error) });

  const company = await ensureCompany(`bench-${randomUUID()}`);
  const pair = await addApiKey(company.id);
  const authorization = `Basic ${Buffer.from(`${pair.publicKey}:${pair.privateKey}`).toString('base64')}`;
  const post = async (path: string, json: Record<string, unknown>) => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(json) });
    const body = (await response.json()) as Record<string, any>;
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
    return body;
  };
  const buyer = (await post('/api/v1/buyers', { name: 'B', number: '+12125551000' })).buyer;
  const offer = (await post('/api/v1/offers', { name: 'O', buyer_ids: [buyer.id] })).offer;
  const number = (await post('/api/v1/phone_numbers', { offer_id: offer.id })).phone_number.number as string;
  const subscription = (await post('/api/v1/subscriptions', { target_url: `http://127.0.0.1:${receiverPort}/ended`, event: 'call_ended' })).subscription;
  const verifier = new Webhook(subscription.secret as string);

  const waitFor = async (n: number) => {
    const deadline = Date.now() + 120_000;
    while (arrivals.length < n && Date.now() < deadline) await new Promise((done) => setTimeout(done, 5));
    if (arrivals.length < n) throw new Error(`only ${arrivals.length} of ${n} deliveries arrived`);
  };

  // 1. End to end.
  const latencies: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const before = arrivals.length;
    await simulateCall({ baseUrl: base, authToken: 'bench-voice-token', from: '+14155552671', to: number, buyers: [{ answer: true, answerAfter: 1, talk: 20 }], callSid: `CA${randomUUID().replace(/-/g, '')}` });
    await waitFor(before + 1);
    const arrival = arrivals[arrivals.length - 1]!;
    const payload = verifier.verify(arrival.body, arrival.headers) as { timestamp: string };
    latencies.push(arrival.at - Date.parse(payload.timestamp));
  }
  printTable('End to end: call end (final carrier callback) to signed delivery received', ['calls', 'p50 ms', 'p99 ms', 'max ms'], [
    [String(CALLS), percentile(latencies, 50).toFixed(1), percentile(latencies, 99).toFixed(1), Math.max(...latencies).toFixed(1)],
  ]);

  // 2. Requests per event (outbox write with a change, publish, fan-out, one delivery).
  await new Promise((done) => setTimeout(done, 200));
  const eventOf = (subscriptionEvent: string): QueueMessage => {
    const id = randomUUID();
    return { kind: 'event', id, companyId: company.id, event: { id, name: subscriptionEvent as 'call_ended', companyId: company.id, occurredAt: new Date().toISOString(), data: { id: 1, offer_id: offer.id } } };
  };
  resetTally();
  indexTracer.enabled = true;
  for (const key of Object.keys(queueOps)) delete queueOps[key];
  const before = arrivals.length;
  for (let i = 0; i < EVENTS_COUNTED; i++) {
    const { writes, staged } = stageMessages(company.id, [eventOf('call_ended')], new Date());
    await db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: tableName, Item: { pk: `C#${company.id}#bench`, sk: randomUUID() } } }, ...writes] }));
    await publishStaged(staged);
  }
  await waitFor(before + EVENTS_COUNTED);
  await new Promise((done) => setTimeout(done, 300));
  indexTracer.enabled = false;
  const perEvent = (n: number) => (n / EVENTS_COUNTED).toFixed(2);
  const service = Object.entries(tally.service.requests);
  printTable(
    `DynamoDB requests per event (${EVENTS_COUNTED} events, each written with a change, one subscription each); the change's TransactWriteItems holds the outbox item`,
    ['', ...service.map(([name]) => name), 'all', 'units', 'index WCU', 'units with index'],
    [
      [
        'per event',
        ...service.map(([, n]) => perEvent(n)),
        perEvent(service.reduce((sum, [, n]) => sum + n, 0)),
        perEvent(tally.service.units),
        perEvent(serviceIndex.total),
        perEvent(tally.service.units - serviceIndex.reported + serviceIndex.total),
      ],
    ],
  );
  console.log(
    "units: as DynamoDB Local reports them (its own index units included); index WCU: the global secondary index writes as DynamoDB bills them (bench/index-writes.ts; at the standard rate also inside transactions, an assumption); units with index: units with these in place of Local's.",
  );
  printTable(
    'Queue requests per event (SQS in AWS, where Lambda receives and deletes in batches; locally the table queue, which made these DynamoDB requests)',
    ['', ...Object.keys(queueOps), 'local DynamoDB requests', 'local units'],
    [['per event', ...Object.values(queueOps).map((n) => perEvent(n)), perEvent(Object.values(tally.queue.requests).reduce((a, b) => a + b, 0)), perEvent(tally.queue.units)]],
  );

  // 3. Throughput.
  for (let i = 1; i < THROUGHPUT_SUBSCRIPTIONS; i++) await post('/api/v1/subscriptions', { target_url: `http://127.0.0.1:${receiverPort}/t${i}`, event: 'call_changed' });
  await post('/api/v1/subscriptions', { target_url: `http://127.0.0.1:${receiverPort}/t0`, event: 'call_changed' });
  const startCount = arrivals.length;
  const started = performance.now();
  await queue.send(Array.from({ length: THROUGHPUT_EVENTS }, () => eventOf('call_changed')));
  await waitFor(startCount + THROUGHPUT_EVENTS * THROUGHPUT_SUBSCRIPTIONS);
  const seconds = (performance.now() - started) / 1000;
  printTable('Throughput (local worker: batches of 10, sends in parallel)', ['events', 'deliveries', 'seconds', 'deliveries/s'], [
    [String(THROUGHPUT_EVENTS), String(THROUGHPUT_EVENTS * THROUGHPUT_SUBSCRIPTIONS), seconds.toFixed(2), ((THROUGHPUT_EVENTS * THROUGHPUT_SUBSCRIPTIONS) / seconds).toFixed(1)],
  ]);

  await stopWorker();
  gateway.closeAllConnections();
  gateway.close();
  receiver.close();
}
