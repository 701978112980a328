import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { clock } from '../../shared/adapters/clock.js';
import { dayCountsOf } from '../../shared/calls/call-day-counts.js';
import { createCall, getCall } from '../../shared/calls/call-store.js';
import { db, tableName } from '../../shared/db/client.js';
import { dayOfTime } from '../../shared/db/day-records.js';
import { keys } from '../../shared/db/keys.js';
import { callRecordAt, type SeedCall } from '../fixtures/call-records.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call as send, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { VOICE_BASE, callFields, carrierPost, dialOf, newCallSid } from '../fixtures/voice.js';

/**
 * A busy company's calls started at the same moment: every call is created and counted once,
 * though their transactions all add to the company's day count (spread over its shards, with a
 * retry when two still meet on one).
 */
const CONCURRENT_CALLS = 40;
const gateway = useGateway();
usePinnedClockForAll(midDayTomorrow);

/** The day-count shard items of a company's day, and their sum. */
async function dayCount(company: TestCompany, day: string): Promise<{ shards: number; calls: number }> {
  const range = keys.callDayCountDays(company.id, day, day);
  const reply = await db.send(
    new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high', ExpressionAttributeValues: { ':pk': range.pk, ':low': range.low, ':high': range.high }, ConsistentRead: true }),
  );
  return { shards: reply.Items?.length ?? 0, calls: dayCountsOf(reply.Items ?? []).get(day)?.calls ?? 0 };
}

/** Every call id of the default list, through its pages, and the total_count each page gave. */
async function listAll(company: TestCompany): Promise<{ ids: number[]; totals: unknown[] }> {
  const ids: number[] = [];
  const totals: unknown[] = [];
  let cursor = '-1';
  for (let page = 0; page < 10 && cursor !== '0'; page++) {
    const reply = await send(gateway, { path: `/api/v1/calls?per_page=25&columns=id&cursor=${encodeURIComponent(cursor)}`, authorization: company.authorization });
    expect(reply.status, reply.text).toBe(200);
    ids.push(...(reply.body.calls as Array<{ id: number }>).map((row) => row.id));
    totals.push(reply.body.metadata.total_count);
    cursor = String(reply.body.metadata.next_cursor);
  }
  return { ids, totals };
}

/** A new call record made at `ms`, as createCall takes it: ringing, not ended. */
function newCall(ms: number): SeedCall {
  const { ended_at: _ended, ...ringing } = callRecordAt(ms, { status: 'ringing', caller_number: '+14155550130' });
  return ringing as SeedCall;
}

/**
 * Makes DynamoDB cancel the next `conflicts` TransactWriteItems with TransactionConflict on the
 * day count (its last item), as concurrent transactions on one shard do; the others reach
 * DynamoDB Local, which runs transactions one at a time and never reports a conflict itself.
 */
function cancelTransactionsWithConflict(conflicts: number) {
  const send = db.send.bind(db) as (command: unknown) => Promise<unknown>;
  let left = conflicts;
  return vi.spyOn(db, 'send').mockImplementation((async (command: unknown) => {
    if (command instanceof TransactWriteCommand && left > 0) {
      left--;
      const items = command.input.TransactItems ?? [];
      throw new TransactionCanceledException({
        message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, None, None, TransactionConflict]',
        $metadata: {},
        CancellationReasons: items.map((_, index) => ({ Code: index === items.length - 1 ? 'TransactionConflict' : 'None' })),
      });
    }
    return send(command);
  }) as never);
}

describe('concurrent call starts of one company', () => {
  it(`creates and counts ${CONCURRENT_CALLS} calls written in the same millisecond (createCall)`, async () => {
    const company = await createTestCompany('calls-concurrent-store');
    const ms = clock().now().getTime();
    const records = Array.from({ length: CONCURRENT_CALLS }, () => newCall(ms));

    const created = await Promise.all(records.map((record) => createCall(company.id, record)));
    expect(created).toEqual(records.map(() => true));
    // createCall draws a new id when two got the same one: the ids are distinct and every call is stored.
    const ids = records.map((record) => record.id);
    expect(new Set(ids).size).toBe(CONCURRENT_CALLS);
    for (const id of ids) expect((await getCall(company.id, id))?.uuid, String(id)).toBeDefined();

    const count = await dayCount(company, dayOfTime(ms));
    expect(count.calls).toBe(CONCURRENT_CALLS);
    // Spread over shards: 40 random shards of 16 land on at least 2 (all in one is 16^-39).
    expect(count.shards).toBeGreaterThan(1);

    const listed = await listAll(company);
    expect(new Set(listed.ids)).toEqual(new Set(ids));
    expect(new Set(listed.totals)).toEqual(new Set([CONCURRENT_CALLS]));
  });

  it('retries a call whose transaction met another on its day-count shard, and counts it once', async () => {
    const company = await createTestCompany('calls-concurrent-conflict');
    const ms = clock().now().getTime();
    const record = newCall(ms);
    const spy = cancelTransactionsWithConflict(3);
    try {
      expect(await createCall(company.id, record)).toBe(true);
    } finally {
      spy.mockRestore();
    }
    expect((await getCall(company.id, record.id))?.uuid).toBe(record.uuid);
    expect(await dayCount(company, dayOfTime(ms))).toEqual({ shards: 1, calls: 1 });
  });

  it('gives up after 8 conflicts in a row, having written nothing', async () => {
    const company = await createTestCompany('calls-concurrent-give-up');
    const ms = clock().now().getTime();
    const record = newCall(ms);
    const spy = cancelTransactionsWithConflict(9);
    try {
      await expect(createCall(company.id, record)).rejects.toBeInstanceOf(TransactionCanceledException);
    } finally {
      spy.mockRestore();
    }
    expect(await getCall(company.id, record.id)).toBeUndefined();
    expect(await dayCount(company, dayOfTime(ms))).toEqual({ shards: 0, calls: 0 });
  });

  it(`creates and counts ${CONCURRENT_CALLS} carrier calls to one number started at once`, async () => {
    const company = await createTestCompany('calls-concurrent-carrier');
    const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Busy buyer', number: '+12125558040' });
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Busy offer', buyer_ids: [buyer.id] });
    const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });

    const replies = await Promise.all(
      Array.from({ length: CONCURRENT_CALLS }, (_, i) =>
        carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(newCallSid(), `+1415555${String(1000 + i)}`, number.number), CallStatus: 'ringing' }),
      ),
    );
    const ids = replies.map((reply) => {
      expect(reply.status, reply.text).toBe(200);
      const dial = dialOf(reply.text);
      expect(dial, reply.text).toBeDefined();
      return Number(new URL(dial!.action, gateway.baseUrl).searchParams.get('call'));
    });
    expect(new Set(ids).size).toBe(CONCURRENT_CALLS);

    const count = await dayCount(company, dayOfTime(clock().now().getTime()));
    expect(count.calls).toBe(CONCURRENT_CALLS);
    const listed = await listAll(company);
    expect(new Set(listed.ids)).toEqual(new Set(ids));
    expect(new Set(listed.totals)).toEqual(new Set([CONCURRENT_CALLS]));
  }, 60_000);
});
