/**
 * Real-time bidding speed against the goals of issue 30 (docs/rtb.md), printed, not asserted:
 *
 *   npx tsx bench/rtb.ts        (or: npm run bench:rtb)
 *
 * Starts its own DynamoDB Local in memory (bench/support.ts) and bidders on loopback
 * (shared/local/bidder.ts; WEBHOOK_ALLOWED_CIDRS=127.0.0.0/8 for this process). One company with
 * five fixed buyers and three inbound webhooks (include_dynamic_buyers): on an offer of the fixed
 * buyers only; of the same plus 10 bidding buyers, each its own endpoint answering after 200 ms;
 * of the fixed buyers plus one bidder that never answers (rtb_timeout_ms 500). Pings go through
 * the inbound handler (no HTTP for the ping itself; the bids are real HTTP on loopback), the three
 * kinds alternated, each with a caller of its own (no cached bid), after warm-up pings.
 *
 * Goals: 10 bidders at 200 ms answered within 1.3 x (200 ms + the fixed-only ping); one bidder
 * that never answers within 500 ms + the fixed-only ping; DynamoDB requests per ping not growing
 * with the bidders beyond the bid log's batched writes.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { ApiEvent, ApiResponse } from '../shared/http/request.js';
import { countCalls, percentile, printTable, runWithDynamoDbLocal, type CallCounts } from './support.js';

const PINGS = 20;
const WARMUP = 3;
const BIDDERS = 10;
const BID_DELAY_MS = 200;
const NEVER_TIMEOUT_MS = 500;
const GOAL_RATIO = 1.3;

await runWithDynamoDbLocal({ tableName: 'call-tracking-bench-rtb', timeoutSeconds: 300 }, run);

async function run(): Promise<void> {
  process.env.WEBHOOK_ALLOWED_CIDRS = '127.0.0.0/8';
  const { db, tableName } = await import('../shared/db/client.js');
  const { ensureTable } = await import('../shared/local/table-setup.js');
  const { addApiKey, ensureCompany } = await import('../shared/db/companies.js');
  const { routes } = await import('../shared/http/routes.js');
  const { matchRoute } = await import('../shared/http/route-match.js');
  const { buildApiEvent, buildLambdaContext } = await import('../shared/local/lambda-event.js');
  const { startBidder } = await import('../shared/local/bidder.js');
  type Handler = (event: ApiEvent, context: ReturnType<typeof buildLambdaContext>) => Promise<ApiResponse>;
  const handlers: Record<string, Handler> = {
    inbound: (await import('../functions/inbound/handler.js')).handler as unknown as Handler,
    offers: (await import('../functions/offers/handler.js')).handler as unknown as Handler,
    buyers: (await import('../functions/buyers/handler.js')).handler as unknown as Handler,
  };
  await ensureTable(db, tableName);
  const counter = countCalls(db);

  const invoke = async (method: string, path: string, json: unknown, authorization?: string): Promise<{ status: number; body: Record<string, any> }> => {
    const match = matchRoute(method, path, routes);
    if (match.kind !== 'matched') throw new Error(`no route for ${method} ${path}`);
    const handler = handlers[match.route.group]!;
    const event = buildApiEvent(
      { method, url: path, headers: { host: 'localhost', 'content-type': 'application/json', 'user-agent': 'bench', ...(authorization ? { authorization } : {}) }, body: Buffer.from(JSON.stringify(json)), sourceIp: '127.0.0.1' },
      match.route,
      match.pathParameters,
    );
    const response = await handler(event, buildLambdaContext(match.route.group, event.requestContext.requestId));
    return { status: response.statusCode ?? 500, body: JSON.parse(response.body ?? "{}") as Record<string, any> };
  };
  const create = async (path: string, json: Record<string, unknown>, authorization: string) => {
    const reply = await invoke('POST', path, json, authorization);
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return Object.values(reply.body).find((value) => value && typeof value === 'object' && 'id' in value) as { id: number };
  };

  const company = await ensureCompany(`bench-rtb-${crypto.randomUUID().slice(0, 8)}`);
  const pair = await addApiKey(company.id);
  const authorization = `Basic ${Buffer.from(`${pair.publicKey}:${pair.privateKey}`).toString('base64')}`;
  const fixed = [];
  for (let index = 0; index < 5; index++) {
    fixed.push((await create('/api/v1/buyers', { name: `Fixed ${index + 1}`, number: `+1212555${1000 + index}`, tier: index, current_conversion_revenue: 10 + index, current_conversion_duration: 60 }, authorization)).id);
  }
  const running = await Promise.all(Array.from({ length: BIDDERS }, (_, index) => startBidder({ bid: 20 + index, number: `+1415555${2000 + index}`, delayMs: BID_DELAY_MS })));
  const bidders = [];
  for (const [index, bidder] of running.entries()) {
    bidders.push((await create('/api/v1/buyers', { name: `Bidder ${index + 1}`, buyer_type: 'rtb', rtb_url: bidder.url, rtb_timeout_ms: 800, current_conversion_duration: 60 }, authorization)).id);
  }
  const silent = await startBidder({ respond: () => 'never' });
  const never = (await create('/api/v1/buyers', { name: 'Never answers', buyer_type: 'rtb', rtb_url: silent.url, rtb_timeout_ms: NEVER_TIMEOUT_MS }, authorization)).id;
  const webhookOf = async (label: string, buyerIds: number[]) => {
    const offer = await create('/api/v1/offers', { name: label, buyer_ids: buyerIds }, authorization);
    const vanity = `bench-rtb-${label}-${crypto.randomUUID().slice(0, 8)}`;
    await create('/api/v1/inbound_webhooks', { vanity_uri: vanity, offer_id: offer.id, include_dynamic_buyers: true }, authorization);
    return vanity;
  };
  const kinds = [
    { label: 'fixed only (5)', vanity: await webhookOf('fixed', fixed) },
    { label: `5 fixed + ${BIDDERS} bidders at ${BID_DELAY_MS} ms`, vanity: await webhookOf('bidders', [...fixed, ...bidders]) },
    { label: `5 fixed + 1 bidder never answering (${NEVER_TIMEOUT_MS} ms)`, vanity: await webhookOf('never', [...fixed, never]) },
  ];

  let line = 0;
  const ping = async (vanity: string) => {
    const caller = `+1415556${String(line++).padStart(4, '0')}`;
    counter.reset();
    const started = performance.now();
    const reply = await invoke('POST', `/api/v1/inbound_webhooks/ping/${vanity}`, { caller_id: caller, state: 'CA' });
    const ms = performance.now() - started;
    if (reply.status !== 200) throw new Error(`ping ${vanity}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return { ms, counts: structuredClone(counter.current), offered: (reply.body.buyers as unknown[]).length };
  };
  for (let round = 0; round < WARMUP; round++) for (const kind of kinds) await ping(kind.vanity);
  const results = kinds.map(() => ({ ms: [] as number[], counts: [] as CallCounts[], offered: 0 }));
  for (let round = 0; round < PINGS; round++) {
    for (const [index, kind] of kinds.entries()) {
      const result = await ping(kind.vanity);
      results[index]!.ms.push(result.ms);
      results[index]!.counts.push(result.counts);
      results[index]!.offered = result.offered;
    }
  }
  await Promise.all([...running, silent].map((bidder) => bidder.close()));

  const median = (index: number) => percentile(results[index]!.ms, 50);
  const requests = (counts: CallCounts) => Object.entries(counts.byCommand).map(([command, n]) => `${command.replace(/Command$/, '')} ${n}`).join(', ');
  console.log(`Real-time bidding: ${PINGS} pings of each kind, alternated, through the inbound handler (bids over HTTP on loopback, keep-alive).`);
  // Timers and DynamoDB Local slow down with the machine's load: the figures mean little on a busy machine.
  console.log(`Load average (1 min) during the run: ${loadavg()[0]!.toFixed(2)} on ${availableParallelism()} cores.`);
  printTable(
    'Pings',
    ['webhook', 'median ms', 'p90 ms', 'buyers offered', 'DynamoDB requests per ping'],
    kinds.map((kind, index) => [kind.label, median(index).toFixed(1), percentile(results[index]!.ms, 90).toFixed(1), String(results[index]!.offered), requests(results[index]!.counts.at(-1)!)]),
  );
  const fixedMs = median(0);
  const biddersGoal = GOAL_RATIO * (BID_DELAY_MS + fixedMs);
  const neverGoal = NEVER_TIMEOUT_MS + fixedMs;
  const fixedRequests = Object.values(results[0]!.counts.at(-1)!.byCommand).reduce((sum, n) => sum + n, 0);
  const bidderRequests = Object.values(results[1]!.counts.at(-1)!.byCommand).reduce((sum, n) => sum + n, 0);
  printTable('Against the goals', ['goal', 'measured', 'target', 'met'], [
    [`${BIDDERS} bidders at ${BID_DELAY_MS} ms`, `${median(1).toFixed(1)} ms`, `<= ${biddersGoal.toFixed(1)} ms (1.3 x (${BID_DELAY_MS} + ${fixedMs.toFixed(1)}))`, median(1) <= biddersGoal ? 'yes' : 'NO'],
    ['one bidder never answering', `${median(2).toFixed(1)} ms`, `<= ${neverGoal.toFixed(1)} ms (${NEVER_TIMEOUT_MS} + ${fixedMs.toFixed(1)})`, median(2) <= neverGoal ? 'yes' : 'NO'],
    [
      'DynamoDB requests with bidders',
      `${bidderRequests} (fixed only: ${fixedRequests})`,
      `fixed only + bid cache Get + bid log BatchWrite (1 per 25 bidders) + the hour's counts Update + bid cache Update`,
      bidderRequests <= fixedRequests + 4 ? 'yes' : 'NO',
    ],
  ]);
}
