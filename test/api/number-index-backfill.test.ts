import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.js';
import { keys } from '../../shared/db/keys.js';
import { backfillCompanyNumberIndex, backfillNumberIndex, repairNumberIndex } from '../../shared/numbers/number-index-backfill.js';
import { NUMBER_INDEX_ATTRIBUTES, numberIndexRepair } from '../../shared/numbers/number-index.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';

/** Numbers stored before the number index are given their entries by the backfill migration. */
const gateway = useGateway();
usePinnedClockForAll(midDayTomorrow);

const CALLER = '+14155552671';

/** Takes a number's index entries away, as an older version of the service stored it (or sets a stale one). */
async function storeAsBefore(company: TestCompany, id: number, stale: Record<string, string> = {}): Promise<void> {
  const names = Object.fromEntries(NUMBER_INDEX_ATTRIBUTES.map((name, index) => [`#r${index}`, name]));
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.record(company.id, 'phone_numbers', id),
      UpdateExpression: `REMOVE ${Object.keys(names).join(', ')}`,
      ExpressionAttributeNames: names,
    }),
  );
  if (Object.keys(stale).length) {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.record(company.id, 'phone_numbers', id),
        UpdateExpression: `SET ${Object.keys(stale).map((_, index) => `#s${index} = :s${index}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(Object.keys(stale).map((name, index) => [`#s${index}`, name])),
        ExpressionAttributeValues: Object.fromEntries(Object.values(stale).map((value, index) => [`:s${index}`, value])),
      }),
    );
  }
}

async function storedItem(company: TestCompany, id: number): Promise<Record<string, unknown>> {
  return (await db.send(new GetCommand({ TableName: tableName, Key: keys.record(company.id, 'phone_numbers', id), ConsistentRead: true }))).Item!;
}

/** A ping and a post on the webhook: the post's status and number. */
async function post(vanity: string): Promise<{ status: number; number?: string }> {
  const pinged = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${vanity}`, json: { caller_id: CALLER } });
  expect(pinged.status, pinged.text).toBe(200);
  const reply = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/post/${vanity}`, json: { ping_id: pinged.body.try_all_buyers_ping_id, caller_id: CALLER } });
  return { status: reply.status, number: reply.body.phone_number };
}

describe('npm run backfill:number-index (shared/numbers/number-index-backfill.ts)', () => {
  it('indexes the numbers stored before the index, removes a stale entry, and writes nothing the second time', async () => {
    const company = await createTestCompany('number-index-backfill');
    const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Buyer', current_conversion_revenue: 10 });
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
    const other = await createThrough(gateway, company, '/api/v1/offers', { name: 'Other', buyer_ids: [buyer.id] });
    const pool = await createThrough(gateway, company, '/api/v1/ring_pools', { name: 'Pool', offer_id: offer.id });
    const pooled = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id, ring_pool_id: pool.id });
    const offered = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: other.id });
    const indexed = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: other.id });
    const onPool = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: `bf-${randomUUID().slice(0, 8)}`, offer_id: offer.id, ring_pool_id: pool.id });
    const onOther = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: `bf-${randomUUID().slice(0, 8)}`, offer_id: other.id });

    // Two numbers as an older version stored them; the third keeps its entries but carries a
    // stale pool entry (a pool it is not in).
    await storeAsBefore(company, pooled.id);
    await storeAsBefore(company, offered.id);
    const right = await storedItem(company, indexed.id);
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.record(company.id, 'phone_numbers', indexed.id),
        UpdateExpression: 'SET gsi2pk = :pk, gsi2sk = :sk',
        ExpressionAttributeValues: { ':pk': keys.numbersOfPool(company.id, pool.id), ':sk': right.gsi1sk },
      }),
    );

    // Before: the pool's post finds the stale number only; the other offer's finds just the indexed one.
    expect(await post(onPool.vanity_uri)).toEqual({ status: 200, number: indexed.number });
    for (let attempt = 0; attempt < 3; attempt++) expect((await post(onOther.vanity_uri)).number).toBe(indexed.number);

    expect(await backfillCompanyNumberIndex(company.id)).toEqual({ numbers: 3, updated: 3, skipped: 0 });
    expect(await post(onPool.vanity_uri)).toEqual({ status: 200, number: pooled.number });
    const afterItem = await storedItem(company, indexed.id);
    expect(afterItem.gsi2pk).toBeUndefined();
    expect(afterItem.gsi1pk).toBe(right.gsi1pk);
    expect(await storedItem(company, pooled.id)).toMatchObject({
      gsi1pk: keys.numbersOfOffer(company.id, offer.id),
      gsi2pk: keys.numbersOfPool(company.id, pool.id),
    });
    expect(await storedItem(company, offered.id)).toMatchObject({ gsi1pk: keys.numbersOfOffer(company.id, other.id) });
    const handedOut = new Set<string>();
    for (let attempt = 0; attempt < 24 && handedOut.size < 2; attempt++) handedOut.add((await post(onOther.vanity_uri)).number!);
    expect([...handedOut].sort()).toEqual([offered.number, indexed.number].sort());

    // Idempotent: nothing left to write, for this company and through the all-companies entry.
    expect(await backfillCompanyNumberIndex(company.id)).toEqual({ numbers: 3, updated: 0, skipped: 0 });
    expect(await backfillNumberIndex({ companyIds: [company.id] })).toEqual({ companies: 1, numbers: 3, updated: 0, skipped: 0 });
  });

  it('leaves a number changed since it was read to the write that changed it', async () => {
    const company = await createTestCompany('number-index-race');
    const first = await createThrough(gateway, company, '/api/v1/offers', { name: 'First', buyer_ids: [] });
    const second = await createThrough(gateway, company, '/api/v1/offers', { name: 'Second', buyer_ids: [] });
    const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: first.id });
    await storeAsBefore(company, number.id);
    const read = await storedItem(company, number.id);
    // Moved through the API after the backfill read it: that update stores the second offer's entry.
    const moved = await call(gateway, { method: 'PUT', path: `/api/v1/phone_numbers/${number.id}`, authorization: company.authorization, json: { offer_id: second.id } });
    expect(moved.status, moved.text).toBe(200);
    expect(await repairNumberIndex(company.id, read, numberIndexRepair(company.id, read)!)).toBe(false);
    expect((await storedItem(company, number.id)).gsi1pk).toBe(keys.numbersOfOffer(company.id, second.id));
    expect(await backfillCompanyNumberIndex(company.id)).toEqual({ numbers: 1, updated: 0, skipped: 0 });
  });
});
