import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { clock } from '../adapters/clock.js';
import { startDynamoDbLocal } from './dynamodb-local.js';

/**
 * `npm start`: DynamoDB Local with data under DATA_DIR, the table, the default company and its
 * key pair, then the local gateway on PORT. Ctrl-C stops all of it.
 */
process.env.NUMBER_PROVIDER ??= 'local';
// The console shows one plain line per request (below). The functions' JSON lines are for
// CloudWatch: only their warnings and errors are shown here, unless LOG_LEVEL asks for more.
if (!process.env.POWERTOOLS_LOG_LEVEL && !process.env.LOG_LEVEL) process.env.LOG_LEVEL = 'warn';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const publicKey = process.env.API_PUBLIC_KEY;
const privateKey = process.env.API_PRIVATE_KEY;

if (Boolean(publicKey) !== Boolean(privateKey)) {
  console.error('Set both API_PUBLIC_KEY and API_PRIVATE_KEY, or neither.');
  process.exit(1);
}

// Everything under the data folder (records, outbox, credentials) is the owner's alone.
mkdirSync(dataDir, { recursive: true, mode: 0o700 });
chmodSync(dataDir, 0o700);
// DYNAMODB_ENDPOINT set: that DynamoDB (Local) holds the table (the smoke test's run in the suite
// uses the suite's); otherwise one is started with its data under DATA_DIR.
const givenEndpoint = process.env.DYNAMODB_ENDPOINT;
const dynamo = givenEndpoint ? { endpoint: givenEndpoint, stop: async () => undefined } : await startDynamoDbLocal({ dataDir: join(dataDir, 'dynamodb') });
process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
process.env.TABLE_NAME ??= 'call-tracking-local';
// Local adapters: nothing leaves the machine. E-mails land in DATA_DIR/outbox/emails.jsonl.
process.env.EMAIL_ADAPTER ??= 'local';
process.env.OUTBOX_DIR ??= join(dataDir, 'outbox');
process.env.EVENTS_ADAPTER ??= 'local';
process.env.TELEPHONY_ADAPTER ??= 'local';
process.env.SCHEDULER_ADAPTER ??= 'local';
process.env.TRANSCRIPTION_ADAPTER ??= 'local';
// Data appends: deterministic data per number (docs/resources.md, "Data appends and contact imports").
process.env.DATA_PROVIDER ??= 'local';
// Secret items and OAuth tokens: AES-256-GCM with a key made once in DATA_DIR/encryption.key.
process.env.ENCRYPTION_ADAPTER ??= 'local';
process.env.ENCRYPTION_KEY_FILE ??= join(dataDir, 'encryption.key');
// Uploads of the object_storage_upload action land in DATA_DIR/objects.
process.env.OBJECT_STORAGE_ADAPTER ??= 'local';
process.env.OBJECT_STORAGE_DIR ??= join(dataDir, 'objects');
const runtimeFile = join(dataDir, 'runtime.json');

// Imported only now: these modules read the configuration above when they load. The local
// adapters first: the factories find them registered (they are not in Lambda bundles).
await import('./register-adapters.js');
const { createDocumentClient } = await import('../db/client.js');
const { ensureTable } = await import('./table-setup.js');
const { localVoiceToken, seedDefaultCompany } = await import('./seed.js');
const { createGateway, listen } = await import('./gateway.js');
const { sweepStaleCalls } = await import('../calls/stale-call-sweeper.js');
const { SWEEP_INTERVAL_MINUTES } = await import('../calls/stale-calls.js');
const { sweepOutbox } = await import('../events/outbox.js');
const { eventQueue } = await import('../adapters/index.js');
const { startDeliveryWorker } = await import('./delivery-worker.js');
const { schedulerPort } = await import('../adapters/scheduler.js');
const { startLocalRunner } = await import('../leads/local-runner.js');
const { sweepOverdueSteps } = await import('../leads/overdue-steps.js');
const { sweepFieldCleanups } = await import('../contact-fields/field-cleanup-queue.js');
const { backgroundWork } = await import('../adapters/background-work.js');
const { TableWork } = await import('../adapters/local/table-work.js');
const { startBackgroundWorkRunner } = await import('./background-work-runner.js');
type TableQueue = import('../adapters/local/table-queue.js').TableQueue;
type TableScheduler = import('../adapters/local/table-scheduler.js').TableScheduler;

const tableClient = createDocumentClient(dynamo.endpoint, 'local');
await ensureTable(tableClient, process.env.TABLE_NAME);
const seeded = await seedDefaultCompany(dataDir, publicKey && privateKey ? { publicKey, privateKey } : undefined);
// The simulator (npm run call) signs carrier webhooks with this token, as a carrier would.
process.env.TWILIO_AUTH_TOKEN = localVoiceToken(dataDir);
// The key CLI reads this to reach the running emulator instead of starting a second one.
writeFileSync(runtimeFile, JSON.stringify({ dynamodb_endpoint: dynamo.endpoint, table_name: process.env.TABLE_NAME }));

const server = createGateway(({ method, path, status, ms }) => {
  console.log(`${new Date().toISOString()} ${method} ${path} ${status} ${ms}ms`);
});
const boundPort = await listen(server, port, host);
const base = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${boundPort}`;

console.log(`Call tracking service listening on ${base} (DynamoDB Local at ${dynamo.endpoint}, data in ${dataDir})`);
if (seeded.generated) {
  console.log(`Generated an API key pair for company "default" (id ${seeded.companyId}); it is shown only now and saved to ${join(dataDir, 'credentials.json')}:`);
  console.log(`  API_PUBLIC_KEY=${seeded.keyPair.publicKey}`);
  console.log(`  API_PRIVATE_KEY=${seeded.keyPair.privateKey}`);
} else {
  console.log(`Company "default" (id ${seeded.companyId}) uses public key ${seeded.keyPair.publicKey}; the pair is in ${join(dataDir, 'credentials.json')} or your environment.`);
}
console.log(`Try: curl -u "${seeded.keyPair.publicKey}:<private key>" ${base}/api/v1/subscriptions`);
console.log(`Operator console: ${base}/app (sign in with that key pair); API reference: ${base}/docs`);

// The stale-call sweeper, as the EventBridge rule runs it in AWS: ends calls whose final carrier
// callback never came (a simulator run cut short leaves one), freeing their buyers.
const sweeps = setInterval(() => {
  sweepStaleCalls(clock().now())
    .then((result) => {
      if (result.ended.length) console.log(`${new Date().toISOString()} stale-call sweeper ended ${result.ended.length} call(s)`);
    })
    .catch((error: unknown) => console.error('stale-call sweeper failed:', error));
}, SWEEP_INTERVAL_MINUTES * 60_000);
sweeps.unref();

// Events: the same outbox -> queue -> delivery path as in AWS. What a previous run left in the
// outbox (killed between commit and publish, or its envelope not yet received) is sent now (a
// duplicate envelope sends nothing twice); the sweeper then runs every minute, and the delivery
// worker drains the queue (the table) as the delivery function does in AWS.
const outboxSweep = () =>
  sweepOutbox(clock().now(), { graceSeconds: 0 })
    .then((result) => {
      if (result.items) console.log(`${new Date().toISOString()} outbox sweeper sent ${result.items} outbox item(s) (${result.sent} message(s)) left by an earlier run`);
    })
    .catch((error: unknown) => console.error('outbox sweeper failed:', error));
await outboxSweep();
const outboxSweeps = setInterval(() => {
  sweepOutbox(clock().now()).catch((error: unknown) => console.error('outbox sweeper failed:', error));
}, 60_000);
outboxSweeps.unref();
const stopDelivery = startDeliveryWorker(eventQueue() as TableQueue, { onError: (error) => console.error('delivery worker failed:', error) });
// Lead steps: the table scheduler's due entries run every second on the service's clock, so a
// restart mid-wait runs what came due meanwhile; the recovery sweep reschedules steps a crash
// left unscheduled, every minute as in AWS (docs/leads.md, "Waits").
const leadRunner = startLocalRunner(schedulerPort() as TableScheduler, {
  onRun: (report) => console.log(`${new Date().toISOString()} lead runner: ${report.ran} step(s) run, ${report.stale} stale, ${report.missing} missing, ${report.failed} failed`),
  onError: (error) => console.error('lead runner failed:', error),
});
// Background work (contact import steps): a queue in the table, run in this process as soon as
// it is queued and every second, as the runner takes it from its queue in AWS; what an earlier
// run queued and did not finish runs now, a failed step again after the visibility timeout.
const localWork = backgroundWork();
const stopBackgroundWork =
  localWork instanceof TableWork ? startBackgroundWorkRunner(localWork, { onError: (error) => console.error('background work runner failed:', error) }) : async () => undefined;
const leadSweeps = setInterval(() => {
  sweepOverdueSteps(clock().now()).catch((error: unknown) => console.error('overdue lead step sweeper failed:', error));
  sweepFieldCleanups(clock().now()).catch((error: unknown) => console.error('contact field cleanup sweeper failed:', error));
}, 60_000);
leadSweeps.unref();
if (process.env.WEBHOOK_ALLOWED_CIDRS) console.log(`Webhooks may reach ${process.env.WEBHOOK_ALLOWED_CIDRS} (WEBHOOK_ALLOWED_CIDRS)`);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  clearInterval(sweeps);
  clearInterval(outboxSweeps);
  clearInterval(leadSweeps);
  await leadRunner.stop();
  await stopDelivery();
  await stopBackgroundWork();
  console.log(`${signal}: stopping`);
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
  tableClient.destroy();
  await dynamo.stop();
  rmSync(runtimeFile, { force: true });
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
