import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { clock } from '../../shared/adapters/clock.js';
import { backfillCompanyCallDays } from '../../shared/calls/call-day-backfill.js';
import { CALL_DAY_COUNT_SHARDS, callDayShardOf, shardCountsOfIds } from '../../shared/calls/call-day-counts.js';
import { createCall } from '../../shared/calls/call-store.js';
import { db, tableName } from '../../shared/db/client.js';
import { dayOfId, dayRecordPut } from '../../shared/db/day-records.js';
import { keys } from '../../shared/db/keys.js';
import { callRecordAt } from '../fixtures/call-records.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call as send, useGateway } from '../fixtures/gateway.js';

/** Calls stored before the per-day call counts existed are counted by the backfill migration. */
const DAY_MS = 24 * 60 * 60 * 1000;
const gateway = useGateway();
usePinnedClockForAll(midDayTomorrow);

/** A finished call as an older version of the service stored it (ended when it started). */
const callAt = (ms: number) => callRecordAt(ms, { ended_at: new Date(ms).toISOString(), caller_number: '+14155550120' });

/** A call as an older version of the service stored it: the call item alone, not counted. */
async function storeUncounted(company: TestCompany, ms: number): Promise<number> {
  const call = callAt(ms);
  await db.send(new PutCommand(dayRecordPut(company.id, 'calls', call)));
  return call.id;
}

/** The stored day-count shards of a day, in shard order. */
async function storedShards(company: TestCompany, day: string): Promise<Array<{ shard: number; calls: number }>> {
  const range = keys.callDayCountDays(company.id, day, day);
  const reply = await db.send(
    new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high', ExpressionAttributeValues: { ':pk': range.pk, ':low': range.low, ':high': range.high }, ConsistentRead: true }),
  );
  return (reply.Items ?? []).map((item) => ({ shard: Number(String(item.sk).split('#')[1]), calls: item.calls as number }));
}

async function list(company: TestCompany): Promise<{ ids: number[]; total: unknown }> {
  const reply = await send(gateway, { path: '/api/v1/calls?per_page=2&columns=id', authorization: company.authorization });
  expect(reply.status, reply.text).toBe(200);
  return { ids: (reply.body.calls as Array<{ id: number }>).map((row) => row.id), total: reply.body.metadata.total_count };
}

describe('npm run backfill:call-days (shared/calls/call-day-backfill.ts)', () => {
  it('counts the finished days of calls stored before the counts, exactly, and again to the same figures', async () => {
    const company = await createTestCompany('calls-backfill');
    const now = clock().now().getTime();
    const noon = (daysAgo: number) => Date.parse(`${new Date(now - daysAgo * DAY_MS).toISOString().slice(0, 10)}T12:00:00Z`);
    const legacy = [await storeUncounted(company, noon(5)), await storeUncounted(company, noon(5) + 3_600_000), await storeUncounted(company, noon(8))];
    // A counted call on one of those days (the deploy day of the counts), and one today.
    const counted = callAt(noon(5) + 7_200_000);
    expect(await createCall(company.id, counted)).toBe(true);
    const today = callAt(now - 3_600_000);
    expect(await createCall(company.id, today)).toBe(true);

    // Before the backfill the list knows only the counted calls.
    const before = await list(company);
    expect(before.total).toBe(2);

    const first = await backfillCompanyCallDays(company.id, clock().now(), now - 40 * DAY_MS);
    expect(first).toEqual({ days: 2, calls: 4 });
    const after = await list(company);
    expect(after.total).toBe(5);
    expect(after.ids).toEqual([today.id, counted.id]);

    // Each call is in the shard its id picks, with exact figures; nothing else is stored.
    const fiveDaysAgo = dayOfId(legacy[0]!);
    const expectedShards = shardCountsOfIds(fiveDaysAgo, [legacy[0]!, legacy[1]!, counted.id]).flatMap((count, shard) => (count.calls > 0 ? [{ shard, calls: count.calls }] : []));
    expect(await storedShards(company, fiveDaysAgo)).toEqual(expectedShards);
    expect(await storedShards(company, dayOfId(legacy[2]!))).toEqual([{ shard: callDayShardOf(legacy[2]!), calls: 1 }]);

    // Idempotent: the same figures again, a wrong figure in a shard without calls is taken away;
    // today (not finished) is left to the transaction's count.
    const emptyShard = Array.from({ length: CALL_DAY_COUNT_SHARDS }, (_, shard) => shard).find((shard) => !expectedShards.some((stored) => stored.shard === shard))!;
    await db.send(new PutCommand({ TableName: tableName, Item: { ...keys.callDayCount(company.id, fiveDaysAgo, emptyShard), day: fiveDaysAgo, calls: 7, h12: 7 } }));
    expect((await list(company)).total).toBe(12);
    expect(await backfillCompanyCallDays(company.id, clock().now(), now - 40 * DAY_MS)).toEqual({ days: 2, calls: 4 });
    expect(await storedShards(company, fiveDaysAgo)).toEqual(expectedShards);
    expect((await list(company)).total).toBe(5);
    let cursor = '-1';
    const all: number[] = [];
    for (let page = 0; page < 10 && cursor !== '0'; page++) {
      const reply = await send(gateway, { path: `/api/v1/calls?per_page=2&columns=id&cursor=${encodeURIComponent(cursor)}`, authorization: company.authorization });
      all.push(...(reply.body.calls as Array<{ id: number }>).map((row) => row.id));
      cursor = String(reply.body.metadata.next_cursor);
    }
    expect(all).toEqual([today.id, counted.id, ...legacy.slice(0, 2).reverse(), legacy[2]]);
  });
});
