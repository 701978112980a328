import { parse } from 'csv-parse/sync';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, type ApiReply, useGateway } from '../fixtures/gateway.js';
import { OFFER_CONVERSION_COLUMNS } from '../fixtures/reference.js';
import { expect422 } from '../fixtures/envelope.js';

/** Traffic source payouts (offer conversions) through the local gateway. */

const gateway = useGateway();
let company: TestCompany;
let other: TestCompany;
let offer: Record<string, any>;
let theirOffer: Record<string, any>;

beforeEach(async () => {
  company = await createTestCompany('payouts');
  other = await createTestCompany('payouts-other');
  offer = await createOffer(company, 'Solar');
  theirOffer = await createOffer(other, 'Theirs');
});

const PATH = '/api/v1/offer_conversions';

const COLUMNS = OFFER_CONVERSION_COLUMNS;

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;

async function createOffer(owner: TestCompany, name: string): Promise<Record<string, any>> {
  const reply = await call(gateway, { method: 'POST', path: '/api/v1/offers', authorization: owner.authorization, json: { name } });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.offer as Record<string, any>;
}

const required = () => ({ duration: 90, duplicate_timeframe: 3600, name: 'Qualified call', offer_id: offer.id });

async function createPayout(fields: Record<string, unknown> = {}, owner: TestCompany = company, query = ''): Promise<Record<string, any>> {
  const reply = await call(gateway, { method: 'POST', path: `${PATH}${query}`, authorization: owner.authorization, json: { ...required(), ...fields } });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.offer_conversion as Record<string, any>;
}

function recordOf(reply: ApiReply): Record<string, any> {
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body.status).toBe(200);
  expect(reply.body.errors).toEqual({});
  expect(reply.body.metadata).toEqual({ root: 'offer_conversion' });
  expect(reply.body.checksum).toMatch(/^[0-9a-f]{32}$/);
  return reply.body.offer_conversion as Record<string, any>;
}

async function listed(query = '', owner: TestCompany = company): Promise<Record<string, any>[]> {
  const reply = await call(gateway, { path: `${PATH}${query}`, authorization: owner.authorization });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.offer_conversions as Record<string, any>[];
}

describe('POST /api/v1/offer_conversions', () => {
  it('creates a payout with every column and the nested offer', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: PATH,
      authorization: company.authorization,
      json: {
        name: ' Qualified call ',
        offer_id: String(offer.id),
        duration: '90',
        duplicate_timeframe: 3600,
        payout: '12.50',
        payout_type: 'usd',
        revenue_percentage: 35.5,
        business_range_id: '4',
        sortable_order: '2',
        record_token_filter_list: ['state:CA', 'age:>=21', 'zip:!=90210'],
      },
    });
    const record = recordOf(reply);
    expect(Object.keys(record).sort()).toEqual([...COLUMNS, 'offer'].sort());
    expect(record).toEqual({
      id: 1,
      legacy_id: null,
      type: 'OfferConversion',
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: expect.stringMatching(TIME),
      updated_at: expect.stringMatching(TIME),
      deleted_at: null,
      user_updated_at: expect.stringMatching(TIME),
      routes_show_path: '/api/v1/offer_conversions/1',
      routes_edit_path: '/api/v1/offer_conversions/1',
      external_record_id: null,
      context_menu_name: 'Qualified call',
      payout: 12.5,
      payout_type: 'usd',
      revenue_percentage: 35.5,
      duration: 90,
      duplicate_timeframe: 3600,
      name: 'Qualified call',
      token_values: 'state:CA,age:>=21,zip:!=90210',
      sortable_order: 2,
      offer_id: offer.id,
      business_range_id: 4,
      conversion_type: 'traffic_source_payout',
      record_token_filter_id: null,
      record_token_filter_data_count: 3,
      record_token_filter_data: ['state:CA', 'age:>=21', 'zip:!=90210'],
      offer: { id: offer.id, name: 'Solar' },
    });
  });

  it('applies the defaults for the optional fields', async () => {
    const record = await createPayout();
    expect(record).toMatchObject({
      payout_type: 'usd',
      payout: null,
      revenue_percentage: null,
      business_range_id: null,
      sortable_order: 0,
      record_token_filter_data: [],
      record_token_filter_data_count: 0,
      token_values: '',
    });
  });

  it('reports every missing required field in one 422 and writes nothing', async () => {
    const reply = await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { payout: 5 } });
    expect422(reply, {
      duration: ['is required'],
      duplicate_timeframe: ['is required'],
      name: ['is required'],
      offer_id: ['is required'],
    });
    expect(await listed()).toEqual([]);
  });

  it.each(['usd', 'buyer_conversion_percent'])('accepts payout_type %s', async (payout_type) => {
    expect((await createPayout({ payout_type })).payout_type).toBe(payout_type);
  });

  it('rejects any other payout_type', async () => {
    const reply = await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { ...required(), payout_type: 'eur' } });
    expect422(reply, { payout_type: ['is not included in the list (usd, buyer_conversion_percent)'] });
  });

  it.each(['abc', '12abc', '1,5'])('rejects the non-numeric payout %j', async (payout) => {
    const reply = await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { ...required(), payout } });
    expect422(reply, { payout: ['is not a number'] });
  });

  it('reports non-numeric durations and ids together', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: PATH,
      authorization: company.authorization,
      json: { name: 'x', duration: 'long', duplicate_timeframe: true, offer_id: 'abc', business_range_id: 1.5, revenue_percentage: 'half' },
    });
    expect422(reply, {
      duration: ['is not a number'],
      duplicate_timeframe: ['is not a number'],
      offer_id: ['is not an integer'],
      business_range_id: ['is not an integer'],
      revenue_percentage: ['is not a number'],
    });
  });

  it.each([
    ['an empty string', ''],
    ['null', null],
  ])('stores a payout given as %s as null', async (_label, payout) => {
    const record = await createPayout({ payout, revenue_percentage: payout, business_range_id: payout });
    expect(record).toMatchObject({ payout: null, revenue_percentage: null, business_range_id: null });
  });

  it('refuses an offer_id of a missing offer, naming offer_id', async () => {
    const reply = await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { ...required(), offer_id: 999 } });
    expect422(reply, { offer_id: ['does not exist: 999'] });
    expect(await listed()).toEqual([]);
  });

  it('refuses an offer_id of another company\'s offer, naming offer_id', async () => {
    // Ids are per company: the other company's second offer has an id this company has no offer with.
    const theirs = await createOffer(other, 'Theirs too');
    expect(offer.id).toBe(1);
    expect(theirs.id).toBe(2);
    const reply = await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { ...required(), offer_id: theirs.id } });
    expect422(reply, { offer_id: ['does not exist: 2'] });
    expect(await listed()).toEqual([]);
    // The same id is fine for its owner.
    await createPayout({ offer_id: theirs.id }, other);
  });

  it('accepts the fields wrapped in the root node', async () => {
    const reply = await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { offer_conversion: required() } });
    expect(recordOf(reply).name).toBe('Qualified call');
  });
});

describe('record_token_filter_list', () => {
  it('accepts a comma-separated string and shows the canonical filters', async () => {
    const record = await createPayout({ record_token_filter_list: 'state:CA, age: >= 21 ,zip:!=90210' });
    expect(record.record_token_filter_data).toEqual(['state:CA', 'age:>=21', 'zip:!=90210']);
    expect(record.record_token_filter_data_count).toBe(3);
    expect(record.token_values).toBe('state:CA,age:>=21,zip:!=90210');
  });

  it('accepts a form-encoded array', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: PATH,
      authorization: company.authorization,
      form: `name=Form&duration=1&duplicate_timeframe=2&offer_id=${offer.id}&record_token_filter_list[]=state%3ANY&record_token_filter_list[]=age%3A%3C%3D65`,
    });
    expect(recordOf(reply).record_token_filter_data).toEqual(['state:NY', 'age:<=65']);
  });

  it.each([
    ['an entry without a colon', ['state:CA', 'zip']],
    ['an unsupported operator', 'age:>21'],
    ['a non-string entry', ['state:CA', 5]],
    ['a hash', { state: 'CA' }],
  ])('rejects %s, naming record_token_filter_list', async (_label, list) => {
    const reply = await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { ...required(), record_token_filter_list: list } });
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['record_token_filter_list']);
    expect(reply.body.errors.record_token_filter_list[0]).toMatch(/^is not a valid list of filters/);
  });

  it('is cleared by a blank value on update', async () => {
    const record = await createPayout({ record_token_filter_list: ['state:CA'] });
    const reply = await call(gateway, { method: 'PUT', path: `${PATH}/${record.id}`, authorization: company.authorization, json: { record_token_filter_list: '' } });
    expect(recordOf(reply)).toMatchObject({ record_token_filter_data: [], record_token_filter_data_count: 0, token_values: '' });
  });
});

describe('GET /api/v1/offer_conversions/new', () => {
  it('returns the defaults and persists nothing', async () => {
    const reply = await call(gateway, { path: `${PATH}/new`, authorization: company.authorization });
    const record = recordOf(reply);
    for (const column of COLUMNS) expect(record, column).toHaveProperty(column);
    expect(record).toMatchObject({ id: null, type: 'OfferConversion', payout_type: 'usd', payout: null, sortable_order: 0, name: null, offer_id: null, created_at: null });
    expect(await listed()).toEqual([]);
  });

  it('prefills the fields it is given', async () => {
    const reply = await call(gateway, { path: `${PATH}/new?offer_id=${offer.id}&payout_type=buyer_conversion_percent`, authorization: company.authorization });
    expect(recordOf(reply)).toMatchObject({ id: null, offer_id: offer.id, payout_type: 'buyer_conversion_percent' });
    expect(await listed()).toEqual([]);
  });
});

describe('show, update and delete', () => {
  it('shows the record as it was created', async () => {
    const created = await createPayout({ payout: 3 });
    const reply = await call(gateway, { path: `${PATH}/${created.id}`, authorization: company.authorization });
    expect(recordOf(reply)).toEqual(created);
  });

  it('updates only the fields sent, including a move to another offer of the company', async () => {
    const created = await createPayout({ payout: 10, record_token_filter_list: ['state:CA'] });
    const second = await createOffer(company, 'Roofing');
    const reply = await call(gateway, {
      method: 'PUT',
      path: `${PATH}/${created.id}`,
      authorization: company.authorization,
      json: { offer_id: second.id, payout: '', payout_type: 'buyer_conversion_percent', name: 'Renamed' },
    });
    const updated = recordOf(reply);
    expect(updated).toEqual({
      ...created,
      offer_id: second.id,
      offer: { id: second.id, name: 'Roofing' },
      payout: null,
      payout_type: 'buyer_conversion_percent',
      name: 'Renamed',
      context_menu_name: 'Renamed',
      updated_at: updated.updated_at,
      user_updated_at: updated.user_updated_at,
    });
    const shown = await call(gateway, { path: `${PATH}/${created.id}`, authorization: company.authorization });
    expect(recordOf(shown)).toEqual(updated);
  });

  it('refuses on update an offer_id that is not the company\'s, and invalid values', async () => {
    const created = await createPayout();
    expect422(await call(gateway, { method: 'PUT', path: `${PATH}/${created.id}`, authorization: company.authorization, json: { offer_id: 999 } }), {
      offer_id: ['does not exist: 999'],
    });
    expect422(await call(gateway, { method: 'PUT', path: `${PATH}/${created.id}`, authorization: company.authorization, json: { name: '', duration: 'x', payout_type: 'eur' } }), {
      name: ["can't be blank"],
      duration: ['is not a number'],
      payout_type: ['is not included in the list (usd, buyer_conversion_percent)'],
    });
    const shown = await call(gateway, { path: `${PATH}/${created.id}`, authorization: company.authorization });
    expect(recordOf(shown)).toEqual(created);
  });

  it('deletes the record and answers with it', async () => {
    const created = await createPayout();
    const reply = await call(gateway, { method: 'DELETE', path: `${PATH}/${created.id}`, authorization: company.authorization });
    expect(recordOf(reply)).toEqual(created);
    expect((await call(gateway, { path: `${PATH}/${created.id}`, authorization: company.authorization })).status).toBe(404);
    expect(await listed()).toEqual([]);
  });

  it('answers 404 for another company\'s record on show, update and delete', async () => {
    const theirs = await createPayout({ offer_id: theirOffer.id }, other);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const reply = await call(gateway, { method, path: `${PATH}/${theirs.id}`, authorization: company.authorization, json: method === 'PUT' ? { name: 'Hijacked' } : undefined });
      expect(reply.status, method).toBe(404);
      expect(reply.body.status).toBe(404);
    }
    const shown = await call(gateway, { path: `${PATH}/${theirs.id}`, authorization: other.authorization });
    expect(recordOf(shown)).toEqual(theirs);
  });

  it('answers 404 for a missing or non-numeric id', async () => {
    for (const id of ['999', 'abc', '1e3']) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const reply = await call(gateway, { method, path: `${PATH}/${id}`, authorization: company.authorization, json: method === 'PUT' ? { name: 'x' } : undefined });
        expect(reply.status, `${method} ${id}`).toBe(404);
      }
    }
  });
});

describe('GET /api/v1/offer_conversions', () => {
  it('lists the company\'s payouts by sortable_order, in the list envelope', async () => {
    const late = await createPayout({ name: 'Late', sortable_order: 5 });
    const early = await createPayout({ name: 'Early', sortable_order: 1 });
    await createPayout({ offer_id: theirOffer.id }, other);
    const reply = await call(gateway, { path: PATH, authorization: company.authorization });
    expect(reply.status).toBe(200);
    expect(reply.body.offer_conversions).toEqual([early, late]);
    expect(reply.body.metadata).toEqual({ root: 'offer_conversions', total_count: 2, page: 1, per_page: 25, total_pages: 1 });
  });

  it('filters by offer_id', async () => {
    const second = await createOffer(company, 'Roofing');
    const a = await createPayout({ name: 'A' });
    const b = await createPayout({ name: 'B', offer_id: second.id });
    const c = await createPayout({ name: 'C' });
    expect((await listed(`?offer_id=${offer.id}`)).map((r) => r.id)).toEqual([a.id, c.id]);
    expect((await listed(`?offer_id=${second.id}`)).map((r) => r.id)).toEqual([b.id]);
    expect(await listed('?offer_id=999')).toEqual([]);
  });

  it('filters by business_range_id', async () => {
    const a = await createPayout({ business_range_id: 7 });
    await createPayout({ business_range_id: 8 });
    await createPayout();
    expect((await listed('?business_range_id=7')).map((r) => r.id)).toEqual([a.id]);
    const reply = await call(gateway, { path: `${PATH}?business_range_id=seven`, authorization: company.authorization });
    expect422(reply, { business_range_id: ['is not an integer'] });
  });

  it('combines offer_id and business_range_id', async () => {
    const second = await createOffer(company, 'Roofing');
    await createPayout({ business_range_id: 7 });
    const wanted = await createPayout({ business_range_id: 7, offer_id: second.id });
    await createPayout({ offer_id: second.id });
    expect((await listed(`?offer_id=${second.id}&business_range_id=7`)).map((r) => r.id)).toEqual([wanted.id]);
  });
});

describe('serializers', () => {
  it('adds the nested offer with the default serializer, named or not', async () => {
    const created = await createPayout();
    for (const query of ['', '?serializer=offer_conversion', '?serializer=']) {
      const reply = await call(gateway, { path: `${PATH}/${created.id}${query}`, authorization: company.authorization });
      expect(recordOf(reply).offer, query).toEqual({ id: offer.id, name: 'Solar' });
    }
    expect((await listed('?serializer=offer_conversion'))[0]!.offer).toEqual({ id: offer.id, name: 'Solar' });
  });

  it('returns flat foreign keys without the nested object with offer_conversion_grid', async () => {
    const created = await createPayout({ business_range_id: 3 });
    const shown = recordOf(await call(gateway, { path: `${PATH}/${created.id}?serializer=offer_conversion_grid`, authorization: company.authorization }));
    expect(shown).not.toHaveProperty('offer');
    expect(Object.keys(shown).sort()).toEqual([...COLUMNS].sort());
    expect(shown).toMatchObject({ offer_id: offer.id, business_range_id: 3 });
    const { offer: _nested, ...flat } = created;
    expect(shown).toEqual(flat);

    const [row] = await listed('?serializer=offer_conversion_grid');
    expect(row).toEqual(flat);

    const made = await createPayout({}, company, '?serializer=offer_conversion_grid');
    expect(made).not.toHaveProperty('offer');
    expect(made.offer_id).toBe(offer.id);
  });

  it('answers an unknown serializer with 422 on list, show, update and delete', async () => {
    const created = await createPayout();
    const replies = [
      await call(gateway, { path: `${PATH}?serializer=buyer`, authorization: company.authorization }),
      await call(gateway, { path: `${PATH}/${created.id}?serializer=buyer`, authorization: company.authorization }),
      await call(gateway, { method: 'PUT', path: `${PATH}/${created.id}?serializer=buyer`, authorization: company.authorization, json: { name: 'Changed' } }),
      await call(gateway, { method: 'DELETE', path: `${PATH}/${created.id}?serializer=buyer`, authorization: company.authorization }),
    ];
    for (const reply of replies) {
      expect(reply.status, reply.text).toBe(422);
      expect(Object.keys(reply.body.errors)).toEqual(['serializer']);
      expect(reply.body.errors.serializer[0]).toMatch(/^is not included in the list/);
    }
    // A request answered with 422 changed nothing.
    const shown = await call(gateway, { path: `${PATH}/${created.id}`, authorization: company.authorization });
    expect(recordOf(shown)).toEqual(created);
  });

  it('checks the serializer of new as well', async () => {
    const grid = await call(gateway, { path: `${PATH}/new?serializer=offer_conversion_grid`, authorization: company.authorization });
    expect(recordOf(grid)).not.toHaveProperty('offer');
    const unknown = await call(gateway, { path: `${PATH}/new?serializer=buyer`, authorization: company.authorization });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.errors)).toEqual(['serializer']);
  });

  it('answers an unknown serializer on create with 422 and creates nothing', async () => {
    const reply = await call(gateway, { method: 'POST', path: `${PATH}?serializer=buyer`, authorization: company.authorization, json: required() });
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['serializer']);
    expect(await listed()).toEqual([]);
  });
});

describe('CSV', () => {
  function csvCell(value: unknown): string {
    if (value === null || value === undefined) return '';
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
  }

  it('serves /api/v1/offer_conversions.csv with every column, matching the JSON list', async () => {
    await createPayout({ name: 'Comma, "quoted"', payout: 2.25, record_token_filter_list: ['state:CA', 'age:>=21'] });
    await createPayout({ name: 'Plain', business_range_id: 9, sortable_order: 1 });
    const reply = await call(gateway, { path: `${PATH}.csv`, authorization: company.authorization });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = parse(reply.text) as string[][];
    expect(rows[0]).toEqual(COLUMNS);
    const json = await listed();
    expect(rows.slice(1)).toEqual(json.map((record) => COLUMNS.map((column) => csvCell(record[column]))));
    expect(rows).toHaveLength(3);
  });

  it('honours filters and columns, and format=csv on the plain path', async () => {
    const second = await createOffer(company, 'Roofing');
    await createPayout({ name: 'Elsewhere' });
    const kept = await createPayout({ name: 'Kept', offer_id: second.id });
    for (const path of [`${PATH}.csv?offer_id=${second.id}&columns=id,name,offer_id`, `${PATH}?format=csv&offer_id=${second.id}&columns=id,name,offer_id`]) {
      const reply = await call(gateway, { path, authorization: company.authorization });
      expect(reply.status, path).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^text\/csv/);
      const rows = parse(reply.text, { columns: true }) as Record<string, string>[];
      expect(rows).toEqual([{ id: String(kept.id), name: 'Kept', offer_id: String(second.id) }]);
    }
  });
});
