/**
 * Leads: what a submission asks of DynamoDB, how long it takes beside a bare PutItem, and how
 * many due waits the local runner clears per second with 10,000 leads waiting.
 *
 *   npx tsx bench/leads.ts        (or: npm run bench:leads)
 *
 * Starts its own DynamoDB Local in memory (bench/support.ts) and the local gateway; the lead
 * scheduler is the local one (entries in the table, which in AWS are EventBridge Scheduler
 * schedules or SQS messages: counted apart).
 *
 * 1. Requests per submission, by kind: a new schedule lead (goal: at most 2 reads and 1 write or
 *    transaction), the same lead submitted again (an update), a new offer lead; with the global
 *    secondary index write units of each (bench/index-writes.ts; traced in this part only).
 * 2. Latency: 300 new schedule leads submitted one at a time through HTTP (form in the query
 *    string), p50 and p99, beside 300 bare PutItems of a lead-sized item in the same run.
 * 3. Runner throughput: 10,000 leads waiting on a one-hour wait, then the clock moved past it;
 *    the local runner's passes clear the first 2,000 due steps: steps per second.
 *
 * Times are this machine's and DynamoDB Local's; the request counts are exact.
 */
import { randomUUID } from 'node:crypto';
import { registerLocalAdapters, setLocalTestEnvironment } from '../test/setup/adapter-env.js';
import { percentile, printTable, runWithDynamoDbLocal } from './support.js';
import { addIndexUnits, formatByIndex, traceIndexWritesOf, type IndexUnits } from './index-writes.js';

const LATENCY_LEADS = 300;
const WAITING_LEADS = 10_000;
const CLEARED = 2_000;

// Local adapters as in the tests (nothing leaves the machine), with this bench's own queue names.
setLocalTestEnvironment();
process.env.LOCAL_QUEUE_NAME = 'bench-leads-events';
process.env.LOCAL_SCHEDULER_NAME = 'bench-leads';
process.env.TWILIO_AUTH_TOKEN = 'bench-voice-token';
process.env.LOG_LEVEL = 'silent';

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);

await runWithDynamoDbLocal({ tableName: 'call-tracking-bench-leads', timeoutSeconds: 1200 }, run);

async function run(): Promise<void> {
  const { db, tableName } = await import('../shared/db/client.js');
  await registerLocalAdapters();
  const { ensureTable } = await import('../shared/local/table-setup.js');
  await ensureTable(db, tableName);
  const { addApiKey, ensureCompany } = await import('../shared/db/companies.js');
  const { createGateway, listen } = await import('../shared/local/gateway.js');
  const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
  const { schedulerPort } = await import('../shared/adapters/scheduler.js');
  const { runDueSteps } = await import('../shared/leads/local-runner.js');
  const { createLead } = await import('../shared/leads/lead-store.js');
  const { leadRecord } = await import('../test/fixtures/stored-leads.js');
  const scheduleLead = (at: Date, caller: string, fields: Record<string, unknown> = {}) =>
    leadRecord(at, { company_id: company.id, schedule_id: schedule.id, offer_id: schedule.offer_id, lead_token: schedule.lead_token, caller_id: caller, phase: 'actions', data: { first_name: 'Ada', zip: '94107' }, ...fields });
  const { setClock } = await import('../shared/adapters/clock.js');
  const { FixedClock } = await import('../shared/adapters/local/fixed-clock.js');
  type TableScheduler = import('../shared/adapters/local/table-scheduler.js').TableScheduler;
  const scheduler = schedulerPort() as TableScheduler;

  // DynamoDB requests by command; the local scheduler's and queue's own items (`SCHED#`, `Q#`)
  // apart: in AWS those are Scheduler or SQS requests.
  type Tally = Record<string, number>;
  let service: Tally = {};
  let elsewhere: Tally = {};
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const text = JSON.stringify(args.input);
      const target = text.includes('"SCHED#') || text.includes('"Q#') ? elsewhere : service;
      const name = (context.commandName ?? 'unknown').replace('Command', '');
      target[name] = (target[name] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name: 'benchLeadTally' },
  );
  // Index write units of the service's writes (the scheduler's and queue's own items left out),
  // traced for part 1 only: the tracer reads each item before and after, which would slow parts 2-3.
  let serviceIndex: IndexUnits = { total: 0, byIndex: {} };
  const indexTracer = await traceIndexWritesOf(db, (write) => {
    const text = JSON.stringify(write.input);
    if (!text.includes('"SCHED#') && !text.includes('"Q#')) addIndexUnits(serviceIndex, write);
  });
  const reset = () => {
    service = {};
    elsewhere = {};
    serviceIndex = { total: 0, byIndex: {} };
  };
  const summary = (tally: Tally) => {
    const reads = Object.entries(tally).filter(([name]) => READS.has(name)).reduce((sum, [, n]) => sum + n, 0);
    const writes = Object.entries(tally).filter(([name]) => !READS.has(name)).reduce((sum, [, n]) => sum + n, 0);
    return { reads, writes, detail: Object.entries(tally).map(([name, n]) => `${name} ${n}`).join(', ') || '-' };
  };

  const gateway = createGateway();
  const port = await listen(gateway, 0);
  const base = `http://127.0.0.1:${port}`;
  const company = await ensureCompany(`bench-${randomUUID()}`);
  const pair = await addApiKey(company.id);
  const authorization = `Basic ${Buffer.from(`${pair.publicKey}:${pair.privateKey}`).toString('base64')}`;
  const create = async (path: string, json: Record<string, unknown>, root: string) => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(json) });
    const body = (await response.json()) as Record<string, any>;
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
    return body[root] as Record<string, any>;
  };
  const offer = await create('/api/v1/offers', { name: 'O' }, 'offer');
  const schedule = await create('/api/v1/schedules', { name: 'S', offer_id: offer.id }, 'schedule');
  for (const [order, hours] of [1, 1].entries()) {
    await create('/api/v1/schedule_actions', { schedule_id: schedule.id, owner_relation: 'actions', action_type: 'wait', action_wait_type: 'hours', wait_hours: hours, sortable_order: order + 1 }, 'action_wait');
  }
  let caller = 0;
  const nextCaller = () => `+1415${String(2_000_000 + caller++).padStart(7, '0')}`;
  const submit = async (fields: Record<string, string>) => {
    const response = await fetch(`${base}/api/v1/leads?${new URLSearchParams(fields)}`, { method: 'POST' });
    const body = (await response.json()) as Record<string, any>;
    if (response.status !== 200 || body.success !== true) throw new Error(`submit: ${response.status} ${JSON.stringify(body)}`);
    return body.lead as Record<string, any>;
  };

  // 1. Requests per submission (a warm-up first: the credentials-free path caches nothing, but the gateway loads its module).
  await submit({ lead_token: schedule.lead_token, caller_id: nextCaller() });
  const rows: string[][] = [];
  const measure = async (label: string, fields: Record<string, string>) => {
    reset();
    await submit(fields);
    const counted = summary(service);
    rows.push([label, String(counted.reads), String(counted.writes), counted.detail, serviceIndex.total.toFixed(1), formatByIndex(serviceIndex.byIndex) || '-', summary(elsewhere).detail]);
  };
  const repeated = nextCaller();
  await measure('new schedule lead', { lead_token: schedule.lead_token, caller_id: repeated, first_name: 'Ada', zip: '94107' });
  await measure('same lead again (update)', { lead_token: schedule.lead_token, caller_id: repeated, first_name: 'Ada', zip: '94110' });
  await measure('new offer lead', { lead_token: offer.lead_token, caller_id: nextCaller(), first_name: 'Bo' });
  indexTracer.enabled = false;
  printTable(
    'DynamoDB requests per submission (goal for a new schedule lead: at most 2 reads and 1 write or transaction), with their global secondary index write units',
    ['submission', 'reads', 'writes', 'DynamoDB requests', 'index WCU', 'indexes', 'scheduler (local table; AWS: Scheduler/SQS)'],
    rows,
  );
  console.log(
    "index WCU: each index entry a write puts or deletes, or rewrites when a projected attribute changed, 1 unit per KB (bench/index-writes.ts); at the standard rate also inside transactions (an assumption: AWS's documents do not say a transaction doubles them).",
  );

  // 2. Latency beside a bare PutItem of a lead-sized item.
  const submitMs: number[] = [];
  for (let i = 0; i < LATENCY_LEADS; i++) {
    const started = performance.now();
    await submit({ lead_token: schedule.lead_token, caller_id: nextCaller(), first_name: 'Ada', last_name: 'Lovelace', zip: '94107', source_url: 'https://example.com/landing' });
    submitMs.push(performance.now() - started);
  }
  const putMs: number[] = [];
  const sample = scheduleLead(new Date(), nextCaller());
  for (let i = 0; i < LATENCY_LEADS; i++) {
    const started = performance.now();
    await db.send(new PutCommand({ TableName: tableName, Item: { pk: `BENCH#${i}`, sk: 'PUT', ...sample } }));
    putMs.push(performance.now() - started);
  }
  const fmt = (ms: number) => ms.toFixed(1);
  printTable(`Latency over ${LATENCY_LEADS} requests, one at a time (ms)`, ['what', 'p50', 'p99', 'ratio p50'], [
    ['POST /api/v1/leads (new schedule lead, HTTP)', fmt(percentile(submitMs, 50)), fmt(percentile(submitMs, 99)), (percentile(submitMs, 50) / percentile(putMs, 50)).toFixed(1)],
    ['bare PutItem of a lead-sized item', fmt(percentile(putMs, 50)), fmt(percentile(putMs, 99)), '1.0'],
  ]);

  // 3. 10,000 leads waiting an hour; the clock moves past it and the runner clears due steps.
  const t0 = new Date(Date.now() + 24 * 3_600_000);
  const waitUntil = new Date(t0.getTime() + 3_600_000);
  const actions = (await fetch(`${base}/api/v1/schedule_actions?schedule_id=${schedule.id}`, { headers: { authorization } }).then((r) => r.json())) as Record<string, any>;
  const firstWait = (actions.schedule_actions as Array<Record<string, any>>).sort((a, b) => a.sortable_order - b.sortable_order)[0]!;
  let made = 0;
  const started = performance.now();
  while (made < WAITING_LEADS) {
    // One millisecond apart: ids are time-sortable with 12 random bits, so 10,000 leads of one millisecond would collide.
    const batch = Array.from({ length: Math.min(50, WAITING_LEADS - made) }, (_, index) =>
      scheduleLead(new Date(t0.getTime() - WAITING_LEADS + made + index), nextCaller(), { action_index: 1, current_action_id: firstWait.id, next_action_at: waitUntil.toISOString(), step_version: 1 }),
    );
    await Promise.all(batch.map(async (lead) => {
      await createLead(company.id, lead);
      await scheduler.schedule({ companyId: company.id, leadId: lead.id, version: 1 }, waitUntil);
    }));
    made += batch.length;
  }
  const setupSeconds = (performance.now() - started) / 1000;
  setClock(new FixedClock(new Date(waitUntil.getTime() + 1000)));
  reset();
  let cleared = 0;
  const runStarted = performance.now();
  while (cleared < CLEARED) {
    const report = await runDueSteps(scheduler, new Date(waitUntil.getTime() + 1000));
    if (!report.order.length) break;
    cleared += report.order.length;
  }
  const runSeconds = (performance.now() - runStarted) / 1000;
  const perStep = summary(service);
  printTable(`Local runner with ${WAITING_LEADS.toLocaleString('en')} leads waiting (set up in ${setupSeconds.toFixed(0)} s)`, ['figure', 'value'], [
    ['due steps cleared', String(cleared)],
    ['seconds', runSeconds.toFixed(1)],
    ['steps per second', (cleared / runSeconds).toFixed(0)],
    ['DynamoDB reads per step', (perStep.reads / cleared).toFixed(1)],
    ['DynamoDB writes per step', (perStep.writes / cleared).toFixed(1)],
    ['scheduler requests per step (AWS: Scheduler/SQS)', (Object.values(elsewhere).reduce((a, b) => a + b, 0) / cleared).toFixed(1)],
  ]);
  gateway.close();
}
