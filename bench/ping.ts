/**
 * Ping costs against their floor: what one inbound webhook ping
 * (`POST /api/v1/inbound_webhooks/ping/{vanity_uri}`) asks of DynamoDB and how long the handler
 * takes, beside a bare read of the same buyers and counter items, measured in the same run.
 *
 *   npx tsx bench/ping.ts        (or: npm run bench:ping)
 *
 * Starts its own DynamoDB Local in memory (bench/support.ts). Companies of 10, 100, 1,000 and
 * 3,000 buyers, seeded with BatchWriteItem (test/fixtures/bulk-buyers.ts: the records as
 * createRecord stores them) with realistic fields (four time zones, tier, weight, bid, a daily
 * attempt cap, a concurrency cap on half, weekday business hours with an hourly cap on every third,
 * token filters on every fourth), counter items for every other buyer (`applyCounterChange`;
 * every 20th has used up its daily attempts). Offers of 10, 100 and 1,000 buyers, each once in the
 * company of its own size (every buyer) and once in the 3,000-buyer company (every other buyer of
 * a block of its own, so the offers do not overlap); every buyer's fields follow its position in
 * its offer, so an offer's buyers are alike in both companies. A check_for_available_buyer webhook
 * per offer, through the offers and inbound handlers (Basic auth), so the global vanity lookup
 * exists as in production.
 *
 * Per run: one first ping (the vanity name's chain not yet known: shared/routing/ping-reads.ts),
 * warm-up pings, then pings alternated with bare reads: the BatchGetItems of the offer's buyer
 * records and counter items alone (`getItems`, 100 keys a request, in parallel), the floor of any
 * ping. The inbound handler is invoked directly (no HTTP) with the API Gateway v2 event the local
 * gateway builds, body `{caller_id, state, age}`. Printed per run: requests by command, sequential
 * steps (reads before the decision, and all), items read, read and write units
 * (ReturnConsumedCapacity TOTAL, asked by a client middleware), the global secondary index writes
 * (bench/index-writes.ts; traced on the untimed first and warm-up pings only, its reads take time),
 * median times of the ping and the bare read and their ratio; then each offer in both companies
 * side by side. Goals (issue 12):
 * ping time at most 1.3x the bare read; the same requests and within 1.3x the read units whatever
 * the company's size; at most 2 sequential round trips before the decision.
 *
 * Request counts, items and units are exact; times are DynamoDB Local's on this machine.
 */
import type { ApiEvent, ApiResponse } from '../shared/http/request.js';
import { countCalls, percentile, printTable, runWithDynamoDbLocal, type CallCounts } from './support.js';
import { addIndexUnits, formatByIndex, traceIndexWritesOf, type IndexWriteTracer } from './index-writes.js';

const OFFER_SIZES = [10, 100, 1000] as const;
const LARGE_COMPANY = 3000;
/** Where each offer's block starts in the large company (ids block, block+2, ...: disjoint). */
const LARGE_BLOCK_START: Record<number, number> = { 10: 1, 100: 101, 1000: 1001 };
const PINGS: Record<number, number> = { 10: 100, 100: 100, 1000: 30 };
const WARMUP_PINGS = 10;
const GOAL_RATIO = 1.3;
const GOAL_READ_STEPS = 2;
const STATES = ['CA', 'NY', 'TX', 'FL', 'WA'];
const TIME_ZONES = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles'];
const COMMANDS = [
  ['GetItemCommand', 'Get'],
  ['BatchGetItemCommand', 'BatchGet'],
  ['QueryCommand', 'Query'],
  ['UpdateItemCommand', 'Update'],
  ['TransactWriteItemsCommand', 'Transact'],
  ['PutItemCommand', 'Put'],
] as const;

await runWithDynamoDbLocal({ tableName: 'call-tracking-bench-ping', timeoutSeconds: 420 }, run);

interface RunStats {
  label: string;
  offer: number;
  company: number;
  first: CallCounts;
  firstIndex: IndexCounts;
  /** The warm-up pings' counts with their index writes (traced there only: the tracer's reads would slow the timed pings). */
  traced: Array<{ counts: CallCounts; index: IndexCounts }>;
  pings: CallCounts[];
  pingMs: number[];
  bare: CallCounts[];
  bareMs: number[];
  available: number[];
}

type IndexCounts = IndexWriteTracer['current'];

async function run(): Promise<void> {
  const started = performance.now();
  const { db, tableName } = await import('../shared/db/client.js');
  const { ensureTable } = await import('../shared/local/table-setup.js');
  const { addApiKey, ensureCompany } = await import('../shared/db/companies.js');
  const { getItems } = await import('../shared/db/records.js');
  const { routingBuyerKeys } = await import('../shared/routing/router.js');
  const { applyCounterChange } = await import('../shared/buyers/counters.js');
  const { seedBuyers } = await import('../test/fixtures/bulk-buyers.js');
  const { routes } = await import('../shared/http/routes.js');
  const { matchRoute } = await import('../shared/http/route-match.js');
  const { buildApiEvent, buildLambdaContext } = await import('../shared/local/lambda-event.js');
  type Handler = (event: ApiEvent, context: ReturnType<typeof buildLambdaContext>) => Promise<ApiResponse>;
  const handlers: Record<string, Handler> = {
    inbound: (await import('../functions/inbound/handler.js')).handler as unknown as Handler,
    offers: (await import('../functions/offers/handler.js')).handler as unknown as Handler,
  };

  await ensureTable(db, tableName);
  const counter = countCalls(db);
  // Global secondary index writes (bench/index-writes.ts), inside the counter; on for the untimed pings only.
  const indexTracer = await traceIndexWritesOf(db);
  indexTracer.enabled = false;

  const prepare = (method: string, path: string, json: unknown, authorization?: string) => {
    const match = matchRoute(method, path, routes);
    if (match.kind !== 'matched') throw new Error(`no route for ${method} ${path}`);
    const handler = handlers[match.route.group];
    if (!handler) throw new Error(`bench loads no handler for group ${match.route.group}`);
    const event = buildApiEvent(
      {
        method,
        url: path,
        headers: { host: 'localhost', 'content-type': 'application/json', 'user-agent': 'bench', ...(authorization ? { authorization } : {}) },
        body: Buffer.from(JSON.stringify(json)),
        sourceIp: '127.0.0.1',
      },
      match.route,
      match.pathParameters,
    );
    return { handler, event, context: buildLambdaContext(match.route.group, event.requestContext.requestId) };
  };
  const invoke = async (method: string, path: string, json: unknown, authorization?: string): Promise<Record<string, any>> => {
    const { handler, event, context } = prepare(method, path, json, authorization);
    const response = await handler(event, context);
    if (response.statusCode !== 200) throw new Error(`${method} ${path}: ${response.statusCode} ${response.body}`);
    return JSON.parse(response.body ?? '{}') as Record<string, any>;
  };

  // ---- data ---------------------------------------------------------------------------------
  const now = new Date();
  /** A buyer's fields from its pattern index (its position in its offer). */
  const fieldsOf = (pattern: number) => ({
    name: `Buyer ${pattern + 1}`,
    time_zone: TIME_ZONES[pattern % TIME_ZONES.length]!,
    tier: pattern % 3,
    weight: 1 + (pattern % 5),
    current_conversion_revenue: 15 + (pattern % 30) * 1.25,
    current_conversion_name: 'Qualified call',
    current_conversion_duration: 90,
    current_conversion_duplicate_timeframe: 86_400,
    attempt_daily_limit: 50 + (pattern % 8) * 25,
    concurrency_cap_limit: pattern % 2 === 0 ? 5 : null,
    business_hours_schedule:
      pattern % 3 === 0 ? [{ attempt_hourly_limit: 20, schedule: [1, 2, 3, 4, 5].map((day) => ({ day, times: ['08:00..20:00'] })) }] : null,
    record_token_filter_list: pattern % 4 === 0 ? (pattern % 8 === 0 ? ['state:CA|NY|TX'] : ['age:>=21', 'state:!=FL']) : [],
  });
  /** Counter items for the buyers of even pattern (every 20th at its daily cap). */
  const countCalls_ = async (companyId: number, buyers: Array<{ id: number; pattern: number }>) => {
    const counted = buyers.filter((buyer) => buyer.pattern % 2 === 0);
    for (let start = 0; start < counted.length; start += 50) {
      await Promise.all(
        counted.slice(start, start + 50).map(async ({ id, pattern }) => {
          const cap = 50 + (pattern % 8) * 25;
          const attempts = pattern % 20 === 0 ? cap : 1 + (pattern % 17);
          const connections = Math.floor(attempts * 0.6);
          const result = await applyCounterChange(companyId, id, TIME_ZONES[pattern % TIME_ZONES.length]!, now, {
            increments: { attempt: attempts, connection: connections, buyer_conversion: Math.floor(connections / 3), revenue: Math.floor(connections / 3) * 20 },
            at: now.toISOString(),
          });
          if (!result.ok) throw new Error(`counter change refused: ${result.reason}`);
        }),
      );
    }
  };
  /** A company of `size` buyers; `patternOf(id)` gives each buyer's fields. */
  const makeCompany = async (name: string, size: number, patternOf: (id: number) => number) => {
    const company = await ensureCompany(`${name}-${crypto.randomUUID().slice(0, 8)}`);
    const pair = await addApiKey(company.id);
    const authorization = `Basic ${Buffer.from(`${pair.publicKey}:${pair.privateKey}`).toString('base64')}`;
    const ids = await seedBuyers(company.id, size, (index) => fieldsOf(patternOf(index + 1)));
    await countCalls_(company.id, ids.map((id) => ({ id, pattern: patternOf(id) })));
    return { id: company.id, authorization };
  };
  const makeWebhook = async (company: { authorization: string }, buyerIds: number[]) => {
    const offer = (await invoke('POST', '/api/v1/offers', { name: `Offer of ${buyerIds.length}`, buyer_ids: buyerIds }, company.authorization)).offer as { id: number };
    const vanity = `bench-ping-${buyerIds.length}-${crypto.randomUUID().slice(0, 8)}`;
    await invoke('POST', '/api/v1/inbound_webhooks', { vanity_uri: vanity, name: `Ping ${buyerIds.length}`, offer_id: offer.id }, company.authorization);
    return vanity;
  };

  const setupStarted = performance.now();
  const blockOf = (size: number) => Array.from({ length: size }, (_, position) => LARGE_BLOCK_START[size]! + 2 * position);
  const large = await makeCompany('bench-ping-large', LARGE_COMPANY, (id) => {
    for (const size of OFFER_SIZES) {
      const start = LARGE_BLOCK_START[size]!;
      if (id >= start && id < start + 2 * size && (id - start) % 2 === 0) return (id - start) / 2;
    }
    return id;
  });
  const plans: Array<{ label: string; offer: number; company: number; companyId: number; buyerIds: number[]; vanity: string }> = [];
  for (const size of OFFER_SIZES) {
    const own = await makeCompany(`bench-ping-${size}`, size, (id) => id - 1);
    const ownIds = Array.from({ length: size }, (_, index) => index + 1);
    plans.push({ label: `${size} of ${size}`, offer: size, company: size, companyId: own.id, buyerIds: ownIds, vanity: await makeWebhook(own, ownIds) });
    plans.push({ label: `${size} of ${LARGE_COMPANY}`, offer: size, company: LARGE_COMPANY, companyId: large.id, buyerIds: blockOf(size), vanity: await makeWebhook(large, blockOf(size)) });
  }
  console.log('Ping: POST /api/v1/inbound_webhooks/ping/{vanity_uri} through the inbound handler (no HTTP), beside a bare BatchGet of the same buyers and counter items.');
  console.log(`Set up ${OFFER_SIZES.length + 1} companies in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s. DynamoDB Local in memory; times are its times on this machine, not AWS.`);

  // ---- measure ------------------------------------------------------------------------------
  let callerSeq = 0;
  const ping = async (vanity: string) => {
    callerSeq += 1;
    const body = { caller_id: `+1415555${String(callerSeq % 10_000).padStart(4, '0')}`, state: STATES[callerSeq % STATES.length], age: 21 + (callerSeq % 45) };
    const { handler, event, context } = prepare('POST', `/api/v1/inbound_webhooks/ping/${vanity}`, body);
    counter.reset();
    indexTracer.reset();
    const t0 = performance.now();
    const response = await handler(event, context);
    const ms = performance.now() - t0;
    if (response.statusCode !== 200) throw new Error(`ping answered ${response.statusCode}: ${response.body}`);
    const available = (JSON.parse(response.body ?? '{}') as { available_buyers_count?: number }).available_buyers_count ?? 0;
    return { ms, counts: structuredClone(counter.current), index: structuredClone(indexTracer.current), available };
  };
  const bareRead = async (companyId: number, buyerIds: number[]) => {
    counter.reset();
    const t0 = performance.now();
    await getItems(routingBuyerKeys(companyId, buyerIds));
    const ms = performance.now() - t0;
    return { ms, counts: structuredClone(counter.current) };
  };

  const results: RunStats[] = [];
  for (const plan of plans) {
    // The first and the warm-up pings are not timed: their index writes are traced.
    indexTracer.enabled = true;
    const { counts: first, index: firstIndex } = await ping(plan.vanity);
    const traced: RunStats['traced'] = [];
    for (let i = 0; i < WARMUP_PINGS; i++) {
      const warm = await ping(plan.vanity);
      traced.push({ counts: warm.counts, index: warm.index });
      await bareRead(plan.companyId, plan.buyerIds);
    }
    indexTracer.enabled = false;
    const stats: RunStats = { label: plan.label, offer: plan.offer, company: plan.company, first, firstIndex, traced, pings: [], pingMs: [], bare: [], bareMs: [], available: [] };
    for (let i = 0; i < PINGS[plan.offer]!; i++) {
      // Alternated, and in turn first, so neither side has the emulator's warmer moment.
      const pingFirst = i % 2 === 0;
      const bare1 = pingFirst ? undefined : await bareRead(plan.companyId, plan.buyerIds);
      const pinged = await ping(plan.vanity);
      const bare = bare1 ?? (await bareRead(plan.companyId, plan.buyerIds));
      stats.pings.push(pinged.counts);
      stats.pingMs.push(pinged.ms);
      stats.available.push(pinged.available);
      stats.bare.push(bare.counts);
      stats.bareMs.push(bare.ms);
    }
    results.push(stats);
  }

  // ---- report -------------------------------------------------------------------------------
  const median = (values: number[]) => percentile(values, 50);
  /** A ping's write units with the index writes as DynamoDB bills them in place of Local's own count of them. */
  const withIndex = (counts: CallCounts, index: IndexCounts) => counts.writeUnits - index.reported + index.total;
  const indexesOf = (list: IndexCounts[]) => formatByIndex(list.reduce((sum, index) => addIndexUnits(sum, index), { total: 0, byIndex: {} }).byIndex) || '-';
  printTable(
    'Per ping, warm (the vanity name chain known); counts the same for every ping or min-max, units averaged; index writes from the untimed warm-up pings',
    ['offer of company', 'pings', ...COMMANDS.map(([, short]) => short), 'requests', 'read steps', 'steps', 'items read', 'RCU', 'WCU', 'index WCU', 'indexes (all warm-ups)', 'WCU with index', 'available'],
    results.map((stats) => [
      stats.label,
      String(stats.pings.length),
      ...COMMANDS.map(([name]) => spread(stats.pings.map((counts) => counts.byCommand[name] ?? 0))),
      spread(stats.pings.map(totalRequests)),
      spread(stats.pings.map((counts) => counts.readSteps)),
      spread(stats.pings.map((counts) => counts.steps)),
      spread(stats.pings.map((counts) => counts.itemsReturned)),
      average(stats.pings.map((counts) => counts.readUnits)).toFixed(1),
      average(stats.pings.map((counts) => counts.writeUnits)).toFixed(1),
      average(stats.traced.map(({ index }) => index.total)).toFixed(1),
      indexesOf(stats.traced.map(({ index }) => index)),
      average(stats.traced.map(({ counts, index }) => withIndex(counts, index))).toFixed(1),
      spread(stats.available),
    ]),
  );
  printTable(
    'First ping of each webhook (its vanity name chain read link by link)',
    ['offer of company', ...COMMANDS.map(([, short]) => short), 'requests', 'read steps', 'steps', 'items read', 'RCU', 'WCU', 'index WCU', 'indexes', 'WCU with index'],
    results.map((stats) => [
      stats.label,
      ...COMMANDS.map(([name]) => String(stats.first.byCommand[name] ?? 0)),
      String(totalRequests(stats.first)),
      String(stats.first.readSteps),
      String(stats.first.steps),
      String(stats.first.itemsReturned),
      stats.first.readUnits.toFixed(1),
      stats.first.writeUnits.toFixed(1),
      stats.firstIndex.total.toFixed(1),
      indexesOf([stats.firstIndex]),
      withIndex(stats.first, stats.firstIndex).toFixed(1),
    ]),
  );
  console.log(
    '\nWCU: as DynamoDB Local reports it (its own index units included). index WCU: the global secondary index writes as DynamoDB bills them (bench/index-writes.ts: each entry put, deleted, or rewritten when a projected attribute changed, 1 unit per KB; ' +
      'at the standard rate also inside transactions, an assumption); WCU with index: WCU with these in place of Local\'s own index units.',
  );
  printTable(
    `Ping against the bare read of its buyers and counters (alternated in the same run); goals: ratio <= ${GOAL_RATIO}x, read steps <= ${GOAL_READ_STEPS}`,
    ['offer of company', 'ping median ms', 'ping p90 ms', 'bare median ms', 'bare requests', 'bare RCU', 'ratio', 'goal', 'read steps', 'goal'],
    results.map((stats) => {
      const ratio = median(stats.pingMs) / median(stats.bareMs);
      const readSteps = Math.max(...stats.pings.map((counts) => counts.readSteps));
      return [
        stats.label,
        median(stats.pingMs).toFixed(1),
        percentile(stats.pingMs, 90).toFixed(1),
        median(stats.bareMs).toFixed(1),
        spread(stats.bare.map(totalRequests)),
        average(stats.bare.map((counts) => counts.readUnits)).toFixed(1),
        `${ratio.toFixed(2)}x`,
        ratio <= GOAL_RATIO ? 'met' : 'NOT met',
        String(readSteps),
        readSteps <= GOAL_READ_STEPS ? 'met' : 'NOT met',
      ];
    }),
  );
  printTable(
    `Each offer in its own company and in the ${LARGE_COMPANY}-buyer company (goal: same requests, read units and time within ${GOAL_RATIO}x)`,
    ['offer', 'requests', `requests in ${LARGE_COMPANY}`, 'RCU', `RCU in ${LARGE_COMPANY}`, 'RCU ratio', 'ms', `ms in ${LARGE_COMPANY}`, 'time ratio', 'goal'],
    OFFER_SIZES.map((size) => {
      const own = results.find((stats) => stats.offer === size && stats.company === size)!;
      const big = results.find((stats) => stats.offer === size && stats.company === LARGE_COMPANY)!;
      const requests = [median(own.pings.map(totalRequests)), median(big.pings.map(totalRequests))];
      const units = [average(own.pings.map((counts) => counts.readUnits)), average(big.pings.map((counts) => counts.readUnits))];
      const times = [median(own.pingMs), median(big.pingMs)];
      const unitRatio = units[1]! / units[0]!;
      const timeRatio = times[1]! / times[0]!;
      const met = requests[0] === requests[1] && unitRatio <= GOAL_RATIO && timeRatio <= GOAL_RATIO;
      return [
        String(size),
        String(requests[0]),
        String(requests[1]),
        units[0]!.toFixed(1),
        units[1]!.toFixed(1),
        `${unitRatio.toFixed(2)}x`,
        times[0]!.toFixed(1),
        times[1]!.toFixed(1),
        `${timeRatio.toFixed(2)}x`,
        met ? 'met' : 'NOT met',
      ];
    }),
  );
  console.log(`\nTotal run time ${((performance.now() - started) / 1000).toFixed(0)} s (including set-up).`);
  db.destroy();
}

function totalRequests(counts: CallCounts): number {
  return Object.values(counts.byCommand).reduce((sum, value) => sum + value, 0);
}

/** `n` when all values are equal, else `min-max`. */
function spread(values: readonly number[]): string {
  if (values.length === 0) return '-';
  const low = Math.min(...values);
  const high = Math.max(...values);
  const show = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
  return low === high ? show(low) : `${show(low)}-${show(high)}`;
}

function average(values: readonly number[]): number {
  return values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0;
}
