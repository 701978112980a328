import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { clock } from '../../shared/adapters/clock.js';
import { db, tableName } from '../../shared/db/client.js';
import { keys } from '../../shared/db/keys.js';
import { fileNumberRange } from '../fixtures/number-range.js';
import { midDayTomorrow, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect404, expect422, recordOf } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough, listThrough } from '../fixtures/records.js';

/**
 * Number orders fill from the local number range through the phone_numbers create path: this
 * file narrows its own block of the range (test/fixtures/number-range.ts) to five numbers, so
 * running out is part of the story. The tests run in order and share the range.
 */
const range = fileNumberRange();
process.env.LOCAL_NUMBER_RANGE = `${range.number(0)}..${range.number(4)}`;

const gateway = useGateway();
usePinnedClock(midDayTomorrow);

afterEach(() => {
  delete process.env.NUMBER_ORDER_FILL_BUDGET_MS;
});

let company: TestCompany;
let offer: Record<string, any>;
let source: Record<string, any>;
let pool: Record<string, any>;

const order = (json: Record<string, unknown>, as = company) => call(gateway, { method: 'POST', path: '/api/v1/number_orders', authorization: as.authorization, json: { offer_id: offer.id, ...json } });
const numbers = () => listThrough(gateway, company, '/api/v1/phone_numbers?per_page=100', 'phone_numbers');

describe('number orders', () => {
  it('buys several numbers by area code within the request, each a phone_numbers record with the order\'s offer, source and pool', async () => {
    company = await createTestCompany('number-orders');
    offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Solar' });
    source = await createThrough(gateway, company, '/api/v1/traffic_sources', { name: 'Radio' });
    pool = await createThrough(gateway, company, '/api/v1/ring_pools', { name: 'Pool', offer_id: offer.id });
    const made = recordOf(await order({ name: 'Launch', quantity: 2, area_code: range.areaCode, traffic_source_id: source.id, ring_pool_id: pool.id }), 'number_order');
    expect(made).toMatchObject({ name: 'Launch', quantity: 2, area_code: range.areaCode, status: 'completed', fulfilled_count: 2, errors: [], type: 'NumberOrder' });
    expect(made.phone_number_ids).toHaveLength(2);
    expect(made.completed_at).toEqual(expect.any(String));
    const listed = await numbers();
    expect(listed.map((row) => row.id).sort()).toEqual([...made.phone_number_ids].sort());
    for (const row of listed) {
      expect(row).toMatchObject({ offer_id: offer.id, traffic_source_id: source.id, ring_pool_id: pool.id, provider: 'local', status: 'active' });
      expect(row.number.startsWith(`+1${range.areaCode}`)).toBe(true);
    }
    // The order is a record like any other: shown and listed as it was left.
    expect(recordOf(await call(gateway, { path: `/api/v1/number_orders/${made.id}`, authorization: company.authorization }), 'number_order')).toEqual(made);
  });

  it('buys by a reusable prefix record (numbers starting with it)', async () => {
    const prefix = await createThrough(gateway, company, '/api/v1/number_order_prefixes', { name: 'Local', prefix: `${range.areaCode}555` });
    expect(prefix).toMatchObject({ prefix: `${range.areaCode}555`, country: 'US', country_code: '1' });
    const made = recordOf(await order({ quantity: 2, number_order_prefix_id: prefix.id }), 'number_order');
    expect(made).toMatchObject({ status: 'completed', fulfilled_count: 2, number_order_prefix_id: prefix.id });
    const bought = (await numbers()).filter((row) => made.phone_number_ids.includes(row.id));
    expect(bought).toHaveLength(2);
    for (const row of bought) expect(row.number.startsWith(`+1${range.areaCode}555`)).toBe(true);
  });

  it('stops at the first purchase that fails: partially_completed with what it bought, failed when nothing', async () => {
    // One number of the five is left.
    const partial = recordOf(await order({ quantity: 3, prefix: `${range.areaCode}555` }), 'number_order');
    expect(partial).toMatchObject({ status: 'partially_completed', fulfilled_count: 1, errors: [`number no number is available with prefix ${range.areaCode}555`] });
    expect(partial.phone_number_ids).toHaveLength(1);
    expect(await numbers()).toHaveLength(5);
    const failed = recordOf(await order({ quantity: 1, area_code: range.areaCode }), 'number_order');
    expect(failed).toMatchObject({ status: 'failed', fulfilled_count: 0, phone_number_ids: [], errors: [`number no number is available in area code ${range.areaCode}`] });
    expect(recordOf(await order({ quantity: 1, area_code: range.otherAreaCode }), 'number_order')).toMatchObject({ status: 'failed', fulfilled_count: 0 });
    // Finished orders are not resumed.
    const resumed = await call(gateway, { method: 'POST', path: `/api/v1/number_orders/${failed.id}/resume`, authorization: company.authorization });
    expect(resumed.status, resumed.text).toBe(409);
  });

  it('leaves an order in_progress when the request\'s time budget runs out, and resume goes on until it is complete', async () => {
    // Three numbers back in the range.
    for (const row of (await numbers()).slice(0, 3)) expect((await call(gateway, { method: 'DELETE', path: `/api/v1/phone_numbers/${row.id}`, authorization: company.authorization })).status).toBe(200);
    process.env.NUMBER_ORDER_FILL_BUDGET_MS = '0';
    const started = recordOf(await order({ quantity: 3 }), 'number_order');
    expect(started).toMatchObject({ status: 'in_progress', fulfilled_count: 1, completed_at: null });
    const resume = () => call(gateway, { method: 'POST', path: `/api/v1/number_orders/${started.id}/resume`, authorization: company.authorization });
    // Another request holding the order (its lease not run out) keeps this one from filling it too.
    const lease = (until: Date) =>
      db.send(new UpdateCommand({ TableName: tableName, Key: keys.record(company.id, 'number_orders', started.id), UpdateExpression: 'SET lease_until = :until', ExpressionAttributeValues: { ':until': until.toISOString() } }));
    await lease(new Date(clock().now().getTime() + 30_000));
    const busy = await resume();
    expect(busy.status, busy.text).toBe(409);
    expect(busy.body.errors).toEqual({ status: ['is being filled by another request'] });
    await lease(clock().now());
    expect(recordOf(await resume(), 'number_order')).toMatchObject({ status: 'in_progress', fulfilled_count: 2 });
    const done = recordOf(await resume(), 'number_order');
    expect(done).toMatchObject({ status: 'completed', fulfilled_count: 3 });
    expect(new Set(done.phone_number_ids).size).toBe(3);
    expect((await resume()).status).toBe(409);
    expect(await numbers()).toHaveLength(5);
  });

  it('renames an order but refuses changes to its terms; deleting it keeps the numbers it bought', async () => {
    const [first] = await listThrough(gateway, company, '/api/v1/number_orders', 'number_orders');
    const put = (json: Record<string, unknown>) => call(gateway, { method: 'PUT', path: `/api/v1/number_orders/${first!.id}`, authorization: company.authorization, json });
    expect(recordOf(await put({ name: 'Renamed' }), 'number_order').name).toBe('Renamed');
    expect422(await put({ quantity: 5, status: 'completed' }), { quantity: ['cannot be changed: place another order'], status: ['cannot be changed: the order sets it'] });
    expect((await call(gateway, { method: 'DELETE', path: `/api/v1/number_orders/${first!.id}`, authorization: company.authorization })).status).toBe(200);
    expect404(await call(gateway, { path: `/api/v1/number_orders/${first!.id}`, authorization: company.authorization }));
    expect(await numbers()).toHaveLength(5);
  });

  it('refuses quantities out of bounds, more than one way to choose numbers, bad prefixes, and another company\'s records', async () => {
    const other = await createTestCompany('number-orders-other');
    const theirOffer = await createThrough(gateway, other, '/api/v1/offers', { name: 'Theirs' });
    const theirPrefix = await createThrough(gateway, other, '/api/v1/number_order_prefixes', { prefix: '212555' });
    expect422(await order({ quantity: 0 }), { quantity: ['must be greater than or equal to 1'] });
    expect422(await order({ quantity: 101 }), { quantity: ['must be less than or equal to 100'] });
    expect422(await order({ quantity: 1, area_code: range.areaCode, prefix: `${range.areaCode}555` }), { base: ['give at most one of area_code, prefix and number_order_prefix_id'] });
    expect422(await order({ quantity: 1, prefix: '1415' }), { prefix: ['is not a prefix (3 to 7 digits after +1, the first 2-9)'] });
    expect422(await order({ quantity: 1, offer_id: theirOffer.id + 1000 }), { offer_id: [`does not exist: ${theirOffer.id + 1000}`] });
    expect422(await order({ quantity: 1, number_order_prefix_id: theirPrefix.id + 1000 }), { number_order_prefix_id: [`does not exist: ${theirPrefix.id + 1000}`] });
    expect422(await call(gateway, { method: 'POST', path: '/api/v1/number_order_prefixes', authorization: company.authorization, json: { prefix: '12', country: 'FR' } }), {
      prefix: ['is not a prefix (3 to 7 digits after +1, the first 2-9)'],
      country: ['is not included in the list (US, CA)'],
    });
    expect(await numbers()).toHaveLength(5);
  });
});
