import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.js';
import { keys } from '../../shared/db/keys.js';
import { seedRecords } from '../fixtures/bulk-records.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { useDynamoRequests } from '../fixtures/dynamo-requests.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';

/**
 * The inbound post reads only the numbers of the webhook's pool or offer (their index partition,
 * docs/ping-post.md "Post"), never the company's numbers, and follows moves, clears and deletes.
 */
const gateway = useGateway();
const log = useDynamoRequests();
usePinnedClockForAll(midDayTomorrow);

const CALLER = '+14155552671';
const OTHER_NUMBERS = 200;

type Row = Record<string, any>;

/** Numbers bought through the API, a few at a time. */
async function buyNumbers(company: TestCompany, count: number, fields: (index: number) => Row): Promise<Row[]> {
  const bought: Row[] = [];
  for (let start = 0; start < count; start += 10) {
    const chunk = Array.from({ length: Math.min(10, count - start) }, (_, offset) => createThrough(gateway, company, '/api/v1/phone_numbers', fields(start + offset)));
    bought.push(...(await Promise.all(chunk)));
  }
  return bought;
}

const webhookOf = (company: TestCompany, fields: Row) => createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: `reads-${randomUUID().slice(0, 8)}`, ...fields });

/**
 * A company whose offer A holds 3 numbers (no pool) and whose pool P (on offer B) holds 3; with
 * `others`, 200 more numbers on offers B and C, half of them in pool Q. Webhooks: one on offer A,
 * one on pool P.
 */
async function setup(others: number) {
  const company = await createTestCompany('post-reads');
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Buyer', current_conversion_revenue: 10 });
  const offer = async (name: string) => createThrough(gateway, company, '/api/v1/offers', { name, buyer_ids: [buyer.id] });
  const [a, b, c] = [await offer('A'), await offer('B'), await offer('C')];
  const p = await createThrough(gateway, company, '/api/v1/ring_pools', { name: 'P', offer_id: b.id });
  const q = await createThrough(gateway, company, '/api/v1/ring_pools', { name: 'Q', offer_id: c.id });
  // The others are stored as the engine stores them (with their index entries), written in bulk:
  // the file's number range holds 100 numbers. They have no number lookups, so no create meets them.
  await seedRecords(company.id, 'phone_numbers', others, (index) => ({
    number: `+1800555${String(1000 + index).padStart(4, '0')}`,
    offer_id: index % 2 ? b.id : c.id,
    ring_pool_id: index % 4 < 2 ? q.id : null,
    provider: 'local',
    status: 'active',
  }));
  const ofOffer = await buyNumbers(company, 3, () => ({ offer_id: a.id }));
  const ofPool = await buyNumbers(company, 3, () => ({ offer_id: b.id, ring_pool_id: p.id }));
  const onOffer = await webhookOf(company, { offer_id: a.id });
  const onPool = await webhookOf(company, { offer_id: b.id, ring_pool_id: p.id });
  return { company, buyer, offers: { a, b, c }, pools: { p, q }, ofOffer, ofPool, onOffer, onPool };
}

/** A ping for the caller, then the post of its try-all id: the reply, and what the post alone asked of DynamoDB. */
async function pingAndPost(vanity: string) {
  const pinged = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${vanity}`, json: { caller_id: CALLER } });
  expect(pinged.status, pinged.text).toBe(200);
  log.reset();
  const reply = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/post/${vanity}`, json: { ping_id: pinged.body.try_all_buyers_ping_id, caller_id: CALLER } });
  const requests = [...log.requests];
  const indexQueries = requests.filter((request) => request.command === 'QueryCommand' && request.input.IndexName !== undefined);
  return {
    reply,
    commands: requests.map((request) => request.command).sort(),
    itemsRead: requests.reduce((sum, request) => sum + request.returned, 0),
    indexQueries,
    /** Number items the index Queries returned. */
    numbersRead: indexQueries.reduce((sum, request) => sum + request.returned, 0),
    /** Queries of the company's whole phone_numbers partition. */
    partitionQueries: requests.filter((request) => request.command === 'QueryCommand' && JSON.stringify(request.input).includes('#phone_numbers"')),
  };
}

const numbersOf = (rows: Row[]) => rows.map((row) => row.number as string);
const update = (company: TestCompany, id: number, json: Row) => call(gateway, { method: 'PUT', path: `/api/v1/phone_numbers/${id}`, authorization: company.authorization, json });

describe('the inbound post reads only its offer\'s or pool\'s numbers', () => {
  it('on an offer of 3 numbers in a company of 206, reads those 3 number items, as in a company of 6', async () => {
    const large = await setup(OTHER_NUMBERS);
    const small = await setup(0);
    for (const setupOf of [large, small]) {
      const posted = await pingAndPost(setupOf.onOffer.vanity_uri);
      expect(posted.reply.status, posted.reply.text).toBe(200);
      expect(numbersOf(setupOf.ofOffer)).toContain(posted.reply.body.phone_number);
      expect(posted.indexQueries).toHaveLength(1);
      expect(posted.indexQueries[0]!.input).toMatchObject({ IndexName: 'gsi1', ExpressionAttributeValues: { ':pk': keys.numbersOfOffer(setupOf.company.id, setupOf.offers.a.id) } });
      expect(posted.numbersRead).toBe(3);
      expect(posted.partitionQueries).toEqual([]);
    }
    const inLarge = await pingAndPost(large.onOffer.vanity_uri);
    const inSmall = await pingAndPost(small.onOffer.vanity_uri);
    expect(inLarge.commands).toEqual(inSmall.commands);
    expect(inLarge.itemsRead).toBe(inSmall.itemsRead);
    // The webhook's lookup and record, the ping's log entry, the 3 numbers: nothing grows with the company.
    expect(inLarge.itemsRead).toBeLessThanOrEqual(6);
  }, 120_000);

  it('on a pool of 3 numbers whose offer has 100 more, reads those 3 number items', async () => {
    const { company, pools, ofPool, onPool } = await setup(OTHER_NUMBERS);
    for (let attempt = 0; attempt < 3; attempt++) {
      const posted = await pingAndPost(onPool.vanity_uri);
      expect(posted.reply.status, posted.reply.text).toBe(200);
      expect(numbersOf(ofPool)).toContain(posted.reply.body.phone_number);
      expect(posted.indexQueries).toHaveLength(1);
      expect(posted.indexQueries[0]!.input).toMatchObject({ IndexName: 'gsi2', ExpressionAttributeValues: { ':pk': keys.numbersOfPool(company.id, pools.p.id) } });
      expect(posted.numbersRead).toBe(3);
      expect(posted.partitionQueries).toEqual([]);
      expect(posted.itemsRead).toBeLessThanOrEqual(6);
    }
  }, 120_000);
});

describe('which numbers a post hands out follows moves, clears and deletes', () => {
  it('moving a number to another offer, clearing its pool and deleting it change what posts give', async () => {
    const { company, offers, ofOffer, ofPool, onOffer, onPool } = await setup(0);
    // An offer and a pool without numbers: their webhooks have nothing to give.
    const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'D buyer', current_conversion_revenue: 10 });
    const offerD = await createThrough(gateway, company, '/api/v1/offers', { name: 'D', buyer_ids: [buyer.id] });
    const poolE = await createThrough(gateway, company, '/api/v1/ring_pools', { name: 'E', offer_id: offers.b.id });
    const onD = await webhookOf(company, { offer_id: offerD.id });
    const onE = await webhookOf(company, { offer_id: offers.b.id, ring_pool_id: poolE.id });
    expect((await pingAndPost(onD.vanity_uri)).reply.status).toBe(422);
    expect((await pingAndPost(onE.vanity_uri)).reply.status).toBe(422);

    // Offer: the first number moves from A to D.
    const [moved, ...stayed] = ofOffer;
    expect((await update(company, moved!.id, { offer_id: offerD.id })).status).toBe(200);
    const onNewOffer = await pingAndPost(onD.vanity_uri);
    expect(onNewOffer.reply.body.phone_number).toBe(moved!.number);
    expect(onNewOffer.numbersRead).toBe(1);
    const onOldOffer = await pingAndPost(onOffer.vanity_uri);
    expect(onOldOffer.numbersRead).toBe(2);
    expect(numbersOf(stayed)).toContain(onOldOffer.reply.body.phone_number);

    // Pool: the first number moves from P to E, then leaves every pool.
    const [pooled, ...inP] = ofPool;
    expect((await update(company, pooled!.id, { ring_pool_id: poolE.id })).status).toBe(200);
    expect((await pingAndPost(onE.vanity_uri)).reply.body.phone_number).toBe(pooled!.number);
    const onOldPool = await pingAndPost(onPool.vanity_uri);
    expect(onOldPool.numbersRead).toBe(2);
    expect(numbersOf(inP)).toContain(onOldPool.reply.body.phone_number);
    expect((await update(company, pooled!.id, { ring_pool_id: null })).status).toBe(200);
    expect((await pingAndPost(onE.vanity_uri)).reply.status).toBe(422);
    // Sparse: the cleared pool's entry is removed from the item, the offer's stays.
    const item = (await db.send(new GetCommand({ TableName: tableName, Key: keys.record(company.id, 'phone_numbers', pooled!.id), ConsistentRead: true }))).Item!;
    expect(item.gsi2pk).toBeUndefined();
    expect(item.gsi2sk).toBeUndefined();
    expect(item.gsi1pk).toBe(keys.numbersOfOffer(company.id, offers.b.id));

    // Delete: the number goes from its offer's index with its record.
    expect((await call(gateway, { method: 'DELETE', path: `/api/v1/phone_numbers/${moved!.id}`, authorization: company.authorization })).status).toBe(200);
    expect((await pingAndPost(onD.vanity_uri)).reply.status).toBe(422);
  }, 120_000);
});
