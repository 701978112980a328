import { beforeEach, describe, expect, it, vi } from 'vitest';
import { numberProvider } from '../../shared/adapters/index.js';
import { TestNumberRange } from '../../shared/adapters/local/test-number-range.js';
import { db } from '../../shared/db/client.js';
import { findNumber } from '../../shared/numbers/lookup.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { COMMON_COLUMNS } from '../fixtures/reference.js';
import { expect422 } from '../fixtures/envelope.js';
import { fileNumberRange } from '../fixtures/number-range.js';

/**
 * Tracking numbers through the local gateway, bought from the local number range. Numbers are
 * unique across the deployment, so this file has a range of its own (test/fixtures/number-range.ts),
 * and each test works out the numbers it expects from a search it makes.
 */
const range = fileNumberRange();
/** The last four digits of the range's `index`-th number (what `contains` searches match). */
const line = (index: number) => range.number(index).slice(-4);
const gateway = useGateway();
let company: TestCompany;
let other: TestCompany;

beforeEach(async () => {
  company = await createTestCompany('numbers');
  other = await createTestCompany('numbers-other');
});

const PATH = '/api/v1/phone_numbers';
const COLUMNS = [
  ...COMMON_COLUMNS,
  'company_id',
  'number',
  'name',
  'offer_id',
  'traffic_source_id',
  'ring_pool_id',
  'provider',
  'provider_id',
  'status',
];
const ASSOCIATIONS = ['offer', 'traffic_source', 'ring_pool'];

function provider(): TestNumberRange {
  const instance = numberProvider();
  if (!(instance instanceof TestNumberRange)) throw new Error('tests run with the local number range');
  return instance;
}

async function createConfig(owner: TestCompany, resource: string, root: string, json: Record<string, unknown>): Promise<number> {
  const reply = await call(gateway, { method: 'POST', path: `/api/v1/${resource}`, authorization: owner.authorization, json });
  expect(reply.status, reply.text).toBe(200);
  return reply.body[root].id as number;
}

const createOffer = (owner: TestCompany, name = 'Solar') => createConfig(owner, 'offers', 'offer', { name });
const createTrafficSource = (owner: TestCompany, name = 'Search ads') => createConfig(owner, 'traffic_sources', 'traffic_source', { name });
const createPool = (owner: TestCompany, offerId: number, name = 'Pool') => createConfig(owner, 'ring_pools', 'ring_pool', { name, offer_id: offerId });

async function search(owner: TestCompany, query = ''): Promise<string[]> {
  const reply = await call(gateway, { path: `${PATH}/search${query ? `?${query}` : ''}`, authorization: owner.authorization });
  expect(reply.status, reply.text).toBe(200);
  return (reply.body.phone_numbers as { number: string }[]).map((entry) => entry.number);
}

async function buy(owner: TestCompany, json: Record<string, unknown>): Promise<Record<string, any>> {
  const reply = await call(gateway, { method: 'POST', path: PATH, authorization: owner.authorization, json });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.phone_number as Record<string, any>;
}

async function count(owner: TestCompany): Promise<number> {
  const reply = await call(gateway, { path: PATH, authorization: owner.authorization });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.metadata.total_count as number;
}

const purchasesOf = (number: string) => provider().purchases.filter((purchase) => purchase.number === number).length;
const releasesOf = (number: string) => provider().releases.filter((release) => release.number === number).length;

describe('GET /api/v1/phone_numbers/search', () => {
  it('lists free numbers of the range as { number } in the list envelope', async () => {
    const reply = await call(gateway, { path: `${PATH}/search?per_page=3`, authorization: company.authorization });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.status).toBe(200);
    expect(reply.body.metadata).toEqual({ root: 'phone_numbers', per_page: 3, total_count: 3 });
    expect(reply.body.phone_numbers).toHaveLength(3);
    for (const entry of reply.body.phone_numbers as object[]) {
      expect(Object.keys(entry)).toEqual(['number']);
      expect((entry as { number: string }).number).toMatch(new RegExp(`^\\+1${range.areaCode}555\\d{4}$`));
    }
  });

  it('filters by area_code and contains, and answers bare with root=false', async () => {
    expect(await search(company, `contains=${line(99)}`)).toEqual([range.number(99)]);
    expect(await search(company, `contains=${line(89).slice(0, 2)}*9&per_page=50`)).toContain(range.number(89));
    expect(await search(company, `area_code=${range.otherAreaCode}`)).toEqual([]);
    expect(await search(company, `area_code=${range.areaCode}&per_page=2`)).toHaveLength(2);
    const bare = await call(gateway, { path: `${PATH}/search?contains=${line(99)}&root=false`, authorization: company.authorization });
    expect(bare.body).toEqual([{ number: range.number(99) }]);
  });

  it('validates its parameters and needs credentials', async () => {
    expect422(await call(gateway, { path: `${PATH}/search?per_page=51`, authorization: company.authorization }), { per_page: ['must be at most 50'] });
    expect422(await call(gateway, { path: `${PATH}/search?area_code=41`, authorization: company.authorization }), { area_code: ['is not an area code (3 digits)'] });
    expect422(await call(gateway, { path: `${PATH}/search?contains=abc`, authorization: company.authorization }), {
      contains: ['is not a pattern of 2 to 10 digits (* for any digit)'],
    });
    expect((await call(gateway, { path: `${PATH}/search` })).status).toBe(401);
  });
});

describe('buying a number (create)', () => {
  it('buys a number from search, which search then leaves out and findNumber finds', async () => {
    const offerId = await createOffer(company);
    const free = await search(company, 'per_page=10');
    const chosen = free[5]!;
    const reply = await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { number: chosen, offer_id: offerId, name: 'Main line' } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.metadata).toEqual({ root: 'phone_number' });
    const record = reply.body.phone_number as Record<string, any>;
    expect(Object.keys(record).sort()).toEqual([...COLUMNS, ...ASSOCIATIONS].sort());
    expect(record).toMatchObject({
      type: 'PhoneNumber',
      company_id: company.id,
      number: chosen,
      name: 'Main line',
      offer_id: offerId,
      traffic_source_id: null,
      ring_pool_id: null,
      provider: 'local',
      provider_id: `LOCAL${chosen.slice(1)}`,
      status: 'active',
      offer: { id: offerId, name: 'Solar' },
      traffic_source: null,
      ring_pool: null,
      routes_show_path: `${PATH}/${record.id}`,
    });
    expect(purchasesOf(chosen)).toBe(1);
    expect(await search(company, 'per_page=50')).not.toContain(chosen);
    expect(await search(other, 'per_page=50')).not.toContain(chosen);
    expect(await findNumber(chosen)).toEqual({ number: chosen, company_id: company.id, id: record.id, offer_id: offerId, traffic_source_id: null, ring_pool_id: null });
    const shown = await call(gateway, { path: `${PATH}/${record.id}`, authorization: company.authorization });
    expect(shown.body.phone_number).toEqual(record);
  });

  it('normalises a number written with spaces and punctuation to E.164', async () => {
    const offerId = await createOffer(company);
    const [free] = await search(company, `contains=${line(98)}`);
    expect(free).toBe(range.number(98));
    const record = await buy(company, { number: `+1 (${range.areaCode}) 555-${line(98)}`, offer_id: offerId });
    expect(record.number).toBe(range.number(98));
  });

  it('buys the first free number when none is named, in the area code asked', async () => {
    const offerId = await createOffer(company);
    const [first] = await search(company, 'per_page=1');
    const automatic = await buy(company, { offer_id: offerId });
    expect(automatic.number).toBe(first);
    const [next] = await search(company, `area_code=${range.areaCode}&per_page=1`);
    expect(next).not.toBe(first);
    expect((await buy(company, { offer_id: offerId, area_code: range.areaCode })).number).toBe(next);
    expect422(await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { offer_id: offerId, area_code: range.otherAreaCode } }), {
      number: [`no number is available in area code ${range.otherAreaCode}`],
    });
    expect(await count(company)).toBe(2);
  });

  it('answers 409 for a number another company holds, without buying it again', async () => {
    const offerId = await createOffer(company);
    const otherOffer = await createOffer(other);
    const [number] = await search(company, 'per_page=1');
    await buy(company, { number, offer_id: offerId });
    const reply = await call(gateway, { method: 'POST', path: PATH, authorization: other.authorization, json: { number, offer_id: otherOffer } });
    expect(reply.status, reply.text).toBe(409);
    expect(reply.body).toMatchObject({ status: 409, errors: { number: ['has already been taken'] } });
    expect((await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { number, offer_id: offerId } })).status).toBe(409);
    expect(purchasesOf(number!)).toBe(1);
    expect(await count(other)).toBe(0);
    expect((await findNumber(number!))?.company_id).toBe(company.id);
  });

  it('lets exactly one of two companies buying the same number at once have it; the loser\'s purchase is released', async () => {
    const offers = [await createOffer(company), await createOffer(other)];
    const [number] = await search(company, 'per_page=1');
    const replies = await Promise.all(
      [company, other].map((owner, index) => call(gateway, { method: 'POST', path: PATH, authorization: owner.authorization, json: { number, offer_id: offers[index] } })),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409]);
    const winner = replies[0]!.status === 200 ? company : other;
    expect((await findNumber(number!))?.company_id).toBe(winner.id);
    // Bought once and kept, or bought twice and the transaction's loser released again.
    expect(purchasesOf(number!) - releasesOf(number!)).toBe(1);
  });

  it('requires an offer of the caller\'s company, and checks traffic source and pool the same way', async () => {
    const offerId = await createOffer(company);
    // Ids count per company: the other company's second offer has an id this company lacks.
    await createOffer(other);
    const otherOffer = await createOffer(other);
    const otherSource = await createTrafficSource(other);
    const purchasesBefore = provider().purchases.length;
    expect422(await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: {} }), { offer_id: ['is required'] });
    expect422(await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { offer_id: otherOffer } }), {
      offer_id: [`does not exist: ${otherOffer}`],
    });
    expect422(await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { offer_id: offerId, traffic_source_id: otherSource } }), {
      traffic_source_id: [`does not exist: ${otherSource}`],
    });
    expect422(await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { offer_id: offerId, ring_pool_id: 999 } }), {
      ring_pool_id: ['does not exist: 999'],
    });
    expect(provider().purchases.length).toBe(purchasesBefore);
    expect(await count(company)).toBe(0);
  });

  it('refuses a malformed number and one the provider does not sell', async () => {
    const offerId = await createOffer(company);
    expect422(await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { number: '555-0100', offer_id: offerId } }), {
      number: ['is not a phone number in E.164 (+ and country code)'],
    });
    expect422(await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { number: '+13125550100', offer_id: offerId } }), {
      number: ['is not available from the number provider'],
    });
    expect(await findNumber('+13125550100')).toBeUndefined();
    expect(await count(company)).toBe(0);
  });
});

describe('changing a number (update)', () => {
  it('moves it to another offer, traffic source and pool, and findNumber follows with one GetItem', async () => {
    const firstOffer = await createOffer(company, 'First');
    const secondOffer = await createOffer(company, 'Second');
    const sourceId = await createTrafficSource(company);
    const poolId = await createPool(company, secondOffer);
    const bought = await buy(company, { offer_id: firstOffer });
    const number = bought.number as string;

    const reply = await call(gateway, {
      method: 'PUT',
      path: `${PATH}/${bought.id}`,
      authorization: company.authorization,
      json: { offer_id: secondOffer, traffic_source_id: sourceId, ring_pool_id: poolId, name: 'Moved' },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.phone_number).toMatchObject({
      number,
      name: 'Moved',
      offer_id: secondOffer,
      traffic_source_id: sourceId,
      ring_pool_id: poolId,
      offer: { id: secondOffer, name: 'Second' },
      traffic_source: { id: sourceId, name: 'Search ads' },
      ring_pool: { id: poolId, name: 'Pool' },
    });

    const spy = vi.spyOn(db, 'send');
    const route = await findNumber(number);
    const commands = spy.mock.calls.map(([command]) => (command as object).constructor.name);
    spy.mockRestore();
    expect(commands).toEqual(['GetCommand']);
    expect(route).toEqual({ number, company_id: company.id, id: bought.id, offer_id: secondOffer, traffic_source_id: sourceId, ring_pool_id: poolId });

    await call(gateway, { method: 'PUT', path: `${PATH}/${bought.id}`, authorization: company.authorization, json: { traffic_source_id: null, ring_pool_id: '' } });
    expect(await findNumber(number)).toMatchObject({ offer_id: secondOffer, traffic_source_id: null, ring_pool_id: null });

    await call(gateway, { method: 'PUT', path: `${PATH}/${bought.id}`, authorization: company.authorization, json: { name: 'Only the name' } });
    expect(await findNumber(number)).toMatchObject({ offer_id: secondOffer, traffic_source_id: null, ring_pool_id: null });
  });

  it('refuses to change the number itself or to point at another company\'s records, leaving the lookup as it was', async () => {
    const offerId = await createOffer(company);
    await createOffer(other);
    const otherOffer = await createOffer(other);
    const bought = await buy(company, { offer_id: offerId });
    const put = (json: Record<string, unknown>) => call(gateway, { method: 'PUT', path: `${PATH}/${bought.id}`, authorization: company.authorization, json });
    expect422(await put({ number: range.number(97) }), { number: ['cannot be changed: buy another number and delete this one'] });
    expect422(await put({ offer_id: otherOffer }), { offer_id: [`does not exist: ${otherOffer}`] });
    expect(await findNumber(bought.number as string)).toMatchObject({ company_id: company.id, offer_id: offerId });
    const shown = await call(gateway, { path: `${PATH}/${bought.id}`, authorization: company.authorization });
    expect(shown.body.phone_number).toMatchObject({ number: bought.number, offer_id: offerId });
  });
});

describe('releasing a number (delete)', () => {
  it('removes the record and lookup, releases it at the provider, and makes it searchable and buyable again', async () => {
    const offerId = await createOffer(company);
    const [number] = await search(company, `contains=${line(96)}`);
    expect(number).toBe(range.number(96));
    const bought = await buy(company, { number, offer_id: offerId });
    expect(await search(company, `contains=${line(96)}`)).toEqual([]);

    const reply = await call(gateway, { method: 'DELETE', path: `${PATH}/${bought.id}`, authorization: company.authorization });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.phone_number).toMatchObject({ id: bought.id, number });
    expect(provider().releases).toContainEqual({ provider_id: `LOCAL${range.number(96).slice(1)}`, number });
    expect(await findNumber(number!)).toBeUndefined();
    expect(await search(company, `contains=${line(96)}`)).toEqual([number]);
    expect((await call(gateway, { path: `${PATH}/${bought.id}`, authorization: company.authorization })).status).toBe(404);
    expect(await count(company)).toBe(0);

    const otherOffer = await createOffer(other);
    expect((await buy(other, { number, offer_id: otherOffer })).number).toBe(number);
    expect((await findNumber(number!))?.company_id).toBe(other.id);
  });
});

describe('company scope and lists', () => {
  it('answers 404 for another company\'s number on show, update and delete, and keeps it', async () => {
    const offerId = await createOffer(company);
    const bought = await buy(company, { offer_id: offerId });
    const path = `${PATH}/${bought.id}`;
    expect((await call(gateway, { path, authorization: other.authorization })).status).toBe(404);
    expect((await call(gateway, { method: 'PUT', path, authorization: other.authorization, json: { name: 'Mine now' } })).status).toBe(404);
    const releasesBefore = provider().releases.length;
    expect((await call(gateway, { method: 'DELETE', path, authorization: other.authorization })).status).toBe(404);
    expect(provider().releases.length).toBe(releasesBefore);
    expect(await findNumber(bought.number as string)).toMatchObject({ company_id: company.id, id: bought.id });
    expect(await count(other)).toBe(0);
  });

  it('lists the company\'s numbers with filters, fulltext and the grid serializer', async () => {
    const first = await createOffer(company, 'First');
    const second = await createOffer(company, 'Second');
    const a = await buy(company, { offer_id: first, name: 'Billboard' });
    const b = await buy(company, { offer_id: second, name: 'Radio' });
    const list = async (query: string) => {
      const reply = await call(gateway, { path: `${PATH}?${query}`, authorization: company.authorization });
      expect(reply.status, reply.text).toBe(200);
      return reply.body.phone_numbers as Record<string, any>[];
    };
    expect((await list('')).map((row) => row.id)).toEqual([a.id, b.id]);
    expect((await list(`offer_id=${second}`)).map((row) => row.id)).toEqual([b.id]);
    expect((await list('fulltext=billboard')).map((row) => row.id)).toEqual([a.id]);
    expect((await list(`number=${encodeURIComponent(b.number as string)}`)).map((row) => row.id)).toEqual([b.id]);
    const grid = await list('serializer=phone_number_grid');
    expect(grid[0]).not.toHaveProperty('offer');
    expect(grid[0]).toMatchObject({ offer_id: first });
  });

  it('has no `new` (the reference lists none)', async () => {
    expect((await call(gateway, { path: `${PATH}/new`, authorization: company.authorization })).status).toBe(404);
  });
});
