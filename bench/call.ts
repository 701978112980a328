/**
 * Call costs against their goals: a traced simulated call, every DynamoDB request it makes
 * counted by operation, by carrier webhook and by sequential step.
 *
 *   npx tsx bench/call.ts [--read-price 0.125] [--write-price 0.625]   (or: npm run bench:call)
 *
 * Starts its own DynamoDB Local in memory (bench/support.ts) and the local gateway in this
 * process (shared/local/gateway.ts: the route table, the voice handlers as deployed), and plays
 * the carrier with the call simulator (shared/local/call-simulator.ts: signed webhooks, TwiML
 * followed), so the real call path runs and the document client's middleware sees every request.
 * The event queue is replaced by a counter of messages: in AWS it is SQS, not DynamoDB (locally it
 * would be the table); the outbox writes the events ride on are DynamoDB and counted.
 *
 * Cases, each in a company of its own, played twice (the first call of a number apart, then the
 * measured one): an answered one-buyer call; a call that falls through once (the first buyer does
 * not answer, the second talks); the README's two-buyer call (its buyers and offer, the first
 * buyer not answering). Printed per case: requests by operation, per webhook, sequential steps,
 * read and write units, the goals beside them (issue 12: an answered call at most 12 requests in
 * at most 8 sequential steps, each fall-through at most 3 more, at most 25 write units), then a
 * trace of every request (item key shapes: digits shown as `n`), the README partner's ping and
 * post and one new offer lead (POST /api/v1/leads) for docs/benchmarks.md's cost table, and the
 * on-demand cost per 1,000 answered calls at the prices given (USD per million request units).
 *
 * Request counts and capacity are exact (DynamoDB Local reports capacity as DynamoDB bills it,
 * except that keys not found cost nothing locally); times are not measured.
 */
import { countCalls, printTable, READ_COMMANDS, runWithDynamoDbLocal, type CallCounts } from './support.js';
import { itemSize } from '../shared/db/item-limits.js';
import { addIndexUnits, formatByIndex, traceIndexWritesOf, type IndexUnits, type IndexWrite } from './index-writes.js';
import { registerLocalAdapters, setLocalTestEnvironment } from '../test/setup/adapter-env.js';

setLocalTestEnvironment();

const GOAL_REQUESTS = 12;
const GOAL_STEPS = 8;
const GOAL_PER_FALL_THROUGH = 3;
const GOAL_WRITE_UNITS = 25;
/** Examples only: us-east-1 on-demand list prices (USD per million read / write request units); check the AWS price list. */
const EXAMPLE_READ_PRICE = 0.125;
const EXAMPLE_WRITE_PRICE = 0.625;
const COMMANDS = [
  ['GetItemCommand', 'Get'],
  ['BatchGetItemCommand', 'BatchGet'],
  ['QueryCommand', 'Query'],
  ['UpdateItemCommand', 'Update'],
  ['PutItemCommand', 'Put'],
  ['DeleteItemCommand', 'Delete'],
  ['TransactWriteItemsCommand', 'Transact'],
  ['BatchWriteItemCommand', 'BatchWrite'],
] as const;

function priceArgument(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} wants a price in USD per million request units`);
  return value;
}
const readPrice = priceArgument('--read-price', EXAMPLE_READ_PRICE);
const writePrice = priceArgument('--write-price', EXAMPLE_WRITE_PRICE);

/** One DynamoDB request as the trace shows it. */
interface Traced {
  webhook: string;
  /** Which webhook of the call (0 = incoming). */
  step: number;
  command: string;
  /** What it addressed: key shapes (digits as `n`), with the operation inside a transaction or batch. */
  what: string;
  units: number;
  /** Keys asked for (a BatchGetItem's; 1 otherwise). */
  keys: number;
  /** A transaction's input, for the billing estimate. */
  transaction?: Record<string, any>;
  /** Global secondary index writes (bench/index-writes.ts; none for reads). */
  index: IndexUnits;
  /** The index units DynamoDB Local counted in `units` (replaced by `index` in the billed figure). */
  reportedIndex: number;
}

interface Webhook {
  name: string;
  counts: CallCounts;
}

interface CaseResult {
  label: string;
  outcome: string;
  dialed: number;
  fallThroughs: number;
  first: CallCounts;
  webhooks: Webhook[];
  total: CallCounts;
  trace: Traced[];
  events: number;
  /** Read and write units as DynamoDB would bill them (billedUnits, index writes included), in all and per webhook. */
  readEstimate: number;
  writeEstimate: number;
  writeEstimateByWebhook: number[];
  /** The index writes in those write units, in all and per webhook. */
  indexEstimate: IndexUnits;
  indexByWebhook: IndexUnits[];
  callItemKb: number;
  /** The partner's ping and post before the call, when the case has them (with their billed units). */
  ping?: CallCounts;
  post?: CallCounts;
  pingBilled?: Billed;
  postBilled?: Billed;
}

/** A key part with its ids shown as `n`, uuids as `<uuid>`, carrier call ids as `<sid>`. */
const generic = (part: unknown): string =>
  String(part)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/CA[0-9a-f]{32}/g, '<sid>')
    .replace(/\d+/g, 'n');
const shape = (key: unknown): string => {
  const { pk, sk } = (key ?? {}) as { pk?: unknown; sk?: unknown };
  return `${generic(pk)} / ${generic(sk)}`;
};
/** An item's size as DynamoDB counts it (names and values; binary as its bytes), in KB. */
const kb = (item: unknown) => itemSize((item ?? {}) as Record<string, unknown>).bytes / 1024;

/**
 * What DynamoDB would bill a TransactWriteItems: 2 write units per KB (rounded up) of each item.
 * DynamoDB Local reports other figures for transactions (one 50-byte Put: 4 units where DynamoDB
 * bills 2; one 1.7 KB Put: 8 against 4). An Update is billed on the larger of the item before and
 * after: the call item's size after the call is taken for every update of it (an upper bound),
 * 1 KB for the small items (rollups, day counts, counters).
 */
interface Billed {
  read: number;
  /** Table and index writes. */
  write: number;
  /** The global secondary index writes in `write`. */
  index: IndexUnits;
}

/**
 * A traced request's units as DynamoDB would bill them: transactions as transactionEstimate says;
 * reads at least 0.5 per key asked for (DynamoDB bills a GetItem of a missing key and an empty
 * Query 0.5 eventually consistent units, DynamoDB Local reports 0); other writes as reported, less
 * the index units Local counts in them. Every write then adds its index writes as the tracer
 * accounts them (bench/index-writes.ts), at the standard rate, in transactions too (assumed: AWS
 * documents no doubling of a transaction's index writes).
 */
function billedUnits(entries: readonly Traced[], callItemKb: number): Billed {
  let read = 0;
  let write = 0;
  const index: IndexUnits = { total: 0, byIndex: {} };
  for (const entry of entries) {
    if (READ_COMMANDS.has(entry.command)) read += Math.max(entry.units, 0.5 * entry.keys);
    else {
      write += (entry.transaction ? transactionEstimate(entry.transaction, callItemKb) : entry.units - entry.reportedIndex) + entry.index.total;
      addIndexUnits(index, entry.index);
    }
  }
  return { read, write, index };
}

function transactionEstimate(input: Record<string, any>, callItemKb: number): number {
  return (input.TransactItems ?? []).reduce((total: number, item: any) => {
    if (item.Put) return total + 2 * Math.max(1, Math.ceil(kb(item.Put.Item)));
    const key = (item.Update ?? item.Delete ?? item.ConditionCheck)?.Key as { pk?: string } | undefined;
    return total + 2 * (String(key?.pk).includes('#calls#') ? Math.max(1, Math.ceil(callItemKb)) : 1);
  }, 0);
}

/** What a request addressed, from its input (the document client's plain values). */
function describe(command: string, input: Record<string, any>): string {
  switch (command) {
    case 'GetItemCommand':
    case 'UpdateItemCommand':
    case 'DeleteItemCommand':
      return shape(input.Key);
    case 'PutItemCommand':
      return `${shape(input.Item)} (~${kb(input.Item).toFixed(1)} KB)`;
    case 'QueryCommand': {
      const values = Object.values(input.ExpressionAttributeValues ?? {}).map(generic);
      return `${input.IndexName ? `${input.IndexName}: ` : ''}${values.join(', ')}${input.Limit ? ` (limit ${input.Limit})` : ''}`;
    }
    case 'BatchGetItemCommand':
      return Object.values(input.RequestItems ?? {})
        .flatMap((request: any) => request.Keys.map(shape))
        .join('; ');
    case 'BatchWriteItemCommand':
      return Object.values(input.RequestItems ?? {})
        .flatMap((requests: any) => requests.map((request: any) => (request.PutRequest ? `Put ${shape(request.PutRequest.Item)}` : `Delete ${shape(request.DeleteRequest?.Key)}`)))
        .join('; ');
    case 'TransactWriteItemsCommand':
      return (input.TransactItems ?? [])
        .map((item: any) => {
          if (item.Put) return `Put ${shape(item.Put.Item)} (~${kb(item.Put.Item).toFixed(1)} KB)`;
          if (item.Update) return `Update ${shape(item.Update.Key)}`;
          if (item.Delete) return `Delete ${shape(item.Delete.Key)}`;
          return `Check ${shape(item.ConditionCheck?.Key)}`;
        })
        .join('; ');
    default:
      return '';
  }
}

/** ` (of which 2.0 index: gsi1 1, gsi2 1)` for a billed figure with index writes, else ''. */
const indexNote = (billed: Billed) => (billed.index.total ? ` (of which ${billed.index.total.toFixed(1)} index: ${formatByIndex(billed.index.byIndex)})` : '');

/** A trace line's index writes: `+2.0 idx (gsi1 1, gsi2 1)`, with Local's own count where it differs (not for transactions: Local's figures for them are not DynamoDB's). */
function indexColumn(entry: Traced): string {
  if (READ_COMMANDS.has(entry.command)) return '';
  const ours = `+${entry.index.total.toFixed(1)} idx${entry.index.total ? ` (${formatByIndex(entry.index.byIndex)})` : ''}`;
  return !entry.transaction && entry.reportedIndex !== entry.index.total ? `${ours} [Local ${entry.reportedIndex.toFixed(1)}]` : ours;
}

const totalRequests = (counts: CallCounts) => Object.values(counts.byCommand).reduce((sum, n) => sum + n, 0);

function sum(list: CallCounts[]): CallCounts {
  const total: CallCounts = { byCommand: {}, itemsReturned: 0, readUnits: 0, writeUnits: 0, unitsByCommand: {}, itemsByCommand: {}, msByCommand: {}, steps: 0, readSteps: 0 };
  for (const counts of list) {
    for (const field of ['byCommand', 'unitsByCommand', 'itemsByCommand', 'msByCommand'] as const) {
      for (const [name, value] of Object.entries(counts[field])) total[field][name] = (total[field][name] ?? 0) + value;
    }
    total.itemsReturned += counts.itemsReturned;
    total.readUnits += counts.readUnits;
    total.writeUnits += counts.writeUnits;
    total.steps += counts.steps;
    total.readSteps += counts.readSteps;
  }
  return total;
}

async function run(): Promise<void> {
  const started = performance.now();
  const { db, tableName } = await import('../shared/db/client.js');
  await registerLocalAdapters();
  const { ensureTable } = await import('../shared/local/table-setup.js');
  const { addApiKey, ensureCompany } = await import('../shared/db/companies.js');
  const { setEventQueue } = await import('../shared/adapters/index.js');
  const { createGateway, listen } = await import('../shared/local/gateway.js');
  const { simulateCall } = await import('../shared/local/call-simulator.js');
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');

  await ensureTable(db, tableName);
  let eventsSent = 0;
  setEventQueue({
    send: async (messages) => {
      // An outbox envelope carries its item's messages: the events are counted, not the envelopes.
      eventsSent += messages.reduce((sum, message) => sum + (message.kind === 'outbox' ? message.messages.length : 1), 0);
    },
    retryLater: async () => undefined,
  });

  // The trace: its own middleware beside the counter (both ask for the consumed capacity), and
  // inside both the index write tracer, whose accounts the trace takes by the request's input.
  let webhook = 'setup';
  let trace: Traced[] = [];
  let tracing = true;
  const indexWrites = new WeakMap<object, IndexWrite>();
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? 'unknown';
      const input = args.input as Record<string, any>;
      input.ReturnConsumedCapacity = 'TOTAL';
      if (!tracing) return next(args);
      const what = describe(command, input);
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } | Array<{ CapacityUnits?: number }> }).ConsumedCapacity;
      const units = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []).reduce((total, entry) => total + (entry.CapacityUnits ?? 0), 0);
      const keys = command === 'BatchGetItemCommand' ? Object.values(input.RequestItems ?? {}).reduce((total: number, request: any) => total + request.Keys.length, 0) : 1;
      const written = indexWrites.get(input);
      const index = written ? { total: written.total, byIndex: written.byIndex } : { total: 0, byIndex: {} };
      trace.push({ webhook, step: Number(webhook), command, what, units, keys, index, reportedIndex: written?.reported ?? 0, ...(command === 'TransactWriteItemsCommand' ? { transaction: input } : {}) });
      return result;
    },
    { step: 'initialize', name: 'benchCallTrace' },
  );
  const counter = countCalls(db);
  await traceIndexWritesOf(db, (write) => indexWrites.set(write.input, write));

  const server = createGateway();
  const baseUrl = `http://127.0.0.1:${await listen(server, 0)}`;
  try {
    const api = async (authorization: string, path: string, json: unknown): Promise<Record<string, any>> => {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) };
      const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(json) });
      const text = await response.text();
      if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
      return JSON.parse(text) as Record<string, any>;
    };
    /** A company with these buyers on one offer, a tracking number and an inbound webhook; `subscribed`: and a subscription (its events are staged only then). */
    const setup = async (name: string, buyers: Array<Record<string, unknown>>, subscribed = false) => {
      const company = await ensureCompany(`bench-call-${name}-${crypto.randomUUID().slice(0, 8)}`);
      const pair = await addApiKey(company.id);
      const authorization = `Basic ${Buffer.from(`${pair.publicKey}:${pair.privateKey}`).toString('base64')}`;
      const ids: number[] = [];
      for (const fields of buyers) ids.push((await api(authorization, '/api/v1/buyers', fields)).buyer.id);
      const offer = (await api(authorization, '/api/v1/offers', { name: 'Home insurance', buyer_ids: ids })).offer;
      const number = (await api(authorization, '/api/v1/phone_numbers', { offer_id: offer.id })).phone_number.number as string;
      const vanity = `bench-call-${crypto.randomUUID().slice(0, 8)}`;
      await api(authorization, '/api/v1/inbound_webhooks', { vanity_uri: vanity, offer_id: offer.id });
      if (subscribed) await api(authorization, '/api/v1/subscriptions', { event: 'call_ended', target_url: 'https://receiver.example.com/events' });
      return { number, vanity, leadToken: offer.lead_token as string };
    };
    /** The README's partner: a ping for the caller in CA, then a post for a number; the counts of each and the number. */
    const pingAndPost = async (vanity: string, callerId: string) => {
      counter.reset();
      trace = [];
      webhook = 'ping';
      const ping = await api('', `/api/v1/inbound_webhooks/ping/${vanity}?caller_id=${callerId}&state=CA`, {});
      const pingCounts = structuredClone(counter.current);
      const pingBilled = billedUnits(trace, 0);
      counter.reset();
      trace = [];
      webhook = 'post';
      const post = await api('', `/api/v1/inbound_webhooks/post/${vanity}`, { ping_id: ping.ping_id, caller_id: callerId });
      const postCounts = structuredClone(counter.current);
      const postBilled = billedUnits(trace, 0);
      webhook = 'setup';
      return { ping: pingCounts, post: postCounts, pingBilled, postBilled, number: post.phone_number as string };
    };

    type Behaviour = Parameters<typeof simulateCall>[0]['buyers'];
    const play = async (to: string, from: string, buyers: Behaviour) => {
      counter.reset();
      trace = [];
      const webhooks: Webhook[] = [];
      webhook = '0';
      const result = await simulateCall({
        baseUrl,
        authToken: process.env.TWILIO_AUTH_TOKEN!,
        from,
        to,
        buyers,
        onStep: () => {
          // The simulator waits for each answer before the next webhook: what was counted since the last one is this one's.
          webhooks.push({ name: webhook, counts: structuredClone(counter.current) });
          counter.reset();
          webhook = String(webhooks.length);
        },
      });
      // Name each webhook, and the trace entries it made, by its path.
      const names = result.steps.map((step) => new URL(step.request).pathname.split('/').pop()!);
      webhooks.forEach((entry, index) => (entry.name = names[index]!));
      for (const entry of trace) entry.webhook = names[Number(entry.webhook)] ?? entry.webhook;
      return { result, webhooks };
    };

    // `subscribed`: the company has a subscription, so its calls stage their events (shared/events/event-consumers.ts); the others have none.
    const cases: Array<{ label: string; buyers: Array<Record<string, unknown>>; from: string; behaviour: Behaviour; pingPost?: boolean; subscribed?: boolean }> = [
      {
        label: 'answered, one buyer',
        buyers: [{ name: 'Acme East', number: '+12125550123', tier: 0, current_conversion_revenue: 25, current_conversion_duration: 60 }],
        from: '+14155552671',
        behaviour: [{ answer: true, answerAfter: 4, talk: 90 }],
      },
      {
        label: 'answered, one buyer, subscribed',
        subscribed: true,
        buyers: [{ name: 'Acme East', number: '+12125550123', tier: 0, current_conversion_revenue: 25, current_conversion_duration: 60 }],
        from: '+14155552671',
        behaviour: [{ answer: true, answerAfter: 4, talk: 90 }],
      },
      {
        label: 'falls through once',
        buyers: [
          { name: 'B1', number: '+12125551000', tier: 0, current_conversion_revenue: 40, current_conversion_duration: 60 },
          { name: 'B2', number: '+12125551001', tier: 1, current_conversion_revenue: 25, current_conversion_duration: 60 },
        ],
        from: '+14155552672',
        behaviour: [
          { answer: false, answerAfter: 30, talk: 0 },
          { answer: true, answerAfter: 4, talk: 90 },
        ],
      },
      {
        // README: its two buyers and offer, the partner's ping (state=CA) and post, then "Place a call": `--no-answer-first 1 --talk 75`.
        // The README subscribes to call_ended before it places the call.
        label: "README's two-buyer call",
        pingPost: true,
        subscribed: true,
        buyers: [
          { name: 'Acme East', number: '+1 (212) 555-0123', tier: 0, current_conversion_revenue: 25, current_conversion_duration: 60, concurrency_cap_limit: 5, attempt_daily_limit: 100 },
          { name: 'Acme West', number: 'sip:queue@pbx.example.com', tier: 1, current_conversion_revenue: 10, current_conversion_duration: 60, record_token_filter_list: ['state:CA|NV'] },
        ],
        from: '+14155552671',
        behaviour: [
          { answer: false, answerAfter: 30, talk: 0 },
          { answer: true, answerAfter: 5, talk: 75 },
        ],
      },
    ];

    const results: CaseResult[] = [];
    let leadToken = '';
    let subscribedLeadToken = '';
    for (const plan of cases) {
      webhook = 'setup';
      const made = await setup(plan.label.replace(/\W+/g, '-'), plan.buyers, plan.subscribed);
      if (plan.subscribed) subscribedLeadToken ||= made.leadToken;
      else leadToken ||= made.leadToken;
      const callerId = plan.from.replace(/^\+1/, '');
      const firstNumber = plan.pingPost ? (await pingAndPost(made.vanity, callerId)).number : made.number;
      const first = await play(firstNumber, plan.from, plan.behaviour);
      const partner = plan.pingPost ? await pingAndPost(made.vanity, callerId) : undefined;
      const eventsBefore = eventsSent;
      const measured = await play(partner?.number ?? made.number, plan.from, plan.behaviour);
      const events = eventsSent - eventsBefore;
      const measuredTrace = trace.filter((entry) => entry.webhook !== 'setup');
      // The call item's size after the call (read untraced), for the billing estimate of its updates.
      const callKey = measuredTrace
        .flatMap((entry) => (entry.transaction?.TransactItems ?? []) as Array<{ Put?: { Item: { pk: string; sk: string } } }>)
        .map((item) => item.Put?.Item)
        .find((item) => item && /^C#\d+#calls#/.test(item.pk));
      tracing = false;
      const callItem = callKey ? (await db.send(new GetCommand({ TableName: tableName, Key: { pk: callKey.pk, sk: callKey.sk } }))).Item : undefined;
      tracing = true;
      const callItemKb = callItem ? kb(callItem) : 0;
      results.push({
        label: plan.label,
        outcome: measured.result.outcome,
        dialed: measured.result.dialed.length,
        fallThroughs: Math.max(0, measured.result.dialed.length - 1),
        first: sum(first.webhooks.map((entry) => entry.counts)),
        webhooks: measured.webhooks,
        total: sum(measured.webhooks.map((entry) => entry.counts)),
        trace: measuredTrace,
        events,
        readEstimate: billedUnits(measuredTrace, callItemKb).read,
        writeEstimate: billedUnits(measuredTrace, callItemKb).write,
        writeEstimateByWebhook: measured.webhooks.map((_, index) => billedUnits(measuredTrace.filter((entry) => entry.step === index), callItemKb).write),
        indexEstimate: billedUnits(measuredTrace, callItemKb).index,
        indexByWebhook: measured.webhooks.map((_, index) => billedUnits(measuredTrace.filter((entry) => entry.step === index), callItemKb).index),
        callItemKb,
        ping: partner?.ping,
        post: partner?.post,
        pingBilled: partner?.pingBilled,
        postBilled: partner?.postBilled,
      });
    }

    // A new offer lead (POST /api/v1/leads, as bench:leads submits it), for the cost table.
    const submitLead = async (token: string, callerId: string) => {
      const response = await fetch(`${baseUrl}/api/v1/leads?${new URLSearchParams({ lead_token: token, caller_id: callerId, first_name: 'Bo', zip: '94107' })}`, { method: 'POST' });
      if (response.status !== 200) throw new Error(`lead: ${response.status} ${await response.text()}`);
    };
    /** The second new lead of the token (the first made the instance know the token's company). */
    const measureLead = async (token: string, callers: [string, string]) => {
      await submitLead(token, callers[0]);
      counter.reset();
      trace = [];
      webhook = 'lead';
      await submitLead(token, callers[1]);
      const measuredLead = { counts: structuredClone(counter.current), billed: billedUnits(trace, 0) };
      webhook = 'setup';
      return measuredLead;
    };
    const lead = await measureLead(leadToken, ['+14155553001', '+14155553002']);
    const subscribedLead = await measureLead(subscribedLeadToken, ['+14155553003', '+14155553004']);

    // ---- report -----------------------------------------------------------------------------
    console.log('Call: simulated carrier calls through the local gateway in this process (the voice handlers as deployed), every DynamoDB request counted.');
    console.log(`Goals (issue 12): an answered one-buyer call at most ${GOAL_REQUESTS} requests in at most ${GOAL_STEPS} sequential steps, each fall-through at most ${GOAL_PER_FALL_THROUGH} more; at most ${GOAL_WRITE_UNITS} write units per answered call (billed, index writes included).`);
    printTable(
      'Per call (the second call of its number; requests by operation, sequential steps, read and write units)',
      ['case', 'outcome', 'dialed', ...COMMANDS.map(([, short]) => short), 'requests', 'steps', 'RCU local', 'RCU billed', 'WCU local', 'index WCU', 'WCU billed', 'call item KB', 'events', 'first call: req / steps'],
      results.map((r) => [
        r.label,
        r.outcome,
        String(r.dialed),
        ...COMMANDS.map(([name]) => String(r.total.byCommand[name] ?? 0)),
        String(totalRequests(r.total)),
        String(r.total.steps),
        r.total.readUnits.toFixed(1),
        r.readEstimate.toFixed(1),
        r.total.writeUnits.toFixed(1),
        r.indexEstimate.total.toFixed(1),
        r.writeEstimate.toFixed(1),
        r.callItemKb.toFixed(1),
        String(r.events),
        `${totalRequests(r.first)} / ${r.first.steps}`,
      ]),
    );
    printTable(
      'Against the goals',
      ['case', 'requests', 'goal', 'steps', 'goal', 'WCU billed', 'goal', 'verdict'],
      results.map((r) => {
        const requestGoal = GOAL_REQUESTS + GOAL_PER_FALL_THROUGH * r.fallThroughs;
        const stepGoal = GOAL_STEPS + GOAL_PER_FALL_THROUGH * r.fallThroughs;
        const requests = totalRequests(r.total);
        const misses = [requests > requestGoal ? 'requests' : '', r.total.steps > stepGoal ? 'steps' : '', r.writeEstimate > GOAL_WRITE_UNITS ? 'write units' : ''].filter(Boolean);
        return [
          r.label,
          String(requests),
          `<= ${requestGoal}`,
          String(r.total.steps),
          `<= ${stepGoal}`,
          r.writeEstimate.toFixed(1),
          `<= ${GOAL_WRITE_UNITS}`,
          misses.length ? `not met: ${misses.join(', ')}` : 'met',
        ];
      }),
    );
    const base = results[0]!;
    for (const r of results.slice(1)) {
      if (r.fallThroughs === 0) continue;
      const extraRequests = (totalRequests(r.total) - totalRequests(base.total)) / r.fallThroughs;
      const extraSteps = (r.total.steps - base.total.steps) / r.fallThroughs;
      console.log(
        `${r.label}: per fall-through ${extraRequests} requests, ${extraSteps} steps more than the answered one-buyer call (goal at most ${GOAL_PER_FALL_THROUGH}): ${extraRequests <= GOAL_PER_FALL_THROUGH ? 'met' : 'not met'}`,
      );
    }

    for (const r of results) {
      printTable(
        `${r.label}: per webhook`,
        ['webhook', ...COMMANDS.map(([, short]) => short), 'requests', 'steps', 'RCU', 'WCU local', 'index WCU', 'indexes', 'WCU billed'],
        r.webhooks.map((entry, index) => [
          entry.name,
          ...COMMANDS.map(([name]) => String(entry.counts.byCommand[name] ?? 0)),
          String(totalRequests(entry.counts)),
          String(entry.counts.steps),
          entry.counts.readUnits.toFixed(1),
          entry.counts.writeUnits.toFixed(1),
          r.indexByWebhook[index]!.total.toFixed(1),
          formatByIndex(r.indexByWebhook[index]!.byIndex) || '-',
          r.writeEstimateByWebhook[index]!.toFixed(1),
        ]),
      );
    }
    console.log(
      '\nlocal: units as DynamoDB Local reports them (its own index units included); billed: as DynamoDB would bill the same requests (each transaction at 2 units per KB of each item, where Local reports more; reads at least 0.5 per key, where Local reports 0 for a missing key or an empty Query), ' +
        'with the global secondary index writes (index WCU: each entry a write puts or deletes, or rewrites when a projected attribute changed, 1 unit per KB of the entry, read from the items before and after each write) in place of the index units Local counts. ' +
        'Index writes are counted at the standard rate, also inside transactions: an assumption (AWS documents 2 units per KB for a transaction\'s table writes and says nothing of its index writes).',
    );
    for (const r of results) {
      if (!r.ping || !r.post) continue;
      console.log(
        `${r.label}, the partner's ping (2 buyers) before it: ${totalRequests(r.ping)} requests, ${r.ping.steps} steps, ${r.ping.readUnits.toFixed(1)} RCU / ${r.ping.writeUnits.toFixed(1)} WCU local, ${r.pingBilled!.read.toFixed(1)} / ${r.pingBilled!.write.toFixed(1)} billed${indexNote(r.pingBilled!)}; ` +
          `the post: ${totalRequests(r.post)} requests (${COMMANDS.filter(([name]) => r.post!.byCommand[name]).map(([name, short]) => `${short} ${r.post!.byCommand[name]}`).join(', ')}), ${r.post.steps} steps, ${r.post.readUnits.toFixed(1)} RCU / ${r.post.writeUnits.toFixed(1)} WCU local, ${r.postBilled!.read.toFixed(1)} / ${r.postBilled!.write.toFixed(1)} billed${indexNote(r.postBilled!)}.`,
      );
    }

    for (const r of results) {
      console.log(`\n${r.label}: trace (webhook, request, units local, index writes, what it addressed)`);
      for (const entry of r.trace) console.log(`  ${entry.webhook.padEnd(12)} ${entry.command.replace(/Command$/, '').padEnd(18)} ${entry.units.toFixed(1).padStart(5)}  ${indexColumn(entry).padEnd(26)}  ${entry.what}`);
    }

    for (const [label, measuredLead] of [['A new offer lead (POST /api/v1/leads)', lead], ['The same in a company with a subscription', subscribedLead]] as const) {
      console.log(
        `${label}: ${totalRequests(measuredLead.counts)} requests (${COMMANDS.filter(([name]) => measuredLead.counts.byCommand[name]).map(([name, short]) => `${short} ${measuredLead.counts.byCommand[name]}`).join(', ')}), ${measuredLead.counts.steps} steps, ` +
          `${measuredLead.counts.readUnits.toFixed(1)} RCU / ${measuredLead.counts.writeUnits.toFixed(1)} WCU local, ${measuredLead.billed.read.toFixed(1)} / ${measuredLead.billed.write.toFixed(1)} billed${indexNote(measuredLead.billed)}.`,
      );
    }
    const perThousand = (readUnits: number, writeUnits: number) => ((readUnits * readPrice + writeUnits * writePrice) / 1000).toFixed(4);
    console.log('');
    for (const r of results.filter((result) => result.fallThroughs === 0)) {
      console.log(
        `On-demand cost per 1,000 calls "${r.label}": ${r.readEstimate.toFixed(1)} RRU x $${readPrice} + ${r.writeEstimate.toFixed(1)} WRU (${r.indexEstimate.total.toFixed(1)} of them index writes) x $${writePrice} per million = $${perThousand(r.readEstimate, r.writeEstimate)}` +
          ` ($${perThousand(r.total.readUnits, r.total.writeUnits)} at the ${r.total.readUnits.toFixed(1)} / ${r.total.writeUnits.toFixed(1)} units Local reports)` +
          ` (DynamoDB only; prices from --read-price/--write-price${readPrice === EXAMPLE_READ_PRICE && writePrice === EXAMPLE_WRITE_PRICE ? ', here the examples: us-east-1 on-demand list prices, check them against the AWS price list' : ''}).`,
      );
    }
    console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  }
}

// Last: the helpers above must be initialised before the run uses them.
await runWithDynamoDbLocal({ tableName: 'call-tracking-bench-call', timeoutSeconds: 110 }, run);
