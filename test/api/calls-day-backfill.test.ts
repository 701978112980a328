import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { clock } from '../../shared/adapters/clock.js';
import { backfillCompanyCallDays } from '../../shared/calls/call-day-backfill.js';
import { createCall, type CallRecord } from '../../shared/calls/call-store.js';
import { db } from '../../shared/db/client.js';
import { dayRecordPut } from '../../shared/db/day-records.js';
import { timeSortableId } from '../../shared/db/ids.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call as send, useGateway } from '../fixtures/gateway.js';

/** Calls stored before the per-day call counts existed are counted by the backfill migration. */
const DAY_MS = 24 * 60 * 60 * 1000;
const gateway = useGateway();
usePinnedClockForAll(midDayTomorrow);

function callAt(ms: number): CallRecord & { carrier: string; carrier_call_id: string } {
  const at = new Date(ms).toISOString();
  return {
    id: timeSortableId(ms),
    uuid: randomUUID(),
    carrier: 'seed',
    carrier_call_id: `seed-${randomUUID()}`,
    created_at: at,
    updated_at: at,
    ended_at: at,
    status: 'completed',
    in_progress: false,
    caller_number: '+14155550120',
    offer_id: null,
    version: 0,
  };
}

/** A call as an older version of the service stored it: the call item alone, not counted. */
async function storeUncounted(company: TestCompany, ms: number): Promise<number> {
  const call = callAt(ms);
  await db.send(new PutCommand(dayRecordPut(company.id, 'calls', call)));
  return call.id;
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

    // Idempotent: the same figures again; today (not finished) is left to the transaction's count.
    expect(await backfillCompanyCallDays(company.id, clock().now(), now - 40 * DAY_MS)).toEqual({ days: 2, calls: 4 });
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
