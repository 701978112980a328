import { beforeEach, describe, expect, it } from 'vitest';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { COMMON_COLUMNS } from '../fixtures/reference.js';
import { expect422, recordOf } from '../fixtures/envelope.js';

/**
 * Offers and traffic sources through the local gateway: the six operations, the envelope, the
 * columns, time zones, and for offers the generated read-only tokens.
 */

const gateway = useGateway();
let company: TestCompany;
let other: TestCompany;

beforeEach(async () => {
  // Fresh companies per test: ids and counts start from nothing, files run in parallel.
  company = await createTestCompany('offers');
  other = await createTestCompany('offers-other');
});

const OFFER_COLUMNS = [...COMMON_COLUMNS, 'company_id', 'name', 'context_menu_name', 'description', 'time_zone', 'lead_token', 'offer_token', 'buyer_ids', 'buyer_group_ids', 'whisper_sound_file_id', 'hold_sound_playlist_id'];
const TRAFFIC_SOURCE_COLUMNS = [...COMMON_COLUMNS, 'company_id', 'name', 'context_menu_name', 'description', 'time_zone', 'user_traffic_source_id', 'first_name', 'last_name', 'company_name', 'email'];

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
const TOKEN = /^[0-9a-f]{32}$/;

interface Kind {
  path: string;
  root: string;
  plural: string;
  type: string;
  columns: string[];
}

const OFFERS: Kind = { path: '/api/v1/offers', root: 'offer', plural: 'offers', type: 'Offer', columns: OFFER_COLUMNS };
const TRAFFIC_SOURCES: Kind = { path: '/api/v1/traffic_sources', root: 'traffic_source', plural: 'traffic_sources', type: 'TrafficSource', columns: TRAFFIC_SOURCE_COLUMNS };

async function create(kind: Kind, owner: TestCompany, fields: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const reply = await call(gateway, { method: 'POST', path: kind.path, authorization: owner.authorization, json: { name: 'Solar leads', ...fields } });
  expect(reply.status, reply.text).toBe(200);
  return reply.body[kind.root] as Record<string, any>;
}


async function count(kind: Kind, owner: TestCompany): Promise<number> {
  const reply = await call(gateway, { path: kind.path, authorization: owner.authorization });
  expect(reply.status).toBe(200);
  return reply.body.metadata.total_count as number;
}

describe.each([OFFERS, TRAFFIC_SOURCES])('$plural: the six operations', (kind) => {
  it('creates a record with every column, in the record envelope', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: kind.path,
      authorization: company.authorization,
      json: { name: '  Solar leads  ', description: 'Rooftop solar', time_zone: 'Europe/Berlin' },
    });
    const record = recordOf(reply, kind.root);
    expect(Object.keys(record).sort()).toEqual([...kind.columns].sort());
    expect(record).toMatchObject({
      id: 1,
      legacy_id: null,
      type: kind.type,
      deleted_at: null,
      external_record_id: null,
      routes_show_path: `${kind.path}/1`,
      routes_edit_path: `${kind.path}/1`,
      company_id: company.id,
      name: 'Solar leads',
      context_menu_name: 'Solar leads',
      description: 'Rooftop solar',
      time_zone: 'Europe/Berlin',
    });
    expect(record.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(record.created_at).toMatch(TIME);
    expect(record.updated_at).toMatch(TIME);
    expect(record.user_updated_at).toMatch(TIME);
  });

  it('defaults time_zone to UTC and description to null', async () => {
    const record = await create(kind, company);
    expect(record.time_zone).toBe('UTC');
    expect(record.description).toBeNull();
  });

  it('accepts the fields wrapped in the root node', async () => {
    const reply = await call(gateway, { method: 'POST', path: kind.path, authorization: company.authorization, json: { [kind.root]: { name: 'Wrapped' } } });
    expect(recordOf(reply, kind.root).name).toBe('Wrapped');
  });

  it('accepts a form-encoded body', async () => {
    const reply = await call(gateway, { method: 'POST', path: kind.path, authorization: company.authorization, form: 'name=Form+offer&time_zone=America%2FChicago' });
    expect(recordOf(reply, kind.root)).toMatchObject({ name: 'Form offer', time_zone: 'America/Chicago' });
  });

  it('requires a name and writes nothing without one', async () => {
    expect422(await call(gateway, { method: 'POST', path: kind.path, authorization: company.authorization, json: { description: 'x' } }), { name: ['is required'] });
    expect422(await call(gateway, { method: 'POST', path: kind.path, authorization: company.authorization, json: { name: '   ' } }), { name: ["can't be blank"] });
    expect422(await call(gateway, { method: 'POST', path: kind.path, authorization: company.authorization, json: { name: 7 } }), { name: ['is not a string'] });
    expect(await count(kind, company)).toBe(0);
  });

  it('stores a Rails time zone name as its IANA zone', async () => {
    const record = await create(kind, company, { time_zone: 'Eastern Time (US & Canada)' });
    expect(record.time_zone).toBe('America/New_York');
    const shown = await call(gateway, { path: `${kind.path}/${record.id}`, authorization: company.authorization });
    expect(shown.body[kind.root].time_zone).toBe('America/New_York');
  });

  it('rejects a time zone that does not exist, on create and on update', async () => {
    expect422(await call(gateway, { method: 'POST', path: kind.path, authorization: company.authorization, json: { name: 'X', time_zone: 'Mars/Base' } }), {
      time_zone: ['is not a valid time zone'],
    });
    expect(await count(kind, company)).toBe(0);
    const record = await create(kind, company, { time_zone: 'Europe/Paris' });
    expect422(await call(gateway, { method: 'PUT', path: `${kind.path}/${record.id}`, authorization: company.authorization, json: { time_zone: 'Mars/Base' } }), {
      time_zone: ['is not a valid time zone'],
    });
    const shown = await call(gateway, { path: `${kind.path}/${record.id}`, authorization: company.authorization });
    expect(shown.body[kind.root].time_zone).toBe('Europe/Paris');
  });

  it('new returns the defaults with every column and persists nothing', async () => {
    const reply = await call(gateway, { path: `${kind.path}/new`, authorization: company.authorization });
    const record = recordOf(reply, kind.root);
    expect(Object.keys(record).sort()).toEqual([...kind.columns].sort());
    expect(record).toMatchObject({ id: null, uuid: null, type: kind.type, name: null, description: null, time_zone: 'UTC', created_at: null });
    expect(await count(kind, company)).toBe(0);
  });

  it('new prefills the fields it is given and validates them', async () => {
    const reply = await call(gateway, { path: `${kind.path}/new?name=Prefilled&time_zone=${encodeURIComponent('Central Time (US & Canada)')}`, authorization: company.authorization });
    expect(recordOf(reply, kind.root)).toMatchObject({ id: null, name: 'Prefilled', time_zone: 'America/Chicago' });
    expect422(await call(gateway, { path: `${kind.path}/new?time_zone=Mars%2FBase`, authorization: company.authorization }), { time_zone: ['is not a valid time zone'] });
    expect(await count(kind, company)).toBe(0);
  });

  it('shows the record as it was created', async () => {
    const created = await create(kind, company, { description: 'd' });
    const reply = await call(gateway, { path: `${kind.path}/${created.id}`, authorization: company.authorization });
    expect(recordOf(reply, kind.root)).toEqual(created);
  });

  it('updates only the fields sent', async () => {
    const created = await create(kind, company, { description: 'Before', time_zone: 'Europe/Berlin' });
    const reply = await call(gateway, { method: 'PUT', path: `${kind.path}/${created.id}`, authorization: company.authorization, json: { name: 'Renamed' } });
    const updated = recordOf(reply, kind.root);
    expect(updated).toEqual({
      ...created,
      name: 'Renamed',
      context_menu_name: 'Renamed',
      updated_at: updated.updated_at,
      user_updated_at: updated.user_updated_at,
    });
    expect(updated.updated_at).toMatch(TIME);
    const shown = await call(gateway, { path: `${kind.path}/${created.id}`, authorization: company.authorization });
    expect(shown.body[kind.root]).toEqual(updated);
  });

  it('blanks the description with null and refuses a blank name on update', async () => {
    const created = await create(kind, company, { description: 'Before' });
    const blanked = await call(gateway, { method: 'PUT', path: `${kind.path}/${created.id}`, authorization: company.authorization, json: { description: null } });
    expect(recordOf(blanked, kind.root).description).toBeNull();
    expect422(await call(gateway, { method: 'PUT', path: `${kind.path}/${created.id}`, authorization: company.authorization, json: { name: '' } }), { name: ["can't be blank"] });
    const shown = await call(gateway, { path: `${kind.path}/${created.id}`, authorization: company.authorization });
    expect(shown.body[kind.root].name).toBe(created.name);
  });

  it('lists only the company\'s records, in the list envelope', async () => {
    const first = await create(kind, company, { name: 'First' });
    const second = await create(kind, company, { name: 'Second' });
    await create(kind, other, { name: 'Theirs' });
    const reply = await call(gateway, { path: kind.path, authorization: company.authorization });
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe(200);
    expect(reply.body.errors).toEqual({});
    expect(reply.body[kind.plural]).toEqual([first, second]);
    expect(reply.body.metadata).toEqual({ root: kind.plural, total_count: 2, page: 1, per_page: 25, total_pages: 1 });
    const bare = await call(gateway, { path: `${kind.path}?root=false`, authorization: company.authorization });
    expect(bare.body).toEqual([first, second]);
  });

  it('deletes a record and answers with it', async () => {
    const created = await create(kind, company);
    const reply = await call(gateway, { method: 'DELETE', path: `${kind.path}/${created.id}`, authorization: company.authorization });
    expect(recordOf(reply, kind.root)).toEqual(created);
    expect((await call(gateway, { path: `${kind.path}/${created.id}`, authorization: company.authorization })).status).toBe(404);
    expect((await call(gateway, { method: 'DELETE', path: `${kind.path}/${created.id}`, authorization: company.authorization })).status).toBe(404);
    expect(await count(kind, company)).toBe(0);
  });

  it('answers 404 for another company\'s record on show, update and delete, leaving it untouched', async () => {
    const theirs = await create(kind, other, { name: 'Theirs' });
    for (const [method, json] of [['GET', undefined], ['PUT', { name: 'Hijacked' }], ['DELETE', undefined]] as const) {
      const reply = await call(gateway, { method, path: `${kind.path}/${theirs.id}`, authorization: company.authorization, json });
      expect(reply.status, method).toBe(404);
      expect(reply.body).toEqual({ status: 404, errors: { base: ['Not found'] }, metadata: {} });
    }
    const shown = await call(gateway, { path: `${kind.path}/${theirs.id}`, authorization: other.authorization });
    expect(shown.body[kind.root]).toEqual(theirs);
  });

  it('answers 404 for a missing or non-numeric id', async () => {
    for (const id of ['999', 'abc', '1.5', '-1']) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const reply = await call(gateway, { method, path: `${kind.path}/${id}`, authorization: company.authorization, json: method === 'PUT' ? { name: 'X' } : undefined });
        expect(reply.status, `${method} ${id}`).toBe(404);
        expect(reply.body.status).toBe(404);
      }
    }
  });

  it('requires credentials', async () => {
    const reply = await call(gateway, { path: kind.path });
    expect(reply.status).toBe(401);
  });

  it('serves the list as CSV', async () => {
    const created = await create(kind, company, { name: 'Comma, quoted "name"' });
    const reply = await call(gateway, { path: `${kind.path}.csv?columns=id,name`, authorization: company.authorization });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(reply.text).toBe(`id,name\n${created.id},"Comma, quoted ""name"""\n`);
  });
});

describe('offer tokens', () => {
  it('generates a 32-hex lead_token and offer_token, different from each other', async () => {
    const offer = await create(OFFERS, company);
    expect(offer.lead_token).toMatch(TOKEN);
    expect(offer.offer_token).toMatch(TOKEN);
    expect(offer.lead_token).not.toBe(offer.offer_token);
  });

  it('gives every offer its own tokens, across companies', async () => {
    const offers = [await create(OFFERS, company), await create(OFFERS, company), await create(OFFERS, other)];
    const tokens = offers.flatMap((offer) => [offer.lead_token, offer.offer_token]);
    expect(new Set(tokens).size).toBe(6);
  });

  it('ignores tokens sent on create', async () => {
    const chosen = 'a'.repeat(32);
    const plain = await create(OFFERS, company, { lead_token: chosen, offer_token: chosen });
    const wrapped = await create(OFFERS, company, { offer: { name: 'Wrapped', lead_token: chosen, offer_token: chosen } });
    for (const offer of [plain, wrapped]) {
      expect(offer.lead_token).toMatch(TOKEN);
      expect(offer.lead_token).not.toBe(chosen);
      expect(offer.offer_token).not.toBe(chosen);
    }
  });

  it('keeps the tokens on update, even when new ones are sent', async () => {
    const offer = await create(OFFERS, company);
    const reply = await call(gateway, {
      method: 'PUT',
      path: `/api/v1/offers/${offer.id}`,
      authorization: company.authorization,
      json: { name: 'Renamed', lead_token: 'b'.repeat(32), offer_token: 'c'.repeat(32) },
    });
    const updated = recordOf(reply, 'offer');
    expect(updated.name).toBe('Renamed');
    expect(updated.lead_token).toBe(offer.lead_token);
    expect(updated.offer_token).toBe(offer.offer_token);
    const tokensOnly = await call(gateway, { method: 'PUT', path: `/api/v1/offers/${offer.id}`, authorization: company.authorization, json: { lead_token: 'd'.repeat(32) } });
    expect(recordOf(tokensOnly, 'offer').lead_token).toBe(offer.lead_token);
  });

  it('shows no tokens on new', async () => {
    const reply = await call(gateway, { path: '/api/v1/offers/new', authorization: company.authorization });
    expect(reply.body.offer).toMatchObject({ lead_token: null, offer_token: null });
  });
});
