/**
 * `npm run bench:durations`: how long each request `npm run cost` prices takes in the handlers,
 * warm: a ping, a post, each of an answered call's four carrier webhooks, a lead submission, and
 * an event delivery (the delivery handler with one call_ended for a local receiver). Through the
 * local gateway in this process against DynamoDB Local on this machine, so the figures are
 * indicative of Lambda's billed durations (AWS's DynamoDB answers in a few ms, Local in about
 * as much; Lambda's CPU share at 512 MB is about a third of a core). Median and p90 of 30 runs
 * after 5 warm-ups. bench/cost-model.ts takes the medians.
 */
import { createServer } from 'node:http';
import { runWithDynamoDbLocal } from './support.js';
import { registerLocalAdapters, setLocalTestEnvironment } from '../test/setup/adapter-env.js';

setLocalTestEnvironment();
process.env.WEBHOOK_ALLOWED_CIDRS = '127.0.0.0/8';

const RUNS = 30;
const WARM_UP = 5;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

async function run(): Promise<void> {
  const { db, tableName } = await import('../shared/db/client.js');
  await registerLocalAdapters();
  const { ensureTable } = await import('../shared/local/table-setup.js');
  const { addApiKey, ensureCompany } = await import('../shared/db/companies.js');
  const { createGateway, listen } = await import('../shared/local/gateway.js');
  const { simulateCall } = await import('../shared/local/call-simulator.js');
  const { eventQueue } = await import('../shared/adapters/index.js');
  const { drainQueue } = await import('../shared/local/delivery-worker.js');
  type TableQueue = import('../shared/adapters/local/table-queue.js').TableQueue;
  await ensureTable(db, tableName);

  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  const receiverPort = await listen(receiver, 0);
  const server = createGateway();
  const baseUrl = `http://127.0.0.1:${await listen(server, 0)}`;
  const times: Record<string, number[]> = {};
  const time = async <T>(name: string, measured: boolean, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await work();
    if (measured) (times[name] ??= []).push(performance.now() - started);
    return result;
  };
  try {
    const company = await ensureCompany(`bench-durations-${crypto.randomUUID().slice(0, 8)}`);
    const pair = await addApiKey(company.id);
    const authorization = `Basic ${Buffer.from(`${pair.publicKey}:${pair.privateKey}`).toString('base64')}`;
    const post = async (path: string, json: unknown, auth = true): Promise<Record<string, any>> => {
      const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(auth ? { authorization } : {}) }, body: JSON.stringify(json) });
      const text = await response.text();
      if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
      return JSON.parse(text) as Record<string, any>;
    };
    const buyers: number[] = [];
    for (let i = 0; i < 10; i++) buyers.push((await post('/api/v1/buyers', { name: `B${i}`, number: `+1212555${String(1000 + i)}`, tier: i, current_conversion_revenue: 10, current_conversion_duration: 10 })).buyer.id);
    const offer = (await post('/api/v1/offers', { name: 'Bench', buyer_ids: buyers })).offer;
    await post('/api/v1/phone_numbers', { offer_id: offer.id });
    const vanity = `bench-durations-${crypto.randomUUID().slice(0, 8)}`;
    await post('/api/v1/inbound_webhooks', { vanity_uri: vanity, offer_id: offer.id });
    await post('/api/v1/subscriptions', { event: 'call_ended', target_url: `http://127.0.0.1:${receiverPort}/events` });
    const queue = eventQueue() as TableQueue;

    for (let i = 0; i < WARM_UP + RUNS; i++) {
      const measured = i >= WARM_UP;
      const caller = `+1415555${String(2000 + i).padStart(4, '0')}`;
      const pinged = await time('ping', measured, () => post(`/api/v1/inbound_webhooks/ping/${vanity}?caller_id=${encodeURIComponent(caller)}`, {}, false));
      const posted = await time('post', measured, () => post(`/api/v1/inbound_webhooks/post/${vanity}`, { ping_id: pinged.ping_id, caller_id: caller }, false));
      let last = performance.now();
      const names = ['incoming', 'dial status', 'dial action', 'status'];
      let step = 0;
      await simulateCall({
        baseUrl,
        authToken: process.env.TWILIO_AUTH_TOKEN!,
        from: caller,
        to: posted.phone_number as string,
        buyers: [{ answer: true, answerAfter: 2, talk: 30 }],
        onStep: () => {
          const now = performance.now();
          if (measured) (times[`call webhook: ${names[step] ?? `#${step}`}`] ??= []).push(now - last);
          last = now;
          step++;
        },
      });
      await time('lead submission', measured, () => post(`/api/v1/leads?${new URLSearchParams({ lead_token: offer.lead_token, caller_id: caller, first_name: 'Bench' })}`, {}, false));
      // The events the call and the lead staged, through the delivery handler as the local worker
      // runs it (its batches; the table queue's own reads and writes are in the figure, SQS's are not).
      const drained = await time('deliveries of one call and lead (all batches)', measured, () => drainQueue(queue));
      if (measured) (times['queue messages per call and lead (count, not ms)'] ??= []).push(drained.handled);
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
    await new Promise<void>((done) => receiver.close(() => done()));
  }
  console.log(`Handler durations, warm, ms (median and p90 of ${RUNS} after ${WARM_UP} warm-ups; local gateway and DynamoDB Local on this machine):\n`);
  console.log('| request | runs | median ms | p90 ms |\n|---|---|---|---|');
  for (const [name, values] of Object.entries(times)) console.log(`| ${name} | ${values.length} | ${quantile(values, 0.5).toFixed(1)} | ${quantile(values, 0.9).toFixed(1)} |`);
}

await runWithDynamoDbLocal({ tableName: 'call-tracking-bench-durations', timeoutSeconds: 300 }, run);
