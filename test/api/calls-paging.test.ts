import { randomUUID } from 'node:crypto';
import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CALL_DAY_COUNT_SHARDS } from '../../shared/calls/call-day-counts.js';
import { createCall, type CallRecord } from '../../shared/calls/call-store.js';
import { db, tableName } from '../../shared/db/client.js';
import { timeSortableId } from '../../shared/db/ids.js';
import { keys } from '../../shared/db/keys.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call as send, startTestGateway, type TestGateway } from '../fixtures/gateway.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const CALLS_IN_DAY = 1000;
const STATUSES = ['completed', 'completed', 'completed', 'no_answer', 'no_buyer', 'canceled'] as const;
const COLUMNS = ['id', 'uuid', 'created_at', 'caller_number', 'status', 'buyer_id', 'revenue', 'buyer_converted'];

let gateway: TestGateway;
let company: TestCompany;
/** The day that holds the 1,000 calls (UTC), three days ago. */
let day: string;
let dayIds: Set<number>;
let neighbourIds: number[];

/** A finished call as the call flow leaves it, made at `ms`; `i` varies its fields. */
function callAt(ms: number, i: number): CallRecord & { carrier: string; carrier_call_id: string } {
  const created = new Date(ms);
  const status = STATUSES[i % STATUSES.length]!;
  const answered = status === 'completed' ? 30 + (i % 240) : 0;
  const converted = status === 'completed' && answered >= 60;
  const revenue = converted ? 10 + (i % 5) * 2.5 : 0;
  const ended = new Date(ms + (answered + 15) * 1000).toISOString();
  return {
    id: timeSortableId(ms),
    uuid: randomUUID(),
    secure_token: randomUUID().replace(/-/g, ''),
    carrier: 'seed',
    carrier_call_id: `seed-${randomUUID()}`,
    created_at: created.toISOString(),
    updated_at: ended,
    user_updated_at: null,
    ended_at: ended,
    status,
    in_progress: false,
    caller_number: `+1415${String(2000000 + (i % 700)).padStart(7, '0')}`,
    caller_city: 'San Francisco',
    caller_state: 'CA',
    caller_country: 'US',
    number: '+17025550300',
    number_id: 1 + (i % 3),
    offer_id: 1 + (i % 2),
    offer: `Offer ${1 + (i % 2)}`,
    traffic_source_id: i % 4 === 0 ? null : 1,
    traffic_source: i % 4 === 0 ? null : 'Search',
    buyer_id: status === 'no_buyer' ? null : 1 + (i % 5),
    buyer: status === 'no_buyer' ? null : `Buyer ${1 + (i % 5)}`,
    total_duration: answered + 15,
    answered_duration: answered,
    buyer_converted: converted,
    offer_converted: converted,
    revenue,
    buyer_revenue: revenue,
    payout: converted ? 4 : 0,
    traffic_source_payout: converted ? 4 : 0,
    profit: converted ? revenue - 4 : 0,
    has_recording: false,
    recording_url: null,
    data: { source: i % 2 ? 'search' : 'social', zip: String(90000 + (i % 100)) },
    timeline: [
      { at: created.toISOString(), type: 'incoming' },
      { at: ended, type: 'ended', status },
    ],
    rolled_up: true,
    version: 3,
  };
}

async function insertAll(calls: Array<CallRecord & { carrier: string; carrier_call_id: string }>): Promise<void> {
  for (let start = 0; start < calls.length; start += 25) {
    const results = await Promise.all(calls.slice(start, start + 25).map((call) => createCall(company.id, call)));
    expect(results.every(Boolean)).toBe(true);
  }
}

beforeAll(async () => {
  gateway = await startTestGateway();
  company = await createTestCompany('calls-paging');
  const dayStart = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) - 3 * DAY_MS;
  day = new Date(dayStart).toISOString().slice(0, 10);
  // Spread over the whole day, first and last millisecond included.
  const calls = Array.from({ length: CALLS_IN_DAY }, (_, i) => callAt(dayStart + Math.round((i * (DAY_MS - 1)) / (CALLS_IN_DAY - 1)), i));
  // Just outside the day on either side: must not be listed.
  const neighbours = [callAt(dayStart - 1, 1), callAt(dayStart + DAY_MS, 2)];
  await insertAll([...calls, ...neighbours]);
  dayIds = new Set(calls.map((call) => call.id));
  neighbourIds = neighbours.map((call) => call.id);
  expect(dayIds.size).toBe(CALLS_IN_DAY);
}, 120_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await gateway.close();
});

function dayQuery(extra: string): string {
  const from = encodeURIComponent(`${day} 00:00:00 +0000`);
  const to = encodeURIComponent(`${day} 23:59:59.999 +0000`);
  return `/api/v1/calls?created_at_from=${from}&created_at_to=${to}&${extra}`;
}

describe('a reporting client paging a day of 1,000 calls', () => {
  it('gets every call exactly once with root=false&columns=..., by cursor, 250 a page, reading only that day (and its day count) by Query', async () => {
    const send_ = vi.spyOn(db, 'send');
    const seen: number[] = [];
    const pageSizes: number[] = [];
    let cursor = '-1';
    for (let requests = 0; requests < 10; requests++) {
      const reply = await send(gateway, { path: dayQuery(`per_page=250&root=false&columns=${COLUMNS.join(',')}&cursor=${encodeURIComponent(cursor)}`), authorization: company.authorization });
      expect(reply.status, reply.text).toBe(200);
      // The bare array: no envelope, no metadata; the next cursor comes in a header.
      expect(Array.isArray(reply.body)).toBe(true);
      for (const row of reply.body as Record<string, unknown>[]) {
        expect(Object.keys(row)).toEqual(COLUMNS);
        expect(String(row.created_at).slice(0, 10)).toBe(day);
      }
      pageSizes.push(reply.body.length);
      seen.push(...(reply.body as Array<{ id: number }>).map((row) => row.id));
      const next = reply.headers.get('x-next-cursor');
      expect(next).not.toBeNull();
      if (next === '0') break;
      cursor = next!;
    }
    expect(pageSizes).toEqual([250, 250, 250, 250]);
    expect(seen).toHaveLength(CALLS_IN_DAY);
    expect(new Set(seen).size).toBe(CALLS_IN_DAY);
    expect(new Set(seen)).toEqual(dayIds);
    for (const id of neighbourIds) expect(seen).not.toContain(id);
    // Newest first across pages.
    expect(seen).toEqual([...seen].sort((a, b) => b - a));

    const commands = send_.mock.calls.map(([command]) => command);
    send_.mockRestore();
    expect(commands.some((command) => command instanceof ScanCommand)).toBe(false);
    const dayPartition = keys.dayPartition(company.id, 'calls', day);
    const queries = commands.filter((command) => command instanceof QueryCommand) as unknown as QueryCommand[];
    const partitions = queries.map((query) => query.input.ExpressionAttributeValues?.[':pk']);
    // Each page: one Query of the window's day counts, then only the day that has calls.
    expect(partitions.filter((pk) => pk === keys.callDayCounts(company.id))).toHaveLength(pageSizes.length);
    expect(partitions.filter((pk) => pk === dayPartition).length).toBeGreaterThanOrEqual(4);
    expect(partitions.every((pk) => pk === dayPartition || pk === keys.callDayCounts(company.id))).toBe(true);
  });

  it('gets the same calls, in the same order, as CSV pages and as page numbers', async () => {
    const fromCsv: number[] = [];
    let cursor = '-1';
    for (let requests = 0; requests < 10; requests++) {
      const reply = await send(gateway, { path: dayQuery(`per_page=500&format=csv&columns=id,revenue&cursor=${encodeURIComponent(cursor)}`), authorization: company.authorization });
      expect(reply.status, reply.text).toBe(200);
      const rows = parse(reply.text, { columns: true }) as Array<{ id: string; revenue: string }>;
      fromCsv.push(...rows.map((row) => Number(row.id)));
      const next = reply.headers.get('x-next-cursor')!;
      if (next === '0') break;
      cursor = next;
    }
    expect(fromCsv).toHaveLength(CALLS_IN_DAY);
    expect(new Set(fromCsv)).toEqual(dayIds);

    const byPage: number[] = [];
    for (let page = 1; page <= 4; page++) {
      const reply = await send(gateway, { path: dayQuery(`per_page=250&page=${page}&columns=id`), authorization: company.authorization });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.metadata).toMatchObject({ page, per_page: 250 });
      byPage.push(...(reply.body.calls as Array<{ id: number }>).map((row) => row.id));
    }
    expect(byPage).toEqual(fromCsv);
  });

  it('filters while it pages: converted calls of one buyer, each once', async () => {
    const all: Array<{ id: number; buyer_id: number | null; buyer_converted: boolean }> = [];
    let cursor = '-1';
    for (let requests = 0; requests < 10; requests++) {
      const reply = await send(gateway, { path: dayQuery(`per_page=500&root=false&columns=id,buyer_id,buyer_converted&cursor=${encodeURIComponent(cursor)}`), authorization: company.authorization });
      all.push(...reply.body);
      const next = reply.headers.get('x-next-cursor')!;
      if (next === '0') break;
      cursor = next;
    }
    const expected = all.filter((row) => row.buyer_id === 3 && row.buyer_converted).map((row) => row.id);
    expect(expected.length).toBeGreaterThan(30);
    const seen: number[] = [];
    cursor = '-1';
    for (let requests = 0; requests < 20; requests++) {
      const reply = await send(gateway, { path: dayQuery(`per_page=25&root=false&columns=id,buyer_id,buyer_converted&buyer_id=3&buyer_converted=true&cursor=${encodeURIComponent(cursor)}`), authorization: company.authorization });
      for (const row of reply.body) expect(row).toMatchObject({ buyer_id: 3, buyer_converted: true });
      seen.push(...reply.body.map((row: { id: number }) => row.id));
      const next = reply.headers.get('x-next-cursor')!;
      if (next === '0') break;
      cursor = next;
    }
    expect(seen).toEqual(expected);
    // Counted by reading the day's calls (1,000 of them, under the bound); the whole day from its day count.
    const filtered = await send(gateway, { path: dayQuery('per_page=25&columns=id&buyer_id=3&buyer_converted=true'), authorization: company.authorization });
    expect(filtered.body.metadata.total_count).toBe(expected.length);
    const whole = await send(gateway, { path: dayQuery('per_page=25&columns=id'), authorization: company.authorization });
    expect(whole.body.metadata.total_count).toBe(CALLS_IN_DAY);
    // That day count is the sum of the day's shards, every shard used by 1,000 random ids.
    const range = keys.callDayCountDays(company.id, day, day);
    const shards = await db.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high', ExpressionAttributeValues: { ':pk': range.pk, ':low': range.low, ':high': range.high } }));
    expect(shards.Items).toHaveLength(CALL_DAY_COUNT_SHARDS);
    expect((shards.Items ?? []).reduce((sum, item) => sum + (item.calls as number), 0)).toBe(CALLS_IN_DAY);
  });
});
