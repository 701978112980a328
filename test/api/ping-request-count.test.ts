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
  }, 60_000);
});
