import type { PriceTable } from './aws-prices.js';

/**
 * What a month of the service costs in AWS, from volumes, the stack's shape and a price table
 * (bench/aws-prices.ts). Pure: `npm run cost` prints it, test/unit/cost-model.test.ts checks it.
 * Each figure says where it comes from: `measured` (docs/benchmarks.md, the smoke test),
 * `stack` (read from the code: memory size, schedules, functions, alarms) or `assumed`.
 */
export interface Volumes {
  callsPerMonth: number;
  /** Partner pings per call (each call is assumed to follow one post when pings are sent). */
  pingsPerCall: number;
  leadsPerMonth: number;
}

export type Basis = 'measured' | 'stack' | 'assumed';

/** A figure of the model and where it comes from. */
export interface Figure {
  value: number;
  basis: Basis;
  source: string;
}

const measured = (value: number, source: string): Figure => ({ value, basis: 'measured', source });
const assumed = (value: number, source: string): Figure => ({ value, basis: 'assumed', source });

/** The stack's shape (infra/): what does not depend on traffic. */
export interface StackFacts {
  memoryMb: number;
  functions: number;
  alarms: number;
  customMetrics: number;
  dashboards: number;
  kmsKeys: number;
  secrets: number;
  /** Queues a Lambda event source polls (events, lead steps): polled even when idle. */
  polledQueues: number;
  /** Scheduled runs a month of the outbox sweeper (every minute) and the stale-call sweeper. */
  scheduledRunsPerMonth: number;
}

const MINUTES_A_MONTH = 30 * 24 * 60;

/** The stack's facts from its code: `routeGroupCount` functions serve the API, six more run in the background. */
export function stackFacts(input: { memoryMb: number; routeGroupCount: number; metricNames: number; staleSweepMinutes: number }): StackFacts {
  const functions = input.routeGroupCount + 6; // + fallback, stale-call sweeper, delivery, outbox sweeper, lead runner, transcription
  return {
    memoryMb: input.memoryMb,
    functions,
    // Errors and throttles per function; 5xx rate, p99 latency, table throttles and system
    // errors, events queue age, four dead-letter queues, stale calls (infra/constructs/monitoring.ts).
    alarms: 2 * functions + 10,
    customMetrics: input.metricNames,
    dashboards: 1,
    kmsKeys: 1,
    secrets: 1,
    polledQueues: 2,
    scheduledRunsPerMonth: MINUTES_A_MONTH + MINUTES_A_MONTH / input.staleSweepMinutes,
  };
}

/**
 * The per-operation figures. DynamoDB units are docs/benchmarks.md's billed figures ("Cost per
 * operation", a company with a subscription); durations are bench:durations' medians (in
 * process against DynamoDB Local on a shared 2-core machine, so only indicative of Lambda's).
 */
export const FIGURES = {
  callReadUnits: measured(15.0, 'bench:call, answered one-buyer call, company with a subscription (docs/benchmarks.md, Cost per operation)'),
  callWriteUnits: measured(36.0, 'bench:call: 33.0 billed WRU + 3 outbox deletes by the delivery function'),
  webhooksPerCall: measured(4, 'carrier webhooks of an answered call: incoming, dial status, dial action, status (bench:call, npm run smoke)'),
  pingReadUnits: measured(9.5, 'bench:ping, 10-buyer offer'),
  pingWriteUnits: measured(3.0, 'bench:ping, 10-buyer offer'),
  postReadUnits: measured(2.0, 'bench:ping / Cost per operation, post'),
  postWriteUnits: measured(4.0, 'Cost per operation, post'),
  leadReadUnits: measured(3.0, 'bench:call, new offer lead, subscribed'),
  leadWriteUnits: measured(18.0, 'bench:call: 17.0 WRU + 1 outbox delete'),
  // Medians of one `npm run bench:durations` run (2026-11-28, docs/benchmarks.md "Handler durations"): warm,
  // through the local gateway against DynamoDB Local on a shared 2-core machine, so indicative only.
  pingMs: measured(33.8, 'bench:durations median, ping of a 10-buyer offer'),
  webhookMs: measured(38.6, 'bench:durations, mean of the four carrier webhooks\' medians (58.9, 32.4, 28.1, 35.1 ms)'),
  postMs: measured(34.1, 'bench:durations median, post'),
  leadMs: measured(36.1, 'bench:durations median, lead submission'),
  deliveryMs: measured(46, 'bench:durations: 231 ms median for the 5 queue messages of a call and a lead (the receiver on loopback), per message'),
  backgroundMs: assumed(40, 'a lead step, a sweeper run: like a webhook (no bench times them)'),
  apiReadsPerCall: assumed(1, 'the customer\'s own API requests (lists, reports) per call'),
  coldStartShare: assumed(0.02, 'share of invocations that start a new instance'),
  initMs: measured(250, 'function init, bench:bundles (130-300 ms on this machine); AWS bills the init phase'),
  deliveryInvocationsPerCall: assumed(4, 'queue messages of a call, each its own invocation at low volume (bench:durations counts 5 for a call and a lead in a subscribed company)'),
  deliveryReadUnitsPerCall: assumed(2, 'the delivery\'s reads (subscriptions, the claim)'),
  deliveryWriteUnitsPerCall: assumed(3, 'the claim, the webhook log entry, the claim settled'),
  scheduledStepsPerLead: assumed(1, 'one wait of a minute or more per lead (an EventBridge Scheduler entry)'),
  queuedStepsPerLead: assumed(1, 'one step due within a minute per lead (the steps queue)'),
  leadStepReadUnits: assumed(3, 'a lead step: the lead, its schedule and action'),
  leadStepWriteUnits: assumed(4, 'a lead step: the lead saved with its next step'),
  idleSqsRequestsPerQueue: assumed(650_000, 'Lambda\'s pollers long-polling an idle queue (5 pollers, 20 s polls)'),
  sqsRequestsPerMessage: assumed(3, 'send, receive, delete'),
  logBytesPerInvocation: assumed(700, 'Lambda\'s START/END/REPORT lines and a warning or two'),
  accessLogBytesPerRequest: assumed(450, 'one JSON access-log line of 14 fields (infra/constructs/access-log.ts)'),
  logStoredShare: assumed(0.15, 'CloudWatch stores logs compressed; 30 days kept (logRetentionDays)'),
  callItemBytes: assumed(3_000, 'a call item (1.7 KB view), its lookups, timeline and rollup shares'),
  leadItemBytes: assumed(2_000, 'a lead item and its contact'),
  storageMonths: assumed(12, 'table storage shown after a year of the same volumes'),
  xrayReservoirPerSecond: assumed(1, 'X-Ray default sampling: 1 request a second, then 5%'),
  xraySampledShare: assumed(0.05, 'X-Ray default sampling beyond the reservoir'),
  kmsRequests: assumed(1_000, 'secret item and OAuth token writes a month (Encrypt)'),
  s3StoredGb: assumed(1, 'exports, uploads, transcript and recording copies (expire in days)'),
  s3Puts: assumed(1_000, 'exports and uploads a month'),
  secretReadsPerMonth: assumed(175_000, 'the carrier token read per function instance every 5 minutes (~20 warm instances)'),
} satisfies Record<string, Figure>;

export interface CostLine {
  service: string;
  item: string;
  quantity: number;
  unit: string;
  usd: number;
  basis: Basis;
}

export interface CostEstimate {
  lines: CostLine[];
  /** USD a month per service, in the order of the lines. */
  byService: Array<{ service: string; usd: number }>;
  total: number;
  /** USD per 1,000 calls (the whole bill divided by the calls). */
  per1000Calls: number;
  /** Invocations and API requests the estimate counted, for the printout. */
  counts: { apiRequests: number; invocations: number; gbSeconds: number };
}

/** The month's estimate. Free tiers are left out (they end or are shared with the account's other work). */
export function estimateMonthlyCost(volumes: Volumes, stack: StackFacts, prices: PriceTable, figures: typeof FIGURES = FIGURES): CostEstimate {
  const f = (name: keyof typeof FIGURES) => figures[name].value;
  const { callsPerMonth: calls, leadsPerMonth: leads } = volumes;
  const pings = calls * volumes.pingsPerCall;
  const posts = volumes.pingsPerCall > 0 ? calls : 0;
  const webhooks = calls * f('webhooksPerCall');
  const apiReads = calls * f('apiReadsPerCall');
  const apiRequests = webhooks + pings + posts + leads + apiReads;
  const deliveries = calls * f('deliveryInvocationsPerCall');
  const scheduledSteps = leads * f('scheduledStepsPerLead');
  const queuedSteps = leads * f('queuedStepsPerLead');
  const leadSteps = scheduledSteps + queuedSteps;
  const background = deliveries + leadSteps + stack.scheduledRunsPerMonth;
  const invocations = apiRequests + background;

  const lines: CostLine[] = [];
  const add = (service: string, item: string, quantity: number, unit: string, usd: number, basis: Basis) => lines.push({ service, item, quantity, unit, usd, basis });
  const worst = (...names: (keyof typeof FIGURES)[]): Basis => (names.some((name) => figures[name].basis === 'assumed') ? 'assumed' : 'measured');

  // DynamoDB
  const readUnits = calls * f('callReadUnits') + pings * f('pingReadUnits') + posts * f('postReadUnits') + leads * f('leadReadUnits') + calls * f('deliveryReadUnitsPerCall') + leadSteps * f('leadStepReadUnits');
  const writeUnits = calls * f('callWriteUnits') + pings * f('pingWriteUnits') + posts * f('postWriteUnits') + leads * f('leadWriteUnits') + calls * f('deliveryWriteUnitsPerCall') + leadSteps * f('leadStepWriteUnits');
  add('DynamoDB', 'read request units', readUnits, 'RRU', (readUnits / 1e6) * prices.dynamodb.readPerMillion, 'measured');
  add('DynamoDB', 'write request units', writeUnits, 'WRU', (writeUnits / 1e6) * prices.dynamodb.writePerMillion, 'measured');
  const storedGb = ((calls * f('callItemBytes') + leads * f('leadItemBytes')) * f('storageMonths')) / 1e9;
  add('DynamoDB', `storage after ${f('storageMonths')} months`, storedGb, 'GB-month', storedGb * prices.dynamodb.storagePerGbMonth, 'assumed');
  add('DynamoDB', 'point-in-time recovery of that storage', storedGb, 'GB-month', storedGb * prices.dynamodb.pitrPerGbMonth, 'assumed');

  // Lambda: duration per kind of invocation, plus the init of the cold share.
  const gb = stack.memoryMb / 1024;
  const busyMs =
    pings * f('pingMs') + webhooks * f('webhookMs') + posts * f('postMs') + leads * f('leadMs') + apiReads * f('webhookMs') + deliveries * f('deliveryMs') + (leadSteps + stack.scheduledRunsPerMonth) * f('backgroundMs');
  const initMs = invocations * f('coldStartShare') * f('initMs');
  const gbSeconds = ((busyMs + initMs) / 1000) * gb;
  add('Lambda', 'invocations', invocations, 'requests', (invocations / 1e6) * prices.lambda.requestsPerMillion, worst('webhooksPerCall', 'deliveryInvocationsPerCall', 'apiReadsPerCall'));
  add('Lambda', `duration at ${stack.memoryMb} MB (arm64)`, gbSeconds, 'GB-s', gbSeconds * prices.lambda.perGbSecond, 'assumed');

  add('API Gateway', 'HTTP API requests', apiRequests, 'requests', (apiRequests / 1e6) * prices.apiGateway.httpRequestsPerMillion, worst('webhooksPerCall', 'apiReadsPerCall'));

  // SQS: each event and lead step message sent, received, deleted; the pollers' idle receives.
  const messages = deliveries + queuedSteps;
  const sqsRequests = messages * f('sqsRequestsPerMessage') + stack.polledQueues * f('idleSqsRequestsPerQueue');
  add('SQS', 'requests (messages and idle polling)', sqsRequests, 'requests', (sqsRequests / 1e6) * prices.sqs.requestsPerMillion, 'assumed');

  add('EventBridge Scheduler', 'lead steps scheduled', scheduledSteps, 'invocations', (scheduledSteps / 1e6) * prices.scheduler.invocationsPerMillion, 'assumed');

  // CloudWatch
  const logGb = (invocations * f('logBytesPerInvocation') + apiRequests * f('accessLogBytesPerRequest')) / 1e9;
  add('CloudWatch', 'logs ingested', logGb, 'GB', logGb * prices.cloudwatch.logsIngestedPerGb, 'assumed');
  add('CloudWatch', 'logs stored (30 days)', logGb * f('logStoredShare'), 'GB-month', logGb * f('logStoredShare') * prices.cloudwatch.logsStoredPerGbMonth, 'assumed');
  add('CloudWatch', 'custom metrics (CallTracking namespace)', stack.customMetrics, 'metrics', stack.customMetrics * prices.cloudwatch.metricPerMonth, 'stack');
  add('CloudWatch', 'alarms', stack.alarms, 'alarms', stack.alarms * prices.cloudwatch.alarmPerMonth, 'stack');
  add('CloudWatch', 'dashboard', stack.dashboards, 'dashboards', stack.dashboards * prices.cloudwatch.dashboardPerMonth, 'stack');

  // X-Ray: every function traces; the default rule records a request a second and 5% of the rest.
  const reservoir = f('xrayReservoirPerSecond') * MINUTES_A_MONTH * 60;
  const traces = Math.min(invocations, reservoir) + Math.max(0, invocations - reservoir) * f('xraySampledShare');
  add('X-Ray', 'traces recorded', traces, 'traces', (traces / 1e6) * prices.xray.tracesRecordedPerMillion, 'assumed');

  add('KMS', 'secrets key', stack.kmsKeys, 'keys', stack.kmsKeys * prices.kms.keyPerMonth, 'stack');
  add('KMS', 'Encrypt requests', f('kmsRequests'), 'requests', (f('kmsRequests') / 1e4) * prices.kms.requestsPer10k, 'assumed');
  add('S3', 'storage (uploads, exports, transcripts)', f('s3StoredGb'), 'GB-month', f('s3StoredGb') * prices.s3.storagePerGbMonth, 'assumed');
  add('S3', 'PUT requests', f('s3Puts'), 'requests', (f('s3Puts') / 1e3) * prices.s3.putPer1k, 'assumed');
  add('Secrets Manager', 'carrier token secret', stack.secrets, 'secrets', stack.secrets * prices.secretsManager.secretPerMonth, 'stack');
  add('Secrets Manager', 'GetSecretValue', f('secretReadsPerMonth'), 'calls', (f('secretReadsPerMonth') / 1e4) * prices.secretsManager.apiCallsPer10k, 'assumed');

  const services = [...new Set(lines.map((line) => line.service))];
  const byService = services.map((service) => ({ service, usd: lines.filter((line) => line.service === service).reduce((sum, line) => sum + line.usd, 0) }));
  const total = byService.reduce((sum, entry) => sum + entry.usd, 0);
  return { lines, byService, total, per1000Calls: calls > 0 ? (total / calls) * 1000 : 0, counts: { apiRequests, invocations, gbSeconds } };
}
