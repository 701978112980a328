/**
 * List paging costs: what a list request reads from DynamoDB for each way of paging.
 *
 *   npx tsx bench/list-paging.ts        (or: npm run bench:paging)
 *
 * Starts its own DynamoDB Local in memory (bench/support.ts). Every DynamoDB request is counted
 * by an SDK middleware on the shared client (bench/support.ts `countCalls`, which also asks for
 * ReturnConsumedCapacity), so product code is unchanged.
 *
 * Part 1, offer conversions (1,000 records, every 10th on offer 1), through the repository:
 *   numbered pages in id order, a cursor walk, filtered cursor pages, a whole-set read; then the
 *   same kinds of request through the engine's list operation.
 *
 * Part 2, the issue-12 cases: buyers and calls at 10,000 records each, through their list
 * operations (in-process, no HTTP): page 1, page 200, cursor pages, with and without an order or
 * a filter. Each case prints its requests (by command), the items returned, the read units
 * DynamoDB Local reports and the median time of 3 runs. Read units and requests are exact and
 * machine-independent; times are DynamoDB Local's on this machine (compare them within a run).
 */
import type { OperationRequest } from '../shared/http/request.js';
import { countCalls, percentile, printTable, runWithDynamoDbLocal } from './support.js';

const RECORDS = 1000;
const PER_PAGE = 25;
const MATCH_EVERY = 10;
const RESOURCE = 'offer_conversions';
/** Part 2: buyers and calls each, and the runs a case is timed over. */
const LARGE = 10_000;
const RUNS = 3;

await runWithDynamoDbLocal({ tableName: 'call-tracking-bench', timeoutSeconds: 600 }, run);

async function run(): Promise<void> {
  const { db, tableName } = await import('../shared/db/client.js');
  const { ensureTable } = await import('../shared/local/table-setup.js');
  const { ensureCompany } = await import('../shared/db/companies.js');
  const { createRecord, nextId, queryAllRecords, queryRecordPage } = await import('../shared/db/records.js');
  type ReadStats = import('../shared/db/records.js').ReadStats;
  type StoredRecord = import('../shared/db/records.js').StoredRecord;
  const { recordPredicate } = await import('../shared/resources/list-conditions.js');

  await ensureTable(db, tableName);

  // ---- capacity and call counting on the shared client (read calls only) -------------------
  const counter = countCalls(db, new Set(['QueryCommand', 'GetItemCommand', 'BatchGetItemCommand']));
  const resetCalls = () => counter.reset();

  // ---- data ---------------------------------------------------------------------------------
  const company = await ensureCompany('bench');
  const now = new Date().toISOString();
  const makeOne = async (): Promise<void> => {
    const id = await nextId(company.id, RESOURCE);
    const record: StoredRecord = {
      payout_type: 'usd',
      payout: 12.5,
      revenue_percentage: null,
      sortable_order: id % 7,
      record_token_filter_list: ['state:CA|NY', 'age:>=21'],
      duration: 90,
      duplicate_timeframe: 86_400,
      name: `Qualified call payout ${id}`,
      offer_id: id % MATCH_EVERY === 0 ? 1 : 2,
      id,
      uuid: crypto.randomUUID(),
      created_at: now,
      updated_at: now,
      user_updated_at: now,
    };
    await createRecord(company.id, RESOURCE, record);
  };
  for (let made = 0; made < RECORDS; made += 25) await Promise.all(Array.from({ length: Math.min(25, RECORDS - made) }, makeOne));

  const rows: string[][] = [];
  const show = (label: string, stats: ReadStats, records: number) => {
    rows.push([label, String(records), String(stats.queries), String(stats.itemsRead), counter.current.readUnits.toFixed(1)]);
  };
  const measure = async (label: string, read: (stats: ReadStats) => Promise<number>) => {
    resetCalls();
    const stats: ReadStats = { queries: 0, itemsRead: 0 };
    const records = await read(stats);
    show(label, stats, records);
    return stats;
  };
  console.log(`List paging: ${RECORDS} ${RESOURCE} records in one company, per_page ${PER_PAGE}, 1 in ${MATCH_EVERY} on offer 1.`);
  console.log('Items read = items DynamoDB returned to the Query calls (ReadStats); RCU = capacity DynamoDB Local reports (eventually consistent reads).');

  // 1. Numbered pages in id order: the engine asks for page * per_page records and shows the last per_page.
  for (const page of [1, 10, 40]) {
    await measure(`numbered page ${page} (id order)`, async (stats) => {
      const { records } = await queryRecordPage({ companyId: company.id, resource: RESOURCE, direction: 'asc', limit: page * PER_PAGE, stats });
      return records.slice((page - 1) * PER_PAGE).length;
    });
  }

  // 2. Cursor walk: each page asks for per_page + 1 (the extra one says whether there is a next page).
  const walk: ReadStats[] = [];
  let afterId: number | undefined;
  let walkRecords = 0;
  let walkUnits = 0;
  for (let guard = 0; guard < RECORDS; guard++) {
    resetCalls();
    const stats: ReadStats = { queries: 0, itemsRead: 0 };
    const { records } = await queryRecordPage({ companyId: company.id, resource: RESOURCE, direction: 'desc', limit: PER_PAGE + 1, afterId, stats });
    const shown = records.slice(0, PER_PAGE);
    walk.push(stats);
    walkRecords += shown.length;
    walkUnits += counter.current.readUnits;
    if (records.length <= PER_PAGE) break;
    afterId = shown[shown.length - 1]!.id;
  }
  const first = walk[0]!;
  const last = walk[walk.length - 1]!;
  rows.push([
    `cursor walk, ${walk.length} pages (each)`,
    `${PER_PAGE}`,
    `${first.queries}`,
    `${Math.min(...walk.map((s) => s.itemsRead))}-${Math.max(...walk.map((s) => s.itemsRead))}`,
    (walkUnits / walk.length).toFixed(1),
  ]);
  rows.push([
    `cursor walk, ${walk.length} pages (total)`,
    String(walkRecords),
    String(walk.reduce((sum, s) => sum + s.queries, 0)),
    String(walk.reduce((sum, s) => sum + s.itemsRead, 0)),
    walkUnits.toFixed(1),
  ]);

  // 3. Filtered cursor pages: 1 in 10 records match, so a page of 25 needs about 250 items read.
  const accept = recordPredicate({ equals: { offer_id: 1 }, fulltextFields: [] })!;
  let filteredAfter: number | undefined;
  for (let page = 1; page <= 4; page++) {
    await measure(`filtered cursor page ${page} (1 in ${MATCH_EVERY})`, async (stats) => {
      const { records } = await queryRecordPage({ companyId: company.id, resource: RESOURCE, direction: 'desc', limit: PER_PAGE + 1, afterId: filteredAfter, accept, stats });
      const shown = records.slice(0, PER_PAGE);
      filteredAfter = records.length > PER_PAGE ? shown[shown.length - 1]!.id : undefined;
      return shown.length;
    });
    if (filteredAfter === undefined) break;
  }

  // 4. Whole set: what a numbered list that is re-ordered or filtered reads before sorting and slicing.
  await measure('whole set (re-ordered/filtered numbered list)', async (stats) => (await queryAllRecords(company.id, RESOURCE, stats)).length);

  printTable('Repository reads (queryRecordPage / queryAllRecords)', ['read', 'records', 'queries', 'items read', 'RCU'], rows);

  // ---- the same through the engine's list operation: every DynamoDB read it makes ------------
  const { resourceByName } = await import('../shared/resources/registry.js');
  const { crudOperations } = await import('../shared/resources/engine.js');
  const { routes } = await import('../shared/http/routes.js');
  const { parseQuery } = await import('../shared/http/params.js');
  const resource = resourceByName(RESOURCE)!;
  const list = crudOperations(resource)[`${RESOURCE}.list`]!;
  const route = routes.find((candidate) => candidate.operation === `${RESOURCE}.list` && candidate.path === `/api/v1/${RESOURCE}`)!;
  const engineRows: string[][] = [];
  const viaEngine = async (query: string, label = query): Promise<Record<string, unknown>> => {
    const request: OperationRequest = {
      route,
      params: parseQuery(query),
      pathParams: {},
      auth: { companyId: company.id, method: 'api_key' },
      requestId: 'bench',
      url: `http://bench/api/v1/${RESOURCE}?${query}`,
      headers: {},
      now: new Date(),
    };
    resetCalls();
    const result = await list(request);
    if (result.kind !== 'list') throw new Error(`unexpected ${result.kind} result`);
    const commands = Object.entries(counter.current.byCommand)
      .map(([name, count]) => `${count} ${name.replace(/Command$/, '')}`)
      .join(', ');
    engineRows.push([`GET /api/v1/${RESOURCE}?${label}`, String(result.records.length), commands, String(counter.current.itemsReturned), counter.current.readUnits.toFixed(1)]);
    return result.metadata;
  };
  // Warm the cursor signing key (read once per process), so the rows below show steady state.
  await viaEngine(`cursor=-1&per_page=1&serializer=offer_conversion_grid`);
  engineRows.length = 0;
  await viaEngine(`per_page=${PER_PAGE}&serializer=offer_conversion_grid`);
  await viaEngine(`per_page=${PER_PAGE}&page=10&serializer=offer_conversion_grid`);
  const firstPage = await viaEngine(`cursor=-1&per_page=${PER_PAGE}&serializer=offer_conversion_grid`);
  await viaEngine(
    `cursor=${encodeURIComponent(String(firstPage.next_cursor))}&per_page=${PER_PAGE}&serializer=offer_conversion_grid`,
    `cursor=<next_cursor>&per_page=${PER_PAGE}&serializer=offer_conversion_grid`,
  );
  await viaEngine(`cursor=-1&per_page=${PER_PAGE}&offer_id=1&serializer=offer_conversion_grid`);
  await viaEngine(`cursor=-1&per_page=${PER_PAGE}&offer_id=1`);
  await viaEngine(`per_page=${PER_PAGE}&offer_id=1&serializer=offer_conversion_grid`);
  printTable('Engine list requests (every read call; offer conversions sort by sortable_order unless paged by cursor)', ['request', 'records', 'calls', 'items', 'RCU'], engineRows);

  await buyersAndCalls(counter);

  const perPage = new Map<number, number>();
  for (const stats of walk) perPage.set(stats.itemsRead, (perPage.get(stats.itemsRead) ?? 0) + 1);
  console.log(`\nCursor walk, items read per page: ${[...perPage].map(([items, pages]) => `${items} x ${pages} pages`).join(', ')} (the last page: ${last.itemsRead}).`);
  console.log(`Filtered cursor pages: ${PER_PAGE + 1} matches wanted, each filtered Query asks for at least 100 items.`);
  db.destroy();
}

/** The figures of one list request: requests by command, items returned, read units, median time of the runs. */
interface CaseRow {
  label: string;
  rows: number;
  requests: number;
  byCommand: string;
  items: number;
  readUnits: number;
  ms: number;
}

/** Part 2: buyers and calls at 10,000 records, through their list operations. */
async function buyersAndCalls(counter: import('./support.js').CallCounter): Promise<void> {
  const { ensureCompany } = await import('../shared/db/companies.js');
  const { applyCounterChange } = await import('../shared/buyers/counters.js');
  const { createCall } = await import('../shared/calls/call-store.js');
  type CallRecord = import('../shared/calls/call-store.js').CallRecord;
  const { timeSortableId } = await import('../shared/db/ids.js');
  const { resourceByName } = await import('../shared/resources/registry.js');
  const { crudOperations } = await import('../shared/resources/engine.js');
  const { listCalls } = await import('../functions/calls/list.js');
  const { routes } = await import('../shared/http/routes.js');
  const { parseQuery } = await import('../shared/http/params.js');
  const { cursorKey, nextCursor } = await import('../shared/http/list-cursor.js');

  const company = await ensureCompany('bench-large-lists');
  const now = new Date();
  const nowIso = now.toISOString();

  // ---- 10,000 buyers (ids 1..10,000): every other one paused, half with counter items ---------
  let started = performance.now();
  const zones = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles'];
  // Written with BatchWriteItem (test/fixtures/bulk-buyers.ts): 10,000 create transactions would
  // make the set-up most of the run.
  const { seedBuyers } = await import('../test/fixtures/bulk-buyers.js');
  await seedBuyers(company.id, LARGE, (index) => ({
    // Names in an order unrelated to ids (7,919 is prime).
    name: `Buyer ${String((index * 7919) % LARGE).padStart(5, '0')}`,
    time_zone: zones[index % zones.length]!,
    paused: index % 2 === 1,
    tier: index % 3,
    weight: 1 + (index % 5),
    current_conversion_revenue: 15 + (index % 30) * 1.25,
    current_conversion_name: 'Qualified call',
    current_conversion_duration: 90,
    attempt_daily_limit: 50 + (index % 8) * 25,
    record_token_filter_list: index % 4 === 0 ? ['age:>=21', 'state:!=FL'] : [],
  }));
  // Half the buyers took calls today: their counter items, through the counters module.
  const countCalls_ = async (index: number): Promise<void> => {
    const attempts = 1 + (index % 17);
    const result = await applyCounterChange(company.id, index + 1, zones[index % zones.length]!, now, { increments: { attempt: attempts, connection: Math.floor(attempts / 2) }, at: nowIso });
    if (!result.ok) throw new Error(`counter change refused: ${result.reason}`);
  };
  for (let made = 0; made < LARGE; made += 200) await Promise.all(Array.from({ length: 100 }, (_, offset) => countCalls_(made + offset * 2)));
  const buyerSeconds = (performance.now() - started) / 1000;

  // ---- 10,000 calls over the last 10 days (1,000 a day), every other one on offer 1 -----------
  started = performance.now();
  const DAY_MS = 86_400_000;
  const newest = now.getTime() - 60_000;
  const makeCall = async (index: number): Promise<void> => {
    const ms = newest - Math.round((index * 10 * DAY_MS) / LARGE);
    const created = new Date(ms).toISOString();
    const answered = index % 3 === 0 ? 0 : 30 + (index % 240);
    const converted = answered >= 60;
    const ended = new Date(ms + (answered + 15) * 1000).toISOString();
    const call: CallRecord & { carrier: string; carrier_call_id: string } = {
      id: timeSortableId(ms),
      uuid: crypto.randomUUID(),
      secure_token: crypto.randomUUID().replace(/-/g, ''),
      carrier: 'seed',
      carrier_call_id: `seed-${crypto.randomUUID()}`,
      created_at: created,
      updated_at: ended,
      user_updated_at: null,
      ended_at: ended,
      status: answered ? 'completed' : 'no_answer',
      in_progress: false,
      caller_number: `+1415${String(2_000_000 + (index % 700)).padStart(7, '0')}`,
      caller_city: 'San Francisco',
      caller_state: 'CA',
      caller_country: 'US',
      number: '+17025550300',
      number_id: 1 + (index % 3),
      offer_id: 1 + (index % 2),
      offer: `Offer ${1 + (index % 2)}`,
      traffic_source_id: 1,
      traffic_source: 'Search',
      buyer_id: 1 + (index % 5),
      buyer: `Buyer ${1 + (index % 5)}`,
      total_duration: answered + 15,
      answered_duration: answered,
      buyer_converted: converted,
      offer_converted: converted,
      revenue: converted ? 20 : 0,
      buyer_revenue: converted ? 20 : 0,
      payout: converted ? 4 : 0,
      traffic_source_payout: converted ? 4 : 0,
      profit: converted ? 16 : 0,
      has_recording: false,
      recording_url: null,
      data: { source: index % 2 ? 'search' : 'social', zip: String(90_000 + (index % 100)) },
      timeline: [
        { at: created, type: 'incoming' },
        { at: ended, type: 'ended', status: answered ? 'completed' : 'no_answer' },
      ],
      rolled_up: true,
      version: 3,
    };
    if (!(await createCall(company.id, call))) throw new Error('call not created');
  };
  for (let made = 0; made < LARGE; made += 100) await Promise.all(Array.from({ length: 100 }, (_, offset) => makeCall(made + offset)));
  const callSeconds = (performance.now() - started) / 1000;
  console.log(`\nPart 2: ${LARGE} buyers (set up in ${buyerSeconds.toFixed(0)} s) and ${LARGE} calls over 10 days (${callSeconds.toFixed(0)} s) in one company; per_page 25.`);

  // ---- the cases ------------------------------------------------------------------------------
  const key = await cursorKey();
  const request = (path: string, operation: string, query: string): OperationRequest => ({
    route: routes.find((candidate) => candidate.operation === operation && candidate.path === path)!,
    params: parseQuery(query),
    pathParams: {},
    auth: { companyId: company.id, method: 'api_key' },
    requestId: 'bench',
    url: `http://bench${path}?${query}`,
    headers: {},
    now,
  });
  const measureCase = async (label: string, run: () => Promise<number>): Promise<CaseRow> => {
    const times: number[] = [];
    let rows = 0;
    for (let attempt = 0; attempt < RUNS; attempt++) {
      counter.reset();
      const begun = performance.now();
      rows = await run();
      times.push(performance.now() - begun);
    }
    const counts = counter.current;
    return {
      label,
      rows,
      requests: Object.values(counts.byCommand).reduce((sum, count) => sum + count, 0),
      byCommand: Object.entries(counts.byCommand).map(([name, count]) => `${count} ${name.replace(/Command$/, '').replace('Item', '')}`).join(', '),
      items: counts.itemsReturned,
      readUnits: counts.readUnits,
      ms: percentile(times, 50),
    };
  };
  const table = (title: string, cases: CaseRow[]) =>
    printTable(
      title,
      ['request', 'rows', 'requests', 'by command', 'items', 'RCU', 'ms (median of 3)'],
      cases.map((row) => [row.label, String(row.rows), String(row.requests), row.byCommand, String(row.items), row.readUnits.toFixed(1), row.ms.toFixed(0)]),
    );

  const buyersList = crudOperations(resourceByName('buyers')!)['buyers.list']!;
  const buyers = async (query: string): Promise<number> => {
    const result = await buyersList(request('/api/v1/buyers', 'buyers.list', query));
    if (result.kind !== 'list') throw new Error(`unexpected ${result.kind}`);
    return result.records.length;
  };
  // A cursor in the middle of the set, as a client paging by cursor would hold after 200 pages.
  const middleBuyerCursor = encodeURIComponent(String(nextCursor(true, { id: LARGE / 2 }, key, company.id, 'buyers')));
  await buyers('cursor=-1&per_page=1'); // warm the cursor key and the behaviour modules
  const buyerCases: CaseRow[] = [];
  for (const [label, query] of [
    ['page 1', 'page=1'],
    ['page 200', 'page=200'],
    ['cursor first page', 'cursor=-1'],
    ['cursor page at record 5,000', `cursor=${middleBuyerCursor}`],
    ['order=name page 1', 'order=name&page=1'],
    ['order=name page 200', 'order=name&page=200'],
    ['paused=true page 1', 'paused=true&page=1'],
    ['paused=true page 200', 'paused=true&page=200'],
    ['paused=true&order=name page 200', 'paused=true&order=name&page=200'],
    ['fulltext=buyer 01 page 1', 'fulltext=buyer%2001&page=1'],
    ['cursor first page, paused=true', 'cursor=-1&paused=true'],
    ['order=attempt_daily_used page 1 (live counter)', 'order=attempt_daily_used&page=1'],
  ] as const) {
    buyerCases.push(await measureCase(label, () => buyers(query)));
  }
  table(`GET /api/v1/buyers at ${LARGE} buyers (per_page 25)`, buyerCases);

  const calls = async (query: string): Promise<number> => {
    const result = await listCalls(request('/api/v1/calls', 'calls.list', query));
    // The calls list answers a raw response (its next cursor also travels in a header).
    if (result.kind !== 'raw') throw new Error(`unexpected ${result.kind}`);
    return (JSON.parse(String(result.response.body)) as { calls: unknown[] }).calls.length;
  };
  const middleCall = newest - 5 * DAY_MS;
  const middleCallCursor = encodeURIComponent(String(nextCursor(true, { id: timeSortableId(middleCall) }, key, company.id, 'calls')));
  await calls('cursor=-1&per_page=1');
  const callCases: CaseRow[] = [];
  for (const [label, query] of [
    ['page 1', 'page=1'],
    ['page 200', 'page=200'],
    ['cursor first page', 'cursor=-1'],
    ['cursor page at call 5,000', `cursor=${middleCallCursor}`],
    ['offer_id=1 page 1', 'offer_id=1&page=1'],
    ['offer_id=1 page 200', 'offer_id=1&page=200'],
    ['cursor first page, offer_id=1', 'cursor=-1&offer_id=1'],
    ['buyer_converted=true page 1', 'buyer_converted=true&page=1'],
  ] as const) {
    callCases.push(await measureCase(label, () => calls(query)));
  }
  table(`GET /api/v1/calls at ${LARGE} calls over 10 days (newest first; per_page 25)`, callCases);
}
