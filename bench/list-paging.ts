/**
 * List paging costs: what a list request reads from DynamoDB for each way of paging.
 *
 *   npx tsx bench/list-paging.ts        (or: npm run bench:paging)
 *
 * Starts its own DynamoDB Local in memory (bench/support.ts), creates one company with 1000 offer conversions
 * through the repository (every 10th on offer 1, the rest on offer 2), then measures with
 * `queryRecordPage`'s ReadStats and with the capacity DynamoDB reports (ReturnConsumedCapacity,
 * asked for by a client middleware from bench/support.ts, so product code is unchanged):
 *   1. numbered pages in id order (page 1, 10, 40; per_page 25);
 *   2. a cursor walk with per_page 25;
 *   3. filtered cursor pages where 1 record in 10 matches;
 *   4. a whole-set read (re-ordered or filtered numbered lists);
 * and finally the same kinds of request through the engine's list operation, counting every
 * DynamoDB call it makes. Counts of items and queries are exact and machine-independent; no
 * timings are printed, since DynamoDB Local's speed says nothing about DynamoDB's.
 */
import type { OperationRequest } from '../shared/http/request.js';
import { countCalls, printTable, runWithDynamoDbLocal } from './support.js';

const RECORDS = 1000;
const PER_PAGE = 25;
const MATCH_EVERY = 10;
const RESOURCE = 'offer_conversions';

await runWithDynamoDbLocal({ tableName: 'call-tracking-bench', timeoutSeconds: 120 }, run);

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

  const perPage = new Map<number, number>();
  for (const stats of walk) perPage.set(stats.itemsRead, (perPage.get(stats.itemsRead) ?? 0) + 1);
  console.log(`\nCursor walk, items read per page: ${[...perPage].map(([items, pages]) => `${items} x ${pages} pages`).join(', ')} (the last page: ${last.itemsRead}).`);
  console.log(`Filtered cursor pages: ${PER_PAGE + 1} matches wanted, each filtered Query asks for at least 100 items.`);
  db.destroy();
}
