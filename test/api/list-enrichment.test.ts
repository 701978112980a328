import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRecord, nextId } from '../../shared/db/records.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { useDynamoRequests } from '../fixtures/dynamo-requests.js';
import { call, useGateway } from '../fixtures/gateway.js';

/**
 * A list page costs a page (issue 12, "Lists"): a numbered page with an order or a filter picks
 * its rows from a projected read of the attributes the order and filters need, then reads,
 * enriches (the buyers' live counters) and shows only those rows. Asserted on the DynamoDB
 * requests the list makes (an SDK middleware), not on timings.
 */
const gateway = useGateway();
const requests = useDynamoRequests();
let company: TestCompany;
const BUYERS = 1_000;
const names = new Map<number, string>();
/**
 * About 1.5 KB of token filters per buyer, as a buyer taking calls from many zip codes has: the
 * 1,000 buyers pass the 1 MB one Query returns, so the page is picked from projected attributes.
 */
const ZIP_FILTERS = Array.from({ length: 45 }, (_, index) => `zip:${90_000 + index}|${91_000 + index}|${92_000 + index}`);

beforeAll(async () => {
  company = await createTestCompany('list-enrichment');
  const now = new Date('2026-01-01T00:00:00.000Z').toISOString();
  // Names in an order unrelated to ids (7 is prime to 1,000), every third buyer paused.
  for (let made = 0; made < BUYERS; made += 50) {
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        const id = await nextId(company.id, 'buyers');
        const name = `Buyer ${String((id * 7) % BUYERS).padStart(4, '0')}`;
        names.set(id, name);
        await createRecord(company.id, 'buyers', { id, uuid: randomUUID(), created_at: now, updated_at: now, name, paused: id % 3 === 0, time_zone: 'UTC', record_token_filter_list: ZIP_FILTERS });
      }),
    );
  }
}, 120_000);

/**
 * What the last list read of the buyers partition: the record and counter keys BatchGetItem
 * asked for, the Limit of each Query that read whole items, and how many Queries were projected.
 */
function reads() {
  const keys = requests.batchGetKeys().filter((key) => key.pk.endsWith('#buyers'));
  const queries = requests.requests.filter((request) => request.command === 'QueryCommand' && String((request.input.ExpressionAttributeValues as Record<string, unknown>)[':pk']).endsWith('#buyers'));
  return {
    records: keys.filter((key) => !key.sk.startsWith('stats#')).length,
    counters: keys.filter((key) => key.sk.startsWith('stats#')).length,
    wholeQueryLimits: queries.filter((query) => query.input.ProjectionExpression === undefined).map((query) => query.input.Limit),
    projectedQueries: queries.filter((query) => query.input.ProjectionExpression !== undefined).length,
  };
}

/** A page picked by order or filters: the first 1 MB of buyers read whole (one Query), the rest projected, then the page's rows by id. */
const PICKED = (rows: number) => ({ records: rows, counters: rows, wholeQueryLimits: [undefined], projectedQueries: 1 });

async function page(query: string): Promise<{ rows: Record<string, any>[]; metadata: Record<string, any> }> {
  requests.reset();
  const reply = await call(gateway, { path: `/api/v1/buyers?${query}`, authorization: company.authorization });
  expect(reply.status, reply.text).toBe(200);
  return { rows: reply.body.buyers, metadata: reply.body.metadata };
}

describe('numbered buyer pages at 1,000 buyers', () => {
  it('a numbered buyers page with order=name at 1,000 buyers enriches only 25', async () => {
    const sorted = [...names].sort(([, a], [, b]) => a.localeCompare(b));
    for (const number of [1, 3, 40]) {
      const { rows, metadata } = await page(`order=name&page=${number}`);
      expect(rows.map((row) => row.name)).toEqual(sorted.slice((number - 1) * 25, number * 25).map(([, name]) => name));
      expect(metadata).toMatchObject({ total_count: BUYERS, page: number, per_page: 25, total_pages: 40 });
      // Counters read for the 25 rows shown only; past the first Query's 1 MB the set was read as projected attributes.
      expect(reads()).toEqual(PICKED(25));
      expect(rows.every((row) => row.attempt_total_used === 0 && row.concurrency_cap_used === 0)).toBe(true);
    }
  });

  it('a filtered page (paused, fulltext) with an order enriches only its rows', async () => {
    const paused = [...names].filter(([id]) => id % 3 === 0).sort(([, a], [, b]) => b.localeCompare(a));
    const { rows, metadata } = await page('paused=true&order=name&order_dir=desc&page=2&per_page=10');
    expect(rows.map((row) => row.id)).toEqual(paused.slice(10, 20).map(([id]) => id));
    expect(metadata.total_count).toBe(paused.length);
    expect(reads()).toEqual(PICKED(10));

    const searched = await page('fulltext=buyer%2000&order=id&order_dir=desc');
    const expected = [...names].filter(([, name]) => name.toLowerCase().includes('buyer 00')).map(([id]) => id).sort((a, b) => b - a);
    expect(searched.metadata.total_count).toBe(expected.length);
    expect(searched.rows.map((row) => row.id)).toEqual(expected.slice(0, 25));
    expect(reads()).toEqual(PICKED(25));
  });

  it('leaves id-ordered and cursor pages as they were: only up to the page read, whole, nothing projected', async () => {
    const first = await page('page=2');
    expect(first.rows.map((row) => row.id)).toEqual([...names.keys()].sort((a, b) => a - b).slice(25, 50));
    expect(reads()).toEqual({ records: 0, counters: 25, wholeQueryLimits: [50], projectedQueries: 0 });
    const cursor = await page('cursor=-1&per_page=25');
    expect(cursor.rows).toHaveLength(25);
    expect(reads()).toEqual({ records: 0, counters: 25, wholeQueryLimits: [26], projectedQueries: 0 });
  });

  it('a small set is read whole in one Query and is its own page: still only the page enriched', async () => {
    const small = await createTestCompany('list-enrichment-small');
    for (const name of ['Delta', 'Alpha', 'Charlie', 'Bravo']) {
      const reply = await call(gateway, { method: 'POST', path: '/api/v1/buyers', authorization: small.authorization, json: { name } });
      expect(reply.status, reply.text).toBe(200);
    }
    requests.reset();
    const reply = await call(gateway, { path: '/api/v1/buyers?order=name&per_page=3&page=1', authorization: small.authorization });
    expect(reply.body.buyers.map((row: Record<string, unknown>) => row.name)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(reply.body.metadata).toMatchObject({ total_count: 4, total_pages: 2 });
    expect(reads()).toEqual({ records: 0, counters: 3, wholeQueryLimits: [undefined], projectedQueries: 0 });
  });
});
