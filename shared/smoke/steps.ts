import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { simulateCall } from '../local/call-simulator.js';
import { routes } from '../http/routes.js';
import type { SmokeStep } from './runner.js';
import { jsonOrUndefined } from '../json-text.js';

/**
 * The smoke test of a running deployment (`npm run smoke`, docs/operations.md "After every
 * deploy, run the smoke test"): only public routes, as a customer, a partner, the carrier and a
 * subscriber use them. Every record it makes is named `smoke-<time>` and deleted by the last
 * steps, also after a failure. The calls it plays stay (calls cannot be deleted); they are the
 * smoke buyer's and the smoke offer's.
 */
export interface SmokeOptions {
  apiUrl: string;
  /** `public:private` API keys of the company the records are made in. */
  keys: string;
  /** The carrier's auth token the voice webhooks are signed with; without it the call is skipped. */
  carrierToken?: string;
  /** Where a subscription delivers `call_ended`; loopback URLs are served by the smoke test itself. */
  receiverUrl?: string;
  /** Buy a tracking number for the run (released at the end); without it the post and the call are skipped. */
  buyNumber?: boolean;
  /** The suffix of the records' names; default: the time. */
  runId?: string;
  /** How long to wait for asynchronous outcomes (the lead's scheduled step, the event's delivery). */
  waitSeconds?: number;
}

interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** What the steps share: the records made (for the clean-up) and what later steps read. */
export interface SmokeContext {
  options: SmokeOptions;
  name: string;
  request(method: string, path: string, init?: { json?: unknown; auth?: boolean; headers?: Record<string, string> }): Promise<Reply>;
  /** Created records, `resource path` -> id, deleted in reverse order at the end. */
  created: Array<{ path: string; id: number | string }>;
  buyer?: Record<string, any>;
  offer?: Record<string, any>;
  webhook?: Record<string, any>;
  number?: string;
  pingId?: string;
  subscription?: { id: number; secret: string };
  receiver?: { server: Server; deliveries: Array<{ event: string; verified: boolean }> };
  callId?: number;
  /** Secrets never to print (runner lines are redacted with these). */
  secrets: string[];
}

const CALLER = '+14155550123';
/** The smoke buyer's phone: a fictional 555-01xx number, never dialed (the carrier is played by the test). */
const BUYER_NUMBER = '+12125550147';

export function smokeContext(options: SmokeOptions): SmokeContext {
  const base = options.apiUrl.replace(/\/+$/, '');
  const [publicKey = '', privateKey = ''] = options.keys.split(':');
  const authorization = `Basic ${Buffer.from(`${publicKey}:${privateKey}`).toString('base64')}`;
  const runId = options.runId ?? new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return {
    options,
    name: `smoke-${runId}`,
    created: [],
    secrets: [privateKey, options.keys, authorization.slice(6), options.carrierToken ?? ''].filter(Boolean),
    async request(method, path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.auth !== false) headers.authorization = authorization;
      if (init.json !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${base}${path}`, { method, headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
      const text = await response.text();
      const body = jsonOrUndefined(text);
      return { status: response.status, headers: response.headers, body, text };
    },
  };
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** The record of a single-record answer (its one root key), after checking the status. */
function recordOf(reply: Reply, what: string, status = 200): Record<string, any> {
  check(reply.status === status, `${what} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
  const root = Object.keys(reply.body ?? {}).find((key) => !['status', 'errors', 'checksum', 'metadata', 'associations', 'success'].includes(key));
  check(root && reply.body[root] && typeof reply.body[root] === 'object', `${what} answered no record: ${reply.text.slice(0, 300)}`);
  return reply.body[root] as Record<string, any>;
}

async function create(context: SmokeContext, path: string, json: Record<string, unknown>): Promise<Record<string, any>> {
  const record = recordOf(await context.request('POST', path, { json }), `POST ${path}`);
  context.created.push({ path, id: record.id });
  return record;
}

/** Polls `probe` every second until it returns a value or `seconds` pass. */
async function eventually<T>(seconds: number, probe: () => Promise<T | undefined>): Promise<T | undefined> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value !== undefined || Date.now() >= deadline) return value;
    await new Promise((done) => setTimeout(done, 1000));
  }
}

const isLoopback = (url: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

/** Serves the receiver URL's port on this machine and verifies each delivery's signature. */
async function startReceiver(context: SmokeContext): Promise<void> {
  const url = new URL(context.options.receiverUrl!);
  const deliveries: Array<{ event: string; verified: boolean }> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let event = '';
      let verified = false;
      try {
        event = (JSON.parse(body) as { type?: string }).type ?? '';
        if (context.subscription) {
          new Webhook(context.subscription.secret).verify(body, request.headers as Record<string, string>);
          verified = true;
        }
      } catch {
        verified = false;
      }
      deliveries.push({ event, verified });
      response.writeHead(verified ? 200 : 400).end();
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(Number(url.port || 80), url.hostname.replace(/^\[|\]$/g, ''), () => done());
  });
  context.receiver = { server, deliveries };
}

/** The steps, in order; the last ones delete what the run made. */
export function smokeSteps(): SmokeStep<SmokeContext>[] {
  return [
    {
      name: 'OpenAPI document answers',
      async run(context) {
        const reply = await context.request('GET', '/api/v1/openapi.json', { auth: false });
        check(reply.status === 200, `GET /api/v1/openapi.json answered ${reply.status}`);
        check(typeof reply.body?.openapi === 'string' && Object.keys(reply.body.paths ?? {}).length > 10, 'not an OpenAPI document');
        return { detail: `OpenAPI ${reply.body.openapi}, ${Object.keys(reply.body.paths).length} paths` };
      },
    },
    {
      name: '/docs answers',
      async run(context) {
        const reply = await context.request('GET', '/docs', { auth: false });
        check(reply.status === 200 && (reply.headers.get('content-type') ?? '').includes('text/html'), `GET /docs answered ${reply.status} ${reply.headers.get('content-type')}`);
      },
    },
    {
      name: 'console answers',
      async run(context) {
        // The smoke test is run from the deployed version's checkout: its route table says whether the console exists yet.
        if (!routes.some((route) => route.method === 'GET' && route.path === '/app')) return { skip: 'no console in this version' };
        const reply = await context.request('GET', '/app', { auth: false });
        check(reply.status === 200 && (reply.headers.get('content-type') ?? '').includes('text/html'), `GET /app answered ${reply.status}`);
      },
    },
    {
      name: 'unknown route answers 404 with the envelope',
      async run(context) {
        const reply = await context.request('GET', `/api/v1/${context.name}-no-such-route`);
        check(reply.status === 404, `answered ${reply.status}`);
        check(reply.body?.status === 404 && typeof reply.body?.errors === 'object', `no error envelope: ${reply.text.slice(0, 200)}`);
      },
    },
    {
      name: 'API keys accepted',
      async run(context) {
        const reply = await context.request('GET', '/api/v1/buyers?per_page=1');
        check(reply.status === 200, `GET /api/v1/buyers answered ${reply.status} (check --keys)`);
      },
    },
    {
      name: 'buyer and offer created',
      needs: ['API keys accepted'],
      async run(context) {
        context.buyer = await create(context, '/api/v1/buyers', {
          name: context.name,
          number: BUYER_NUMBER,
          current_conversion_revenue: 1,
          current_conversion_duration: 10,
        });
        context.offer = await create(context, '/api/v1/offers', { name: context.name, buyer_ids: [context.buyer.id] });
        return { detail: `buyer ${context.buyer.id}, offer ${context.offer.id}` };
      },
    },
    {
      name: 'inbound webhook created',
      needs: ['buyer and offer created'],
      async run(context) {
        context.webhook = await create(context, '/api/v1/inbound_webhooks', { name: context.name, vanity_uri: context.name, offer_id: context.offer!.id });
      },
    },
    {
      name: 'CORS preflight of the lead, ping and post routes',
      needs: ['inbound webhook created'],
      async run(context) {
        for (const path of ['/api/v1/leads', `/api/v1/inbound_webhooks/ping/${context.name}`, `/api/v1/inbound_webhooks/post/${context.name}`]) {
          const reply = await context.request('OPTIONS', path, { auth: false, headers: { origin: 'https://landing.example.com', 'access-control-request-method': 'POST' } });
          check(reply.status === 204 || reply.status === 200, `OPTIONS ${path} answered ${reply.status}`);
          check(reply.headers.get('access-control-allow-origin'), `OPTIONS ${path}: no access-control-allow-origin`);
          check((reply.headers.get('access-control-allow-methods') ?? '').includes('POST'), `OPTIONS ${path}: POST not allowed`);
        }
      },
    },
    {
      name: 'tracking number bought for the offer',
      needs: ['buyer and offer created'],
      async run(context) {
        if (!context.options.buyNumber) return { skip: 'without --buy-number (a number costs money at the carrier); the post and the call need one' };
        const number = await create(context, '/api/v1/phone_numbers', { offer_id: context.offer!.id });
        context.number = number.number as string;
        return { detail: context.number };
      },
    },
    {
      name: 'partner ping finds the buyer',
      needs: ['inbound webhook created'],
      async run(context) {
        const reply = await context.request('POST', `/api/v1/inbound_webhooks/ping/${context.name}?caller_id=${encodeURIComponent(CALLER)}`, { auth: false });
        check(reply.status === 200 && reply.body?.success === true, `ping answered ${reply.status}: ${reply.text.slice(0, 300)}`);
        const found = (reply.body.buyers ?? []).find((buyer: { buyer_id?: number }) => buyer.buyer_id === context.buyer!.id);
        check(found, `the ping found ${JSON.stringify((reply.body.buyers ?? []).map((buyer: { buyer_id?: number }) => buyer.buyer_id))}, not the smoke buyer`);
        context.pingId = String(found.ping_id ?? reply.body.ping_id);
      },
    },
    {
      name: 'partner post answers a number',
      needs: ['partner ping finds the buyer', 'tracking number bought for the offer'],
      async run(context) {
        const reply = await context.request('POST', `/api/v1/inbound_webhooks/post/${context.name}`, { auth: false, json: { ping_id: context.pingId, caller_id: CALLER } });
        check(reply.status === 200 && reply.body?.success === true, `post answered ${reply.status}: ${reply.text.slice(0, 300)}`);
        check(reply.body.phone_number === context.number, `post answered ${reply.body.phone_number}, not the offer's ${context.number}`);
      },
    },
    {
      name: 'subscription to call_ended created',
      needs: ['API keys accepted'],
      async run(context) {
        if (!context.options.receiverUrl) return { skip: 'without --receiver-url' };
        if (isLoopback(context.options.receiverUrl)) await startReceiver(context);
        const record = await create(context, '/api/v1/subscriptions', { target_url: context.options.receiverUrl, event: 'call_ended' });
        check(typeof record.secret === 'string', 'the create answered no signing secret');
        context.subscription = { id: record.id, secret: record.secret };
        context.secrets.push(record.secret);
      },
    },
    {
      name: 'call played through the voice webhooks: routed, answered, ended, converted',
      needs: ['tracking number bought for the offer'],
      async run(context) {
        if (!context.options.carrierToken) return { skip: 'no carrier token (--carrier-token-secret or --carrier-token)' };
        const result = await simulateCall({
          baseUrl: context.options.apiUrl.replace(/\/+$/, ''),
          authToken: context.options.carrierToken,
          from: CALLER,
          to: context.number!,
          buyers: [{ answer: true, answerAfter: 2, talk: 30 }],
        });
        check(result.outcome === 'completed', `the call ended ${result.outcome}`);
        check(result.dialed.includes(BUYER_NUMBER), `dialed ${result.dialed.join(', ') || 'nobody'}, not the smoke buyer`);
        check(result.callId, 'no call id in the dial callbacks');
        context.callId = result.callId;
        const shown = recordOf(await context.request('GET', `/api/v1/calls/${result.callId}`), `GET /api/v1/calls/${result.callId}`);
        check(shown.status === 'completed', `the call is ${shown.status}`);
        check(shown.buyer_id === context.buyer!.id, `the call went to buyer ${shown.buyer_id}`);
        check(shown.buyer_converted === true, 'the call did not convert');
        return { detail: `call ${result.callId}, ${result.steps.length} webhooks` };
      },
    },
    {
      name: 'call shows in the calls list and in reports',
      needs: ['call played through the voice webhooks: routed, answered, ended, converted'],
      async run(context) {
        const list = await context.request('GET', '/api/v1/calls?per_page=50');
        check(list.status === 200, `GET /api/v1/calls answered ${list.status}`);
        check((list.body.calls ?? []).some((call: { id: number }) => call.id === context.callId), 'not in the newest 50 calls');
        const reports = await context.request('GET', '/api/v1/calls/reports?category=buyer');
        check(reports.status === 200, `GET /api/v1/calls/reports answered ${reports.status}`);
        const row = (reports.body.reports ?? []).find((entry: { value: unknown }) => entry.value === context.buyer!.id);
        check(row && row.calls >= 1 && row.buyer_converted >= 1, `no report row of the smoke buyer with a converted call: ${JSON.stringify(row ?? null)}`);
      },
    },
    {
      name: 'call_ended delivered to the receiver, signed',
      needs: ['subscription to call_ended created', 'call played through the voice webhooks: routed, answered, ended, converted'],
      async run(context) {
        const seconds = context.options.waitSeconds ?? 60;
        const logged = await eventually(seconds, async () => {
          const logs = await context.request('GET', `/api/v1/webhook_logs?subscription_id=${context.subscription!.id}`);
          return (logs.body?.webhook_logs ?? []).find((entry: { success?: boolean; call_id?: number }) => entry.success && entry.call_id === context.callId);
        });
        check(logged, `no successful delivery of call ${context.callId}'s call_ended in the webhook logs within ${seconds} s`);
        if (context.receiver) {
          const received = context.receiver.deliveries.find((delivery) => delivery.event === 'call_ended');
          check(received?.verified, received ? 'the delivery\'s signature did not verify with the subscription\'s secret' : 'the receiver got nothing');
          return { detail: `status ${logged.status_code}, signature verified` };
        }
        return { detail: `status ${logged.status_code} from the receiver (its signature check is the receiver's)` };
      },
    },
    {
      name: 'lead waits a minute as a scheduled step',
      needs: ['buyer and offer created'],
      async run(context) {
        const schedule = await create(context, '/api/v1/schedules', { name: context.name, offer_id: context.offer!.id });
        await create(context, '/api/v1/schedule_actions', {
          schedule_id: schedule.id,
          owner_relation: 'actions',
          sortable_order: 1,
          action_type: 'wait',
          action_wait_type: 'minutes',
          wait_minutes: 1,
        });
        const submitted = Date.now();
        const query = new URLSearchParams({ lead_token: schedule.lead_token, caller_id: CALLER, first_name: context.name });
        const reply = await context.request('POST', `/api/v1/leads?${query.toString()}`, { auth: false });
        check(reply.status === 200 && reply.body?.success === true, `lead submission answered ${reply.status}: ${reply.text.slice(0, 300)}`);
        const lead = reply.body.lead as { id: number };
        context.created.push({ path: '/api/v1/leads', id: `${lead.id}/id` });
        // The first step (the wait) runs at once; it leaves the lead's next step a minute later, on the scheduler.
        const waiting = await eventually(context.options.waitSeconds ?? 60, async () => {
          const shown = recordOf(await context.request('GET', `/api/v1/leads/${lead.id}`), `GET /api/v1/leads/${lead.id}`);
          const next = shown.next_action_at ? Date.parse(shown.next_action_at) : Number.NaN;
          return next >= submitted + 30_000 ? shown : undefined;
        });
        check(waiting, 'the lead shows no next_action_at about a minute after its submission');
        return { detail: `lead ${lead.id}, next_action_at ${waiting.next_action_at}` };
      },
    },
    {
      name: 'secret item stored encrypted (KMS in AWS)',
      needs: ['API keys accepted'],
      async run(context) {
        // A made-up value: the step proves the integrations function may encrypt with the stack's key.
        const record = await create(context, '/api/v1/secret_items', { name: context.name, value: `smoke-value-${context.name}` });
        check(record.value === undefined && record.value_ciphertext === undefined, 'the answer shows the value or its ciphertext');
      },
    },
    {
      name: 'smoke records deleted',
      always: true,
      async run(context) {
        const deleted = await deleteSmokeRecords(context);
        return { detail: `${deleted} record(s)` };
      },
    },
  ];
}

/**
 * Deletes what the run made, newest first (a 404 is fine: deleted already, or with its parent),
 * and stops the receiver; throws naming the deletes that failed. The last step, and what an
 * interrupted run (Ctrl-C) does before it exits.
 */
export async function deleteSmokeRecords(context: SmokeContext): Promise<number> {
  const records = context.created.splice(0).reverse();
  const failures: string[] = [];
  for (const record of records) {
    const reply = await context.request('DELETE', `${record.path}/${record.id}`);
    if (reply.status !== 200 && reply.status !== 204 && reply.status !== 404) failures.push(`DELETE ${record.path}/${record.id} answered ${reply.status}`);
  }
  const receiver = context.receiver;
  context.receiver = undefined;
  if (receiver) await new Promise<void>((done) => receiver.server.close(() => done()));
  check(!failures.length, failures.join('; '));
  return records.length;
}
