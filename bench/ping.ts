/**
 * Ping costs: what one inbound webhook ping (`POST /api/v1/inbound_webhooks/ping/{vanity_uri}`)
 * asks of DynamoDB, and how long the handler takes, as the number of buyers on the offer grows.
 *
 *   npx tsx bench/ping.ts        (or: npm run bench:ping)
 *
 * Starts its own DynamoDB Local in memory (bench/support.ts). For N = 10, 100 and 1000 buyers it
 * creates a company, N buyers through the repository (`nextId` + `createRecord`, with the
 * buyers resource's defaults and realistic fields: tier, weight, bid, a daily attempt cap,
 * business hours on every third, token filters on every fourth), counter items for every other
 * buyer (`applyCounterChange`), then an offer listing all N and a check_for_available_buyer
 * webhook through the offers and inbound handlers (Basic auth with a key pair from `addApiKey`,
 * so the webhook's global vanity_uri lookup item is written as in production).
 *
 * It then invokes the inbound group's Lambda handler directly (no HTTP) with the API Gateway v2
 * event the local gateway builds, body `{caller_id, state, age}`: 20 warm-up pings, then 200
 * pings (100 for N = 1000), one at a time. Per N it prints the handler time (median, p99, and
 * how much of it was spent waiting on DynamoDB calls), the DynamoDB requests per ping by command,
 * Query pages per ping and the capacity consumed per ping (ReturnConsumedCapacity TOTAL, asked
 * for by a client middleware, so product code is unchanged). A last run on the N = 100 company uses a second webhook that names a buyer group
 * and sets a rate limit, to show the two reads/writes a ping makes only then.
 *
 * The request counts are exact and machine-independent; the times are DynamoDB Local's on this
 * machine and say little about DynamoDB's.
 */
import type { ApiEvent, ApiResponse } from '../shared/http/request.js';
import { countCalls, printTable, runWithDynamoDbLocal, type CallCounts } from './support.js';

const RUNS: ReadonlyArray<{ buyers: number; pings: number }> = [
  { buyers: 10, pings: 200 },
  { buyers: 100, pings: 200 },
  { buyers: 1000, pings: 100 },
];
const WARMUP_PINGS = 20;
/** Pings of the extra run (webhook with a buyer group and a rate limit, on the N = 100 company). */
const EXTRA_PINGS = 50;
const CREATE_CONCURRENCY = 25;
const STATES = ['CA', 'NY', 'TX', 'FL', 'WA'];
const TIME_ZONES = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles'];

/** Commands shown as columns, in this order; any other command is added after them. */
const COMMAND_COLUMNS = [
  ['GetItemCommand', 'GetItem'],
  ['BatchGetItemCommand', 'BatchGet'],
  ['QueryCommand', 'Query'],
  ['PutItemCommand', 'PutItem'],
  ['UpdateItemCommand', 'UpdateItem'],
  ['TransactWriteItemsCommand', 'TransactWrite'],
] as const;

await runWithDynamoDbLocal({ tableName: 'call-tracking-bench-ping', timeoutSeconds: 170 }, run);

interface PingStats {
  label: string;
  buyers: number;
  withCounters: number;
  pings: number;
  times: number[];
  perPing: CallCounts[];
  available: number[];
}

async function run(): Promise<void> {
  const started = performance.now();
  const { db, tableName } = await import('../shared/db/client.js');
  const { ensureTable } = await import('../shared/local/table-setup.js');
  const { addApiKey, ensureCompany } = await import('../shared/db/companies.js');
  const { createRecord, nextId } = await import('../shared/db/records.js');
  type StoredRecord = import('../shared/db/records.js').StoredRecord;
  const { applyCounterChange } = await import('../shared/buyers/counters.js');
  const { resourceByName } = await import('../shared/resources/registry.js');
  const { routes } = await import('../shared/http/routes.js');
  const { matchRoute } = await import('../shared/http/route-match.js');
  const { buildApiEvent, buildLambdaContext } = await import('../shared/local/lambda-event.js');
  type Handler = (event: ApiEvent, context: ReturnType<typeof buildLambdaContext>) => Promise<ApiResponse>;
  const handlers: Record<string, Handler> = {
    inbound: (await import('../functions/inbound/handler.js')).handler as unknown as Handler,
    offers: (await import('../functions/offers/handler.js')).handler as unknown as Handler,
    buyers: (await import('../functions/buyers/handler.js')).handler as unknown as Handler,
  };

  await ensureTable(db, tableName);
  const counter = countCalls(db);

  /** The event the local gateway would build for this request, and the handler of its route group. */
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
  const buyerDefaults = resourceByName('buyers')!.defaults ?? {};
  const now = new Date();
  const nowIso = now.toISOString();

  /** N buyers in a fresh company, half of them with counter items; returns their ids. */
  const makeBuyers = async (companyId: number, count: number): Promise<{ ids: number[]; withCounters: number }> => {
    const ids: number[] = [];
    let withCounters = 0;
    const makeOne = async (index: number): Promise<void> => {
      const id = await nextId(companyId, 'buyers');
      const timeZone = TIME_ZONES[index % TIME_ZONES.length]!;
      const dailyCap = 50 + (index % 8) * 25;
      const record: StoredRecord = {
        ...buyerDefaults,
        name: `Buyer ${index + 1}`,
        number: `+1212555${String(1000 + index).padStart(4, '0')}`,
        time_zone: timeZone,
        tier: index % 3,
        weight: 1 + (index % 5),
        current_conversion_revenue: 15 + (index % 30) * 1.25,
        current_conversion_name: 'Qualified call',
        current_conversion_duration: 90,
        current_conversion_duplicate_timeframe: 86_400,
        attempt_daily_limit: dailyCap,
        concurrency_cap_limit: index % 2 === 0 ? 5 : null,
        business_hours_schedule:
          index % 3 === 0
            ? [{ attempt_hourly_limit: 20, schedule: [1, 2, 3, 4, 5].map((day) => ({ day, times: ['08:00..20:00'] })) }]
            : null,
        record_token_filter_list: index % 4 === 0 ? (index % 8 === 0 ? ['state:CA|NY|TX'] : ['age:>=21', 'state:!=FL']) : [],
        id,
        uuid: crypto.randomUUID(),
        company_id: companyId,
        created_at: nowIso,
        updated_at: nowIso,
        user_updated_at: nowIso,
      };
      await createRecord(companyId, 'buyers', record);
      ids.push(id);
      if (index % 2 === 0) {
        // Calls already taken today; every 20th buyer has used up its daily attempts.
        const attempts = index % 20 === 0 ? dailyCap : 1 + (index % 17);
        const connections = Math.floor(attempts * 0.6);
        const result = await applyCounterChange(companyId, id, timeZone, now, {
          increments: { attempt: attempts, connection: connections, buyer_conversion: Math.floor(connections / 3), revenue: Math.floor(connections / 3) * 20, earned_revenue: Math.floor(connections / 3) * 20 },
          at: nowIso,
        });
        if (!result.ok) throw new Error(`counter change refused: ${result.reason}`);
        withCounters += 1;
      }
    };
    for (let made = 0; made < count; made += CREATE_CONCURRENCY) {
      await Promise.all(Array.from({ length: Math.min(CREATE_CONCURRENCY, count - made) }, (_, offset) => makeOne(made + offset)));
    }
    return { ids: ids.sort((a, b) => a - b), withCounters };
  };

  // ---- pings --------------------------------------------------------------------------------
  let callerSeq = 0;
  const pingBody = () => {
    callerSeq += 1;
    return { caller_id: `+1415555${String(callerSeq % 10_000).padStart(4, '0')}`, state: STATES[callerSeq % STATES.length], age: 21 + (callerSeq % 45) };
  };
  const ping = async (vanity: string) => {
    const { handler, event, context } = prepare('POST', `/api/v1/inbound_webhooks/ping/${vanity}`, pingBody());
    counter.reset();
    const t0 = performance.now();
    const response = await handler(event, context);
    const ms = performance.now() - t0;
    const body = JSON.parse(response.body ?? '{}') as { success?: boolean; available_buyers_count?: number };
    if (response.statusCode !== 200) throw new Error(`ping answered ${response.statusCode}: ${response.body}`);
    return { ms, counts: structuredClone(counter.current), available: body.available_buyers_count ?? 0 };
  };
  const measure = async (label: string, vanity: string, buyers: number, withCounters: number, pings: number): Promise<PingStats> => {
    for (let i = 0; i < WARMUP_PINGS; i++) await ping(vanity);
    const stats: PingStats = { label, buyers, withCounters, pings, times: [], perPing: [], available: [] };
    for (let i = 0; i < pings; i++) {
      const result = await ping(vanity);
      stats.times.push(result.ms);
      stats.perPing.push(result.counts);
      stats.available.push(result.available);
    }
    return stats;
  };

  const results: PingStats[] = [];
  console.log('Ping: POST /api/v1/inbound_webhooks/ping/{vanity_uri} through the inbound handler (no HTTP), body {caller_id, state, age}.');
  console.log(`DynamoDB Local in memory; ${WARMUP_PINGS} warm-up pings per webhook, then pings one at a time. Times are DynamoDB Local's on this machine, not AWS.`);
  for (const { buyers: count, pings } of RUNS) {
    const setupStarted = performance.now();
    const company = await ensureCompany(`bench-ping-${count}`);
    const pair = await addApiKey(company.id);
    const authorization = `Basic ${Buffer.from(`${pair.publicKey}:${pair.privateKey}`).toString('base64')}`;
    const { ids, withCounters } = await makeBuyers(company.id, count);
    const offer = (await invoke('POST', '/api/v1/offers', { name: `Offer with ${count} buyers`, buyer_ids: ids }, authorization)).offer as { id: number };
    const vanity = `bench-ping-${count}-${crypto.randomUUID().slice(0, 8)}`;
    await invoke('POST', '/api/v1/inbound_webhooks', { vanity_uri: vanity, name: `Ping ${count}`, webhook_type: 'check_for_available_buyer', offer_id: offer.id }, authorization);
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    const stats = await measure(`${count} buyers`, vanity, count, withCounters, pings);
    results.push(stats);
    report(stats, setupSeconds);

    if (count === 100) {
      // The same buyers through a buyer group, with a rate limit: the two conditional requests.
      const group = (await invoke('POST', '/api/v1/buyer_groups/0', { name: 'All buyers', buyer_ids: ids }, authorization)).buyer_group as { id: number };
      const extraVanity = `bench-ping-group-${crypto.randomUUID().slice(0, 8)}`;
      await invoke(
        'POST',
        '/api/v1/inbound_webhooks',
        { vanity_uri: extraVanity, name: 'Ping with group and rate limit', offer_id: offer.id, buyer_group_ids: [group.id], rate_limit_per_day: 1_000_000 },
        authorization,
      );
      const extra = await measure(`${count} buyers, group + rate limit`, extraVanity, count, withCounters, EXTRA_PINGS);
      results.push(extra);
      report(extra);
    }
  }

  // ---- summary ------------------------------------------------------------------------------
  const seen = new Set(results.flatMap((stats) => stats.perPing.flatMap((counts) => Object.keys(counts.byCommand))));
  const columns: Array<readonly [string, string]> = [
    ...COMMAND_COLUMNS,
    ...[...seen].filter((name) => !COMMAND_COLUMNS.some(([known]) => known === name)).map((name) => [name, name.replace(/Command$/, '')] as const),
  ];
  printTable(
    'Per ping (counts: the same for every measured ping, or min-max; capacity: average per ping)',
    ['run', 'pings', 'median ms', 'p99 ms', ...columns.map(([, short]) => short), 'requests', 'Query pages', 'Query items', 'RCU', 'Query RCU', 'WCU', 'PutItem WCU'],
    results.map((stats) => [
      stats.label,
      String(stats.pings),
      percentile(stats.times, 0.5).toFixed(1),
      percentile(stats.times, 0.99).toFixed(1),
      ...columns.map(([name]) => spread(stats.perPing.map((counts) => counts.byCommand[name] ?? 0))),
      spread(stats.perPing.map(totalRequests)),
      spread(stats.perPing.map((counts) => counts.byCommand.QueryCommand ?? 0)),
      spread(stats.perPing.map((counts) => counts.itemsByCommand.QueryCommand ?? 0)),
      average(stats.perPing.map((counts) => counts.readUnits)).toFixed(1),
      unitsOf(stats, 'QueryCommand').toFixed(1),
      average(stats.perPing.map((counts) => counts.writeUnits)).toFixed(1),
      unitsOf(stats, 'PutItemCommand').toFixed(1),
    ]),
  );
  console.log(`\nTotal run time ${((performance.now() - started) / 1000).toFixed(0)} s (including data set-up).`);
  db.destroy();

  function report(stats: PingStats, setupSeconds?: number): void {
    const commands = Object.entries(mergeCommands(stats.perPing))
      .map(([name, value]) => `${value} ${name.replace(/Command$/, '')}`)
      .join(', ');
    console.log(
      `\n${stats.label} (${stats.withCounters} with counter items)${setupSeconds === undefined ? '' : `, set up in ${setupSeconds.toFixed(1)} s`}: ${stats.pings} pings`,
    );
    console.log(`  handler time        median ${percentile(stats.times, 0.5).toFixed(1)} ms, p99 ${percentile(stats.times, 0.99).toFixed(1)} ms`);
    console.log(`  requests per ping   ${commands} (total ${spread(stats.perPing.map(totalRequests))})`);
    console.log(`  Query pages / ping  ${spread(stats.perPing.map((counts) => counts.byCommand.QueryCommand ?? 0))} (${spread(stats.perPing.map((counts) => counts.itemsByCommand.QueryCommand ?? 0))} items: buyers and counter items)`);
    console.log(
      `  capacity per ping   ${average(stats.perPing.map((counts) => counts.readUnits)).toFixed(1)} RCU (the buyers Query ${unitsOf(stats, 'QueryCommand').toFixed(1)}, about ${(unitsOf(stats, 'QueryCommand') * 8).toFixed(0)} KB), ` +
        `${average(stats.perPing.map((counts) => counts.writeUnits)).toFixed(1)} WCU (the ping log PutItem ${unitsOf(stats, 'PutItemCommand').toFixed(1)}, about ${unitsOf(stats, 'PutItemCommand').toFixed(0)} KB)`,
    );
    const callMs = (name?: string) =>
      percentile(
        stats.perPing.map((counts) => (name ? (counts.msByCommand[name] ?? 0) : Object.values(counts.msByCommand).reduce((sum, ms) => sum + ms, 0))),
        0.5,
      ).toFixed(1);
    console.log(`  waiting on DynamoDB median ${callMs()} ms per ping (the buyers Query ${callMs('QueryCommand')} ms, the PutItem ${callMs('PutItemCommand')} ms)`);
    console.log(`  available buyers    ${spread(stats.available)} per ping (of ${stats.buyers})`);
  }
}

/** Average capacity per ping of one command. */
function unitsOf(stats: PingStats, command: string): number {
  return average(stats.perPing.map((counts) => counts.unitsByCommand[command] ?? 0));
}

function totalRequests(counts: CallCounts): number {
  return Object.values(counts.byCommand).reduce((sum, value) => sum + value, 0);
}

/** Per command, the count per ping: one number when every ping made the same, else min-max. */
function mergeCommands(perPing: readonly CallCounts[]): Record<string, string> {
  const names = [...new Set(perPing.flatMap((counts) => Object.keys(counts.byCommand)))];
  const order = (name: string) => {
    const index = COMMAND_COLUMNS.findIndex(([known]) => known === name);
    return index === -1 ? COMMAND_COLUMNS.length : index;
  };
  names.sort((a, b) => order(a) - order(b));
  return Object.fromEntries(names.map((name) => [name, spread(perPing.map((counts) => counts.byCommand[name] ?? 0))]));
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

/** Nearest-rank percentile. */
function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}
