import { beforeEach, describe, expect, it } from 'vitest';
import { findNumber, numbersOfOffer, numbersOfPool } from '../../shared/numbers/lookup.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, type ApiReply, useGateway } from '../fixtures/gateway.js';
import { COMMON_COLUMNS } from '../fixtures/reference.js';
import { expect422 } from '../fixtures/envelope.js';

/**
 * Number pools through the local gateway: the six operations, the numbers they show (from the
 * numbers that name them), the lookups routing uses, and what deleting a pool does to its numbers.
 * Numbers come from a range of this file's own (test/fixtures/number-range.ts).
 */
const gateway = useGateway();
let company: TestCompany;
let other: TestCompany;

beforeEach(async () => {
  company = await createTestCompany('pools');
  other = await createTestCompany('pools-other');
});

const PATH = '/api/v1/ring_pools';
const COLUMNS = [
  ...COMMON_COLUMNS,
  'company_id',
  'name',
  'description',
  'offer_id',
  'traffic_source_id',
  'phone_number_ids',
  'numbers_count',
];

async function create(owner: TestCompany, resource: string, root: string, json: Record<string, unknown>): Promise<Record<string, any>> {
  const reply = await call(gateway, { method: 'POST', path: `/api/v1/${resource}`, authorization: owner.authorization, json });
  expect(reply.status, reply.text).toBe(200);
  return reply.body[root] as Record<string, any>;
}

const createOffer = async (owner: TestCompany, name = 'Solar') => (await create(owner, 'offers', 'offer', { name })).id as number;
const createPool = (owner: TestCompany, json: Record<string, unknown>) => create(owner, 'ring_pools', 'ring_pool', { name: 'Pool', ...json });
const buy = (owner: TestCompany, json: Record<string, unknown>) => create(owner, 'phone_numbers', 'phone_number', json);

async function show(owner: TestCompany, id: number): Promise<ApiReply> {
  return call(gateway, { path: `${PATH}/${id}`, authorization: owner.authorization });
}

describe('ring_pools: the six operations', () => {
  it('new shows the defaults, no numbers, and persists nothing', async () => {
    const reply = await call(gateway, { path: `${PATH}/new?name=Draft`, authorization: company.authorization });
    expect(reply.status, reply.text).toBe(200);
    const record = reply.body.ring_pool as Record<string, unknown>;
    expect(Object.keys(record).sort()).toEqual([...COLUMNS].sort());
    expect(record).toMatchObject({ id: null, type: 'RingPool', name: 'Draft', offer_id: null, phone_number_ids: [], numbers_count: 0 });
    const list = await call(gateway, { path: PATH, authorization: company.authorization });
    expect(list.body.metadata.total_count).toBe(0);
  });

  it('creates, shows, updates, lists and deletes a pool', async () => {
    const offerId = await createOffer(company);
    const source = await create(company, 'traffic_sources', 'traffic_source', { name: 'Radio' });
    const created = await createPool(company, { name: '  East coast  ', offer_id: offerId, traffic_source_id: source.id, description: 'NY and NJ' });
    expect(Object.keys(created).sort()).toEqual([...COLUMNS, 'offer', 'traffic_source'].sort());
    expect(created).toMatchObject({
      id: 1,
      type: 'RingPool',
      company_id: company.id,
      name: 'East coast',
      description: 'NY and NJ',
      offer_id: offerId,
      traffic_source_id: source.id,
      phone_number_ids: [],
      numbers_count: 0,
      offer: { id: offerId, name: 'Solar' },
      traffic_source: { id: source.id, name: 'Radio' },
      routes_show_path: `${PATH}/1`,
    });
    expect((await show(company, created.id)).body.ring_pool).toEqual(created);

    const updated = await call(gateway, { method: 'PUT', path: `${PATH}/${created.id}`, authorization: company.authorization, json: { name: 'West', traffic_source_id: null } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.ring_pool).toMatchObject({ name: 'West', traffic_source_id: null, traffic_source: null, description: 'NY and NJ' });

    const listed = await call(gateway, { path: `${PATH}?serializer=ring_pool_grid`, authorization: company.authorization });
    expect(listed.body.metadata.total_count).toBe(1);
    expect(listed.body.ring_pools[0]).toMatchObject({ id: created.id, name: 'West' });
    expect(listed.body.ring_pools[0]).not.toHaveProperty('offer');

    const deleted = await call(gateway, { method: 'DELETE', path: `${PATH}/${created.id}`, authorization: company.authorization });
    expect(deleted.status, deleted.text).toBe(200);
    expect((await show(company, created.id)).status).toBe(404);
  });

  it('requires a name and an offer of the caller\'s company', async () => {
    const offerId = await createOffer(company);
    await createOffer(other);
    const otherOffer = await createOffer(other);
    const post = (json: Record<string, unknown>) => call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json });
    expect422(await post({}), { name: ['is required'], offer_id: ['is required'] });
    expect422(await post({ name: ' ', offer_id: offerId }), { name: ["can't be blank"] });
    expect422(await post({ name: 'P', offer_id: otherOffer }), { offer_id: [`does not exist: ${otherOffer}`] });
    expect422(await post({ name: 'P', offer_id: offerId, traffic_source_id: 5 }), { traffic_source_id: ['does not exist: 5'] });
    const list = await call(gateway, { path: PATH, authorization: company.authorization });
    expect(list.body.metadata.total_count).toBe(0);
  });

  it('answers 404 for another company\'s pool, and a number cannot join it', async () => {
    const otherOffer = await createOffer(other);
    await createPool(other, { offer_id: otherOffer });
    const otherPool = await createPool(other, { offer_id: otherOffer, name: 'Theirs' });
    expect((await show(company, otherPool.id)).status).toBe(404);
    expect((await call(gateway, { method: 'PUT', path: `${PATH}/${otherPool.id}`, authorization: company.authorization, json: { name: 'x' } })).status).toBe(404);
    expect((await call(gateway, { method: 'DELETE', path: `${PATH}/${otherPool.id}`, authorization: company.authorization })).status).toBe(404);
    const offerId = await createOffer(company);
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/phone_numbers', authorization: company.authorization, json: { offer_id: offerId, ring_pool_id: otherPool.id } });
    expect422(reply, { ring_pool_id: [`does not exist: ${otherPool.id}`] });
    expect((await show(other, otherPool.id)).body.ring_pool).toMatchObject({ name: 'Theirs', numbers_count: 0 });
  });
});

describe('ring_pools: their numbers', () => {
  it('shows the ids and count of the numbers that name the pool, and follows moves', async () => {
    const offerId = await createOffer(company);
    const east = await createPool(company, { offer_id: offerId, name: 'East' });
    const west = await createPool(company, { offer_id: offerId, name: 'West' });
    const a = await buy(company, { offer_id: offerId, ring_pool_id: east.id });
    const b = await buy(company, { offer_id: offerId, ring_pool_id: east.id });
    const c = await buy(company, { offer_id: offerId, ring_pool_id: west.id });
    await buy(company, { offer_id: offerId });
    // Another company's numbers never count, even in a pool with the same id.
    const otherOffer = await createOffer(other);
    const otherPool = await createPool(other, { offer_id: otherOffer });
    expect(otherPool.id).toBe(east.id);
    await buy(other, { offer_id: otherOffer, ring_pool_id: otherPool.id });

    expect((await show(company, east.id)).body.ring_pool).toMatchObject({ phone_number_ids: [a.id, b.id], numbers_count: 2 });
    const list = await call(gateway, { path: `${PATH}?order=numbers_count&order_dir=desc`, authorization: company.authorization });
    expect(list.body.ring_pools.map((pool: Record<string, unknown>) => [pool.id, pool.numbers_count])).toEqual([
      [east.id, 2],
      [west.id, 1],
    ]);

    await call(gateway, { method: 'PUT', path: `/api/v1/phone_numbers/${a.id}`, authorization: company.authorization, json: { ring_pool_id: west.id } });
    expect((await show(company, east.id)).body.ring_pool).toMatchObject({ phone_number_ids: [b.id], numbers_count: 1 });
    expect((await show(company, west.id)).body.ring_pool).toMatchObject({ phone_number_ids: [a.id, c.id], numbers_count: 2 });
  });

  it('gives routing the numbers of a pool and of an offer (numbersOfPool, numbersOfOffer)', async () => {
    const solar = await createOffer(company, 'Solar');
    const roofing = await createOffer(company, 'Roofing');
    const pool = await createPool(company, { offer_id: solar });
    const a = await buy(company, { offer_id: solar, ring_pool_id: pool.id });
    const b = await buy(company, { offer_id: solar });
    const c = await buy(company, { offer_id: roofing, ring_pool_id: pool.id });
    const route = (record: Record<string, any>) => ({
      number: record.number,
      company_id: company.id,
      id: record.id,
      offer_id: record.offer_id,
      traffic_source_id: null,
      ring_pool_id: record.ring_pool_id,
    });
    expect(await numbersOfPool(company.id, pool.id)).toEqual([route(a), route(c)]);
    expect(await numbersOfOffer(company.id, solar)).toEqual([route(a), route(b)]);
    expect(await numbersOfOffer(company.id, roofing)).toEqual([route(c)]);
    expect(await numbersOfPool(other.id, pool.id)).toEqual([]);
  });

  it('deleting a pool takes its numbers out of it, in their records and their lookups', async () => {
    const offerId = await createOffer(company);
    const pool = await createPool(company, { offer_id: offerId });
    const kept = await createPool(company, { offer_id: offerId, name: 'Kept' });
    const member = await buy(company, { offer_id: offerId, ring_pool_id: pool.id });
    const bystander = await buy(company, { offer_id: offerId, ring_pool_id: kept.id });
    expect(await findNumber(member.number)).toMatchObject({ ring_pool_id: pool.id });

    const deleted = await call(gateway, { method: 'DELETE', path: `${PATH}/${pool.id}`, authorization: company.authorization });
    expect(deleted.status, deleted.text).toBe(200);
    const shown = await call(gateway, { path: `/api/v1/phone_numbers/${member.id}`, authorization: company.authorization });
    expect(shown.body.phone_number).toMatchObject({ ring_pool_id: null, ring_pool: null, offer_id: offerId });
    expect(await findNumber(member.number)).toMatchObject({ id: member.id, ring_pool_id: null, offer_id: offerId });
    expect(await numbersOfPool(company.id, pool.id)).toEqual([]);
    expect(await findNumber(bystander.number)).toMatchObject({ ring_pool_id: kept.id });
    expect((await show(company, kept.id)).body.ring_pool).toMatchObject({ phone_number_ids: [bystander.id], numbers_count: 1 });
  });
});
