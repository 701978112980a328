import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clock } from '../../shared/adapters/clock.js';
import { applyCounterChange } from '../../shared/buyers/counters.js';
import { keys } from '../../shared/db/keys.js';
import { seedBuyers } from '../fixtures/bulk-buyers.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { createTestCompany } from '../fixtures/company.js';
import { useDynamoRequests, type LoggedRequest } from '../fixtures/dynamo-requests.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';

const gateway = useGateway();
const log = useDynamoRequests();
usePinnedClockForAll(midDayTomorrow);

/** A company of `companyBuyers` buyers whose offer (and ping webhook) names 10 of them, spread over the ids; half of those have counter items. */
async function pingSetup(companyBuyers: number) {
  const company = await createTestCompany('ping-count');
  const ids = await seedBuyers(company.id, companyBuyers, (index) => ({ tier: index % 2, current_conversion_revenue: 10 + (index % 7) }));
  const step = companyBuyers / 10;
  const offered = Array.from({ length: 10 }, (_, index) => ids[index * step]!);
  for (const id of offered.filter((_, index) => index % 2 === 0)) {
    const counted = await applyCounterChange(company.id, id, 'UTC', clock().now(), { increments: { attempt: 2 }, at: clock().now().toISOString() });
    expect(counted.ok).toBe(true);
  }
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Ten buyers', buyer_ids: offered });
  const webhook = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: `count-${randomUUID().slice(0, 8)}`, offer_id: offer.id });
  return { company, webhook };
}

const READS = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand']);

/** The DynamoDB requests one ping makes: commands in order, keys asked by BatchGet, items read. */
async function measuredPing(vanity: string) {
  log.reset();
  const reply = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${vanity}`, json: { caller_id: '+14155552671' } });
  expect(reply.status, reply.text).toBe(200);
  const requests: LoggedRequest[] = [...log.requests];
  return {
    body: reply.body,
    commands: requests.map((request) => request.command).sort(),
    batchGetKeys: log.batchGetKeys().length,
    /** Sequential steps of the reads before the first write (the decision comes before any write). */
    readSteps: new Set(requests.filter((request) => READS.has(request.command)).map((request) => request.step)).size,
    itemsRead: requests.reduce((sum, request) => sum + request.returned, 0),
    requests,
  };
}

describe('ping DynamoDB work follows the offer, not the company', () => {
  it('a 10-buyer offer in a 3,000-buyer company makes the same requests and reads the same items as in a 10-buyer company', async () => {
    const small = await pingSetup(10);
    const large = await pingSetup(3000);
    const inSmall = await measuredPing(small.webhook.vanity_uri);
    const inLarge = await measuredPing(large.webhook.vanity_uri);

    expect(inSmall.body.available_buyers_count).toBe(10);
    expect(inLarge.body.available_buyers_count).toBe(10);
    expect(inLarge.commands).toEqual(inSmall.commands);
    expect(inLarge.batchGetKeys).toBe(inSmall.batchGetKeys);
    expect(inLarge.itemsRead).toBe(inSmall.itemsRead);
    // The buyers partition is never queried: buyers and counter items are read by key.
    const buyersPartition = keys.resourcePartition(large.company.id, 'buyers');
    const queriesOfBuyers = inLarge.requests.filter(
      (request) => request.command === 'QueryCommand' && Object.values((request.input.ExpressionAttributeValues ?? {}) as Record<string, unknown>).includes(buyersPartition),
    );
    expect(queriesOfBuyers).toEqual([]);
    // 10 buyer records and 5 counter items, whatever the company holds.
    const buyerItems = inLarge.requests
      .filter((request) => request.command === 'BatchGetItemCommand')
      .flatMap((request) => Object.values(request.input.RequestItems as Record<string, { Keys: Array<{ pk: string }> }>).flatMap((table) => table.Keys))
      .filter((key) => key.pk === buyersPartition);
    expect(buyerItems).toHaveLength(20);

    // Once the vanity name's chain is known, a ping reads in one round trip, the same in both.
    const warmSmall = await measuredPing(small.webhook.vanity_uri);
    const warmLarge = await measuredPing(large.webhook.vanity_uri);
    expect(warmLarge.commands).toEqual(warmSmall.commands);
    expect(warmLarge.itemsRead).toBe(warmSmall.itemsRead);
    expect(warmLarge.readSteps).toBe(1);
    expect(warmSmall.readSteps).toBe(1);
    expect(warmLarge.body.available_buyers_count).toBe(10);
  }, 60_000);
});

describe('a large offer holding most of its company reads the partition (the cheaper read)', () => {
  it('reads 200 buyers of a 200-buyer company by key once, then by one Query of the partition, with the same answer', async () => {
    const company = await createTestCompany('ping-dense');
    const ids = await seedBuyers(company.id, 200);
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Everyone', buyer_ids: ids });
    const webhook = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: `dense-${randomUUID().slice(0, 8)}`, offer_id: offer.id });
    const buyersPartition = keys.resourcePartition(company.id, 'buyers');
    const queriesOfBuyers = (requests: LoggedRequest[]) =>
      requests.filter((request) => request.command === 'QueryCommand' && Object.values((request.input.ExpressionAttributeValues ?? {}) as Record<string, unknown>).includes(buyersPartition));

    const first = await measuredPing(webhook.vanity_uri);
    expect(first.body.available_buyers_count).toBe(200);
    // The company's size is not known yet: by key, with the buyer count read beside.
    expect(queriesOfBuyers(first.requests)).toEqual([]);

    const second = await measuredPing(webhook.vanity_uri);
    expect(second.body.available_buyers_count).toBe(200);
    expect(queriesOfBuyers(second.requests)).toHaveLength(1);
    expect(log.batchGetKeys().filter((key) => key.pk === buyersPartition)).toEqual([]);
    expect(second.readSteps).toBe(1);
    expect(offeredIdsOf(second.body)).toEqual(offeredIdsOf(first.body));
  }, 60_000);
});

const offeredIdsOf = (body: Record<string, any>) => (body.buyers as Array<{ buyer_id: number }>).map((buyer) => buyer.buyer_id).sort((a, b) => a - b);

describe('a ping along a remembered chain never answers from stale configuration', () => {
  const ping = async (vanity: string, caller = '+14155550100') => {
    const reply = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${vanity}`, json: { caller_id: caller } });
    return reply;
  };
  const offeredIds = (body: Record<string, any>) => (body.buyers as Array<{ buyer_id: number }>).map((buyer) => buyer.buyer_id).sort((a, b) => a - b);

  it('follows a change of the offer, the webhook, a group and the vanity name on the very next ping', async () => {
    const company = await createTestCompany('ping-chain');
    const [a, b, c] = [
      await createThrough(gateway, company, '/api/v1/buyers', { name: 'A' }),
      await createThrough(gateway, company, '/api/v1/buyers', { name: 'B' }),
      await createThrough(gateway, company, '/api/v1/buyers', { name: 'C' }),
    ];
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [a!.id] });
    const webhook = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: `chain-${randomUUID().slice(0, 8)}`, offer_id: offer.id });
    const put = async (path: string, json: Record<string, unknown>) => {
      const reply = await call(gateway, { method: 'PUT', path, authorization: company.authorization, json });
      expect(reply.status, reply.text).toBe(200);
    };
    expect(offeredIds((await ping(webhook.vanity_uri)).body)).toEqual([a!.id]);
    expect(offeredIds((await ping(webhook.vanity_uri)).body)).toEqual([a!.id]);

    await put(`/api/v1/offers/${offer.id}`, { buyer_ids: [a!.id, b!.id] });
    expect(offeredIds((await ping(webhook.vanity_uri)).body)).toEqual([a!.id, b!.id]);

    // The webhook names its own buyers through a group; then the group gains a buyer.
    const group = await createThrough(gateway, company, '/api/v1/buyer_groups/0', { name: 'Group', buyer_ids: [c!.id] });
    await put(`/api/v1/inbound_webhooks/${webhook.id}`, { buyer_group_ids: [group.id] });
    expect(offeredIds((await ping(webhook.vanity_uri)).body)).toEqual([c!.id]);
    await put(`/api/v1/buyer_groups/${group.id}`, { buyer_ids: [b!.id, c!.id] });
    expect(offeredIds((await ping(webhook.vanity_uri)).body)).toEqual([b!.id, c!.id]);

    // A buyer paused is read fresh: it drops out at once.
    await put(`/api/v1/buyers/${b!.id}`, { paused: true });
    expect(offeredIds((await ping(webhook.vanity_uri)).body)).toEqual([c!.id]);

    const renamed = `chain-${randomUUID().slice(0, 8)}`;
    await put(`/api/v1/inbound_webhooks/${webhook.id}`, { vanity_uri: renamed });
    expect((await ping(webhook.vanity_uri)).status).toBe(404);
    expect(offeredIds((await ping(renamed)).body)).toEqual([c!.id]);

    const deleted = await call(gateway, { method: 'DELETE', path: `/api/v1/inbound_webhooks/${webhook.id}`, authorization: company.authorization });
    expect(deleted.status, deleted.text).toBe(200);
    expect((await ping(renamed)).status).toBe(404);
  });

  it('checks the blacklist on every ping', async () => {
    const company = await createTestCompany('ping-chain');
    const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'A' });
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
    const webhook = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: `chain-${randomUUID().slice(0, 8)}`, offer_id: offer.id });
    expect((await ping(webhook.vanity_uri, '+14155550199')).body.available_buyers_count).toBe(1);
    const blocked = await call(gateway, { method: 'POST', path: '/api/v1/contacts/(415) 555-0199/caller_block', authorization: company.authorization });
    expect(blocked.status, blocked.text).toBe(200);
    const reply = await ping(webhook.vanity_uri, '+14155550199');
    expect(reply.body.available_buyers_count).toBe(0);
    expect(reply.body.errors).toEqual(['The caller is blacklisted']);
  });
});
