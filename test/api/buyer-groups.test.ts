import { beforeEach, describe, expect, it } from 'vitest';
import { buyerGroups } from '../../shared/buyers/buyers-resource.js';
import { allColumns } from '../../shared/resources/define.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, type ApiReply, useGateway } from '../fixtures/gateway.js';

/**
 * Buyer groups through the local gateway (api-reference.md: list, show, update, delete, and
 * create as POST /api/v1/buyer_groups/:id): a name and member buyer ids, shown on the buyers
 * as buyer_group_ids and buyer_group_names.
 */

const gateway = useGateway();
let company: TestCompany;
let other: TestCompany;

beforeEach(async () => {
  company = await createTestCompany('groups');
  other = await createTestCompany('groups-other');
});

type Row = Record<string, any>;

const GROUPS = '/api/v1/buyer_groups';
const BUYERS = '/api/v1/buyers';

function api(owner: TestCompany, method: string, path: string, json?: unknown): Promise<ApiReply> {
  return call(gateway, { method, path, authorization: owner.authorization, json });
}

async function createBuyer(owner: TestCompany, name: string): Promise<number> {
  const reply = await api(owner, 'POST', BUYERS, { name });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.buyer.id as number;
}

async function createGroup(owner: TestCompany, fields: Record<string, unknown>, pathId: string | number = 0): Promise<Row> {
  const reply = await api(owner, 'POST', `${GROUPS}/${pathId}`, fields);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.buyer_group as Row;
}

async function showGroup(owner: TestCompany, id: number): Promise<Row> {
  const reply = await api(owner, 'GET', `${GROUPS}/${id}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.buyer_group as Row;
}

async function membership(owner: TestCompany): Promise<Row[]> {
  const reply = await api(owner, 'GET', `${BUYERS}?columns=id,buyer_group_ids,buyer_group_names`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.buyers as Row[];
}

describe('POST /api/v1/buyer_groups/:id', () => {
  it('creates a group with its buyers and answers with the record envelope', async () => {
    const first = await createBuyer(company, 'First');
    const second = await createBuyer(company, 'Second');
    const reply = await api(company, 'POST', `${GROUPS}/1`, { name: '  Premium  ', buyer_ids: `${first}, ${second}` });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ status: 200, errors: {}, metadata: { root: 'buyer_group' } });
    expect(reply.body.checksum).toMatch(/^[0-9a-f]{32}$/);
    const group = reply.body.buyer_group as Row;
    expect(group).toMatchObject({
      id: 1,
      type: 'BuyerGroup',
      name: 'Premium',
      buyer_ids: [first, second],
      company_id: company.id,
      routes_show_path: '/api/v1/buyer_groups/1',
      deleted_at: null,
    });
    expect(Object.keys(group)).toEqual(allColumns(buyerGroups));
    expect(await showGroup(company, 1)).toMatchObject({ name: 'Premium', buyer_ids: [first, second] });
  });

  it('gives the next id whatever the :id segment says', async () => {
    expect((await createGroup(company, { name: 'A' }, 42)).id).toBe(1);
    expect((await createGroup(company, { name: 'B' }, 1)).id).toBe(2);
    expect((await api(company, 'GET', `${GROUPS}/42`)).status).toBe(404);
    expect((await createGroup(other, { name: 'Theirs' }, 7)).id).toBe(1);
  });

  it('starts with no buyers when none are given', async () => {
    expect((await createGroup(company, { name: 'Empty' })).buyer_ids).toEqual([]);
    expect((await createGroup(company, { name: 'Blank', buyer_ids: '' })).buyer_ids).toBeNull();
  });

  it('is not served at POST /api/v1/buyer_groups', async () => {
    const reply = await api(company, 'POST', GROUPS, { name: 'Nope' });
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('GET');
    expect((await api(company, 'GET', GROUPS)).body.metadata.total_count).toBe(0);
  });

  it('has no /new endpoint', async () => {
    expect((await api(company, 'GET', `${GROUPS}/new`)).status).toBe(404);
  });

  it.each([
    ['without a name', {}, 'name', 'is required'],
    ['with a blank name', { name: '  ' }, 'name', "can't be blank"],
    ['with a name that is not a string', { name: 7 }, 'name', 'is not a string'],
    ['with buyer ids that are not ids', { name: 'G', buyer_ids: ['x'] }, 'buyer_ids.0', 'is not an integer'],
    ['with a buyer id of 0', { name: 'G', buyer_ids: [0] }, 'buyer_ids.0', 'is not a valid id'],
  ])('rejects a group %s', async (_what, body, field, message) => {
    const reply = await api(company, 'POST', `${GROUPS}/0`, body);
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ [field]: [message] });
    expect((await api(company, 'GET', GROUPS)).body.metadata.total_count).toBe(0);
  });

  it('rejects buyers that do not exist or belong to another company', async () => {
    const mine = await createBuyer(company, 'Mine');
    await createBuyer(other, 'Theirs 1');
    const theirs = await createBuyer(other, 'Theirs 2');
    expect(theirs).not.toBe(mine);
    const reply = await api(company, 'POST', `${GROUPS}/0`, { name: 'G', buyer_ids: [mine, theirs, 99] });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ buyer_ids: [`does not exist: ${theirs}, 99`] });
  });
});

describe('list, show, update and delete', () => {
  it('lists the company\'s groups with the list parameters', async () => {
    const buyer = await createBuyer(company, 'B');
    await createGroup(company, { name: 'Charlie' });
    await createGroup(company, { name: 'Alpha', buyer_ids: [buyer] });
    await createGroup(company, { name: 'Bravo' });
    await createGroup(other, { name: 'Other company' });

    const reply = await api(company, 'GET', GROUPS);
    expect(reply.status).toBe(200);
    expect(reply.body.metadata).toMatchObject({ total_count: 3, page: 1, per_page: 25 });
    expect((reply.body.buyer_groups as Row[]).map((group) => group.name)).toEqual(['Charlie', 'Alpha', 'Bravo']);

    const byName = await api(company, 'GET', `${GROUPS}?order=name`);
    expect((byName.body.buyer_groups as Row[]).map((group) => group.name)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    const byNameDesc = await api(company, 'GET', `${GROUPS}?order=name&order_dir=desc&columns=name,buyer_ids`);
    expect(byNameDesc.body.buyer_groups).toEqual([
      { name: 'Charlie', buyer_ids: [] },
      { name: 'Bravo', buyer_ids: [] },
      { name: 'Alpha', buyer_ids: [buyer] },
    ]);
    const search = await api(company, 'GET', `${GROUPS}?fulltext=brav&root=false&columns=id`);
    expect(search.body).toEqual([{ id: 3 }]);
    const paged = await api(company, 'GET', `${GROUPS}?per_page=2&page=2&columns=name`);
    expect(paged.body.buyer_groups).toEqual([{ name: 'Bravo' }]);
    expect((await api(company, 'GET', `${GROUPS}?order=buyer_ids`)).status).toBe(422);
    expect((await api(company, 'GET', `${GROUPS}.csv`)).status).toBe(404);
  });

  it('shows a group only to its company', async () => {
    const group = await createGroup(company, { name: 'Mine' });
    expect((await showGroup(company, group.id)).name).toBe('Mine');
    expect((await api(other, 'GET', `${GROUPS}/${group.id}`)).status).toBe(404);
    expect((await api(other, 'PUT', `${GROUPS}/${group.id}`, { name: 'Taken' })).status).toBe(404);
    expect((await api(other, 'DELETE', `${GROUPS}/${group.id}`)).status).toBe(404);
    expect((await api(company, 'GET', `${GROUPS}/${group.id + 1}`)).status).toBe(404);
    expect((await api(company, 'GET', `${GROUPS}/abc`)).status).toBe(404);
    expect((await showGroup(company, group.id)).name).toBe('Mine');
  });

  it('updates the name and the buyers, each on its own', async () => {
    const first = await createBuyer(company, 'First');
    const second = await createBuyer(company, 'Second');
    const group = await createGroup(company, { name: 'Before', buyer_ids: [first] });

    const renamed = await api(company, 'PUT', `${GROUPS}/${group.id}`, { name: 'After' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.buyer_group).toMatchObject({ name: 'After', buyer_ids: [first] });

    const moved = await api(company, 'PUT', `${GROUPS}/${group.id}`, { buyer_ids: [second, first] });
    expect(moved.body.buyer_group).toMatchObject({ name: 'After', buyer_ids: [second, first] });
    expect(await showGroup(company, group.id)).toMatchObject({ name: 'After', buyer_ids: [second, first] });

    const wrapped = await api(company, 'PUT', `${GROUPS}/${group.id}`, { buyer_group: { buyer_ids: [] } });
    expect(wrapped.body.buyer_group.buyer_ids).toEqual([]);
  });

  it('rejects a bad update and keeps the group', async () => {
    const buyer = await createBuyer(company, 'B');
    const group = await createGroup(company, { name: 'Kept', buyer_ids: [buyer] });
    for (const [body, field] of [
      [{ name: '' }, 'name'],
      [{ buyer_ids: [buyer, 55] }, 'buyer_ids'],
      [{ buyer_ids: `${buyer},b` }, 'buyer_ids.1'],
    ] as const) {
      const reply = await api(company, 'PUT', `${GROUPS}/${group.id}`, body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(reply.body.errors)).toEqual([field]);
    }
    expect(await showGroup(company, group.id)).toMatchObject({ name: 'Kept', buyer_ids: [buyer] });
  });

  it('deletes a group, answering with it', async () => {
    const group = await createGroup(company, { name: 'Gone' });
    const kept = await createGroup(company, { name: 'Kept' });
    const reply = await api(company, 'DELETE', `${GROUPS}/${group.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body.buyer_group).toMatchObject({ id: group.id, name: 'Gone' });
    expect((await api(company, 'GET', `${GROUPS}/${group.id}`)).status).toBe(404);
    expect((await api(company, 'DELETE', `${GROUPS}/${group.id}`)).status).toBe(404);
    const list = await api(company, 'GET', GROUPS);
    expect(list.body.metadata.total_count).toBe(1);
    expect((list.body.buyer_groups as Row[]).map((row) => row.id)).toEqual([kept.id]);
  });
});

describe('buyer_group_ids and buyer_group_names on buyers', () => {
  it('shows each buyer the groups it is in, following group changes', async () => {
    const first = await createBuyer(company, 'First');
    const second = await createBuyer(company, 'Second');
    const loner = await createBuyer(company, 'Loner');
    const premium = await createGroup(company, { name: 'Premium', buyer_ids: [first, second] });
    const night = await createGroup(company, { name: 'Night', buyer_ids: [second] });

    expect(await membership(company)).toEqual([
      { id: first, buyer_group_ids: [premium.id], buyer_group_names: ['Premium'] },
      { id: second, buyer_group_ids: [premium.id, night.id], buyer_group_names: ['Premium', 'Night'] },
      { id: loner, buyer_group_ids: [], buyer_group_names: [] },
    ]);
    const shown = await api(company, 'GET', `${BUYERS}/${second}`);
    expect(shown.body.buyer).toMatchObject({ buyer_group_ids: [premium.id, night.id], buyer_group_names: ['Premium', 'Night'] });

    await api(company, 'PUT', `${GROUPS}/${premium.id}`, { name: 'Gold', buyer_ids: [second, loner] });
    await api(company, 'DELETE', `${GROUPS}/${night.id}`);
    expect(await membership(company)).toEqual([
      { id: first, buyer_group_ids: [], buyer_group_names: [] },
      { id: second, buyer_group_ids: [premium.id], buyer_group_names: ['Gold'] },
      { id: loner, buyer_group_ids: [premium.id], buyer_group_names: ['Gold'] },
    ]);
  });

  it('is not writable on the buyer', async () => {
    const buyer = await createBuyer(company, 'B');
    await createGroup(company, { name: 'G' });
    const reply = await api(company, 'PUT', `${BUYERS}/${buyer}`, { buyer_group_ids: [1], buyer_group_names: ['G'] });
    expect(reply.status).toBe(200);
    expect(reply.body.buyer).toMatchObject({ buyer_group_ids: [], buyer_group_names: [] });
  });

  it('does not mix companies', async () => {
    const mine = await createBuyer(company, 'Mine');
    const theirs = await createBuyer(other, 'Theirs');
    expect(theirs).toBe(mine);
    await createGroup(other, { name: 'Their group', buyer_ids: [theirs] });
    expect(await membership(company)).toEqual([{ id: mine, buyer_group_ids: [], buyer_group_names: [] }]);
    expect(await membership(other)).toEqual([{ id: theirs, buyer_group_ids: [1], buyer_group_names: ['Their group'] }]);
  });

  it('takes a deleted buyer out of its groups, so the group can be saved as shown', async () => {
    const first = await createBuyer(company, 'First');
    const second = await createBuyer(company, 'Second');
    const group = await createGroup(company, { name: 'G', buyer_ids: [first, second] });
    const untouched = await createGroup(company, { name: 'Other', buyer_ids: [first] });
    expect((await api(company, 'DELETE', `${BUYERS}/${second}`)).status).toBe(200);

    const shown = await showGroup(company, group.id);
    expect(shown.buyer_ids).toEqual([first]);
    expect((await showGroup(company, untouched.id)).buyer_ids).toEqual([first]);
    const saved = await api(company, 'PUT', `${GROUPS}/${group.id}`, { name: 'Renamed', buyer_ids: shown.buyer_ids });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.buyer_group).toMatchObject({ name: 'Renamed', buyer_ids: [first] });
  });
});
