import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { clock } from '../../shared/adapters/clock.js';
import { callKey, carrierCallKey, createCall } from '../../shared/calls/call-store.js';
import { db, tableName } from '../../shared/db/client.js';
import type { Key } from '../../shared/db/keys.js';
import { callRecordAt, type SeedCall } from '../fixtures/call-records.js';
import { midDayTomorrow, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';

/**
 * Where a call's index entries are (docs/table-design.md): by caller on its carrier-call lookup
 * (gsi2, written once with the call), while live on the call item in gsi3 (keys and the offer).
 * Calls stored before carry both on the call item (gsi2 by caller, gsi1 while live); the lists
 * read them beside the new entries, and a save moves a live call's entry to gsi3.
 */
const gateway = useGateway();
usePinnedClock(midDayTomorrow);

const CALLER = '+14155550123';
const HOUR_MS = 60 * 60 * 1000;

async function seed(company: TestCompany, hoursAgo: number, fields: Record<string, unknown> = {}): Promise<SeedCall> {
  const record = callRecordAt(clock().now().getTime() - hoursAgo * HOUR_MS, { caller_number: CALLER, ...fields });
  expect(await createCall(company.id, record)).toBe(true);
  return record;
}

const read = async (key: Key) => (await db.send(new GetCommand({ TableName: tableName, Key: key }))).Item!;
const indexKeysOf = (item: Record<string, unknown>) => Object.keys(item).filter((name) => /^gsi\dpk$/.test(name)).sort();
const update = (key: Key, expression: string, values?: Record<string, unknown>) =>
  db.send(new UpdateCommand({ TableName: tableName, Key: key, UpdateExpression: expression, ...(values ? { ExpressionAttributeValues: values } : {}) }));

/** Stores a call's caller entry as calls made before were stored: on the call item, none on its lookup. */
async function callerEntryOnCallItem(company: TestCompany, record: SeedCall): Promise<void> {
  const lookup = await read(carrierCallKey(record.carrier, record.carrier_call_id));
  await update(callKey(company.id, record.id), 'SET gsi2pk = :pk, gsi2sk = :sk', { ':pk': lookup.gsi2pk, ':sk': lookup.gsi2sk });
  await update(carrierCallKey(record.carrier, record.carrier_call_id), 'REMOVE gsi2pk, gsi2sk');
}

/** Stores a live call's live entry as calls made before were stored: gsi1, not gsi3. */
async function liveEntryInGsi1(company: TestCompany, record: SeedCall): Promise<void> {
  const item = await read(callKey(company.id, record.id));
  await update(callKey(company.id, record.id), 'SET gsi1pk = :pk, gsi1sk = :sk REMOVE gsi3pk, gsi3sk', { ':pk': item.gsi3pk, ':sk': item.gsi3sk });
}

const get = (company: TestCompany, path: string) => call(gateway, { path, authorization: company.authorization });
const post = (company: TestCompany, path: string, json: unknown) => call(gateway, { method: 'POST', path, authorization: company.authorization, json });
const ids = (rows: Array<Record<string, unknown>>) => rows.map((row) => row.id as number);

describe("a call's index entries", () => {
  it('are on its lookup by caller (gsi2) and, while live, on the call item in gsi3', async () => {
    const company = await createTestCompany('call-index');
    const ended = await seed(company, 2);
    const live = await seed(company, 1, { in_progress: true, status: 'ringing', ended_at: null });
    expect(indexKeysOf(await read(callKey(company.id, ended.id)))).toEqual([]);
    expect(indexKeysOf(await read(callKey(company.id, live.id)))).toEqual(['gsi3pk']);
    for (const record of [ended, live]) expect(indexKeysOf(await read(carrierCallKey(record.carrier, record.carrier_call_id)))).toEqual(['gsi2pk']);
  });

  it("of a caller's calls, old and new, are listed newest first, each call once, by page, cursor and filter", async () => {
    const company = await createTestCompany('call-index');
    const other = await createTestCompany('call-index');
    const made: SeedCall[] = [];
    for (const hoursAgo of [5, 4, 3, 2, 1]) made.push(await seed(company, hoursAgo));
    // The oldest, the middle and the newest calls as calls stored before.
    for (const record of [made[0]!, made[2]!, made[4]!]) await callerEntryOnCallItem(company, record);
    const newestFirst = made.map((record) => record.id).reverse();

    const byCaller = `/api/v1/calls/${encodeURIComponent(CALLER)}/by_caller_number`;
    const whole = await get(company, byCaller);
    expect(whole.status, whole.text).toBe(200);
    expect(ids(whole.body.calls)).toEqual(newestFirst);
    // No index or lookup attribute reaches the API.
    expect(Object.keys(whole.body.calls[1]).filter((name) => name.startsWith('gsi') || name === 'resource')).toEqual([]);

    const paged: number[] = [];
    let cursor = '';
    for (let page = 0; page < 5; page += 1) {
      const reply = await get(company, `${byCaller}?per_page=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(reply.status, reply.text).toBe(200);
      paged.push(...ids(reply.body.calls));
      cursor = String(reply.body.metadata.next_cursor);
      if (cursor === '0') break;
    }
    expect(paged).toEqual(newestFirst);

    const filtered = await get(company, `/api/v1/calls?caller_number=${encodeURIComponent(CALLER)}`);
    expect(filtered.status, filtered.text).toBe(200);
    expect(ids(filtered.body.calls)).toEqual(newestFirst);

    // A save of either kind of call leaves it listed once, as saved.
    for (const record of [made[2]!, made[3]!]) expect((await post(company, `/api/v1/calls/${record.id}`, { revenue: 7 })).status).toBe(200);
    const after = await get(company, byCaller);
    expect(ids(after.body.calls)).toEqual(newestFirst);
    expect(after.body.calls.filter((row: Record<string, unknown>) => row.revenue === 7).map((row: Record<string, unknown>) => row.id)).toEqual([made[3]!.id, made[2]!.id]);

    const foreign = await get(other, byCaller);
    expect(foreign.status).toBe(200);
    expect(foreign.body.calls).toEqual([]);
  });

  it('of live calls, old and new, are listed newest first, and a save moves an old one to gsi3', async () => {
    const company = await createTestCompany('call-index');
    const other = await createTestCompany('call-index');
    const live: SeedCall[] = [];
    for (const hoursAgo of [3, 2, 1]) live.push(await seed(company, hoursAgo, { in_progress: true, status: 'ringing', ended_at: null }));
    await seed(company, 0.5); // ended: not listed
    await liveEntryInGsi1(company, live[1]!);
    expect(indexKeysOf(await read(callKey(company.id, live[1]!.id)))).toEqual(['gsi1pk']);
    const newestFirst = live.map((record) => record.id).reverse();

    const listed = await get(company, '/api/v1/calls/live_calls');
    expect(listed.status, listed.text).toBe(200);
    expect(ids(listed.body.calls)).toEqual(newestFirst);
    const inProgress = await get(company, '/api/v1/calls?in_progress=true');
    expect(ids(inProgress.body.calls)).toEqual(newestFirst);

    expect((await post(company, `/api/v1/calls/${live[1]!.id}`, { revenue: 3 })).status).toBe(200);
    expect(indexKeysOf(await read(callKey(company.id, live[1]!.id)))).toEqual(['gsi3pk']);
    expect(ids((await get(company, '/api/v1/calls/live_calls')).body.calls)).toEqual(newestFirst);

    expect((await get(other, '/api/v1/calls/live_calls')).body.calls).toEqual([]);
  });
});
