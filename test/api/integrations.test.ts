import { beforeEach, describe, expect, it } from 'vitest';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, type ApiReply, useGateway } from '../fixtures/gateway.js';
import { COMMON_COLUMNS } from '../fixtures/reference.js';
import { expect422 } from '../fixtures/envelope.js';

/** Integrations and `PUT /api/v1/integrations/objects/:id` through the local gateway. */

const gateway = useGateway();
let company: TestCompany;
let other: TestCompany;

beforeEach(async () => {
  company = await createTestCompany('integrations');
  other = await createTestCompany('integrations-other');
});

const PATH = '/api/v1/integrations';

/** The reference's eleven kinds of external system. */
const INTEGRATION_TYPES = [
  'blacklist_provider',
  'social_leadads',
  'search_ads',
  'marketing_automation',
  'incident_alerting',
  'crm_one',
  'team_chat',
  'compliance_shield',
  'forms',
  'voip_provider',
  'crm_two',
];

const COLUMNS = [
  ...COMMON_COLUMNS,
  'integration_type',
  'name',
  'public_key',
  'category',
  'connected_status',
  'connected_at',
  'disconnected_at',
  'is_oauth2',
  'zoho_update_login_token',
  'cache_expires_in',
  'active',
];

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
const NOT_IN_LIST = `is not included in the list (${INTEGRATION_TYPES.join(', ')})`;
const NOT_BOOLEAN = 'is not a valid boolean (use 1, true, yes, on, 0, false, no or off)';

async function createIntegration(owner: TestCompany = company, integration_type = 'crm_one'): Promise<Record<string, any>> {
  const reply = await call(gateway, { method: 'POST', path: PATH, authorization: owner.authorization, json: { integration_type } });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.integration as Record<string, any>;
}

function recordOf(reply: ApiReply): Record<string, any> {
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body.status).toBe(200);
  expect(reply.body.errors).toEqual({});
  expect(reply.body.metadata).toEqual({ root: 'integration' });
  expect(reply.body.checksum).toMatch(/^[0-9a-f]{32}$/);
  return reply.body.integration as Record<string, any>;
}

async function listed(owner: TestCompany = company): Promise<Record<string, any>[]> {
  const reply = await call(gateway, { path: PATH, authorization: owner.authorization });
  expect(reply.status).toBe(200);
  return reply.body.integrations as Record<string, any>[];
}

async function shown(id: number, owner: TestCompany = company): Promise<Record<string, any>> {
  return recordOf(await call(gateway, { path: `${PATH}/${id}`, authorization: owner.authorization }));
}

describe('POST /api/v1/integrations', () => {
  it('creates a disconnected, inactive integration with every column', async () => {
    const reply = await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { integration_type: 'crm_one' } });
    const record = recordOf(reply);
    expect(Object.keys(record).sort()).toEqual([...COLUMNS].sort());
    expect(record).toEqual({
      id: 1,
      legacy_id: null,
      type: 'Integration',
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: expect.stringMatching(TIME),
      updated_at: expect.stringMatching(TIME),
      deleted_at: null,
      user_updated_at: expect.stringMatching(TIME),
      routes_show_path: '/api/v1/integrations/1',
      routes_edit_path: '/api/v1/integrations/1',
      external_record_id: null,
      integration_type: 'crm_one',
      name: 'Crm one',
      public_key: null,
      category: 'crm',
      connected_status: 'disconnected',
      connected_at: null,
      disconnected_at: null,
      is_oauth2: false,
      zoho_update_login_token: null,
      cache_expires_in: null,
      active: false,
    });
  });

  it.each(INTEGRATION_TYPES)('accepts integration_type %s', async (integration_type) => {
    const record = await createIntegration(company, integration_type);
    expect(record.integration_type).toBe(integration_type);
    expect(typeof record.name).toBe('string');
    expect(typeof record.category).toBe('string');
    expect(await shown(record.id)).toEqual(record);
  });

  it.each([
    ['an unknown kind', { integration_type: 'salesforce' }, NOT_IN_LIST],
    ['an upper-case kind', { integration_type: 'CRM_ONE' }, NOT_IN_LIST],
    ['a blank', { integration_type: '' }, NOT_IN_LIST],
    ['a missing value', {}, 'is required'],
  ])('rejects %s and writes nothing', async (_label, json, message) => {
    const reply = await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json });
    expect422(reply, { integration_type: [message] });
    expect(await listed()).toEqual([]);
  });

  it('takes the form-encoded field and the root-node wrapping', async () => {
    const form = recordOf(await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, form: 'integration_type=forms' }));
    expect(form).toMatchObject({ integration_type: 'forms', category: 'lead_sources' });
    const wrapped = recordOf(await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { integration: { integration_type: 'team_chat' } } }));
    expect(wrapped).toMatchObject({ integration_type: 'team_chat', category: 'notifications' });
  });

  it('does not let create set active or the connection state', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: PATH,
      authorization: company.authorization,
      json: { integration_type: 'forms', active: true, connected_status: 'connected', public_key: 'pk' },
    });
    expect(recordOf(reply)).toMatchObject({ active: false, connected_status: 'disconnected', public_key: null });
  });
});

describe('GET /api/v1/integrations/new', () => {
  it('returns the defaults with every column and persists nothing', async () => {
    const record = recordOf(await call(gateway, { path: `${PATH}/new`, authorization: company.authorization }));
    expect(Object.keys(record).sort()).toEqual([...COLUMNS].sort());
    expect(record).toMatchObject({ id: null, type: 'Integration', integration_type: null, connected_status: 'disconnected', is_oauth2: false, active: false });
    expect(await listed()).toEqual([]);
  });

  it('prefills and validates integration_type', async () => {
    expect(recordOf(await call(gateway, { path: `${PATH}/new?integration_type=voip_provider`, authorization: company.authorization })).integration_type).toBe('voip_provider');
    expect422(await call(gateway, { path: `${PATH}/new?integration_type=fax`, authorization: company.authorization }), { integration_type: [NOT_IN_LIST] });
    expect(await listed()).toEqual([]);
  });
});

describe('show, update, list and delete', () => {
  it('shows the record as created', async () => {
    const created = await createIntegration();
    expect(await shown(created.id)).toEqual(created);
  });

  it('updates integration_type, and name and category with it', async () => {
    const created = await createIntegration(company, 'crm_one');
    const reply = await call(gateway, { method: 'PUT', path: `${PATH}/${created.id}`, authorization: company.authorization, json: { integration_type: 'voip_provider' } });
    const updated = recordOf(reply);
    expect(updated).toEqual({
      ...created,
      integration_type: 'voip_provider',
      name: 'Voip provider',
      category: 'telephony',
      updated_at: expect.stringMatching(TIME),
      user_updated_at: expect.stringMatching(TIME),
    });
    expect(await shown(created.id)).toEqual(updated);
  });

  it('rejects an unknown type on update and keeps the record', async () => {
    const created = await createIntegration();
    expect422(await call(gateway, { method: 'PUT', path: `${PATH}/${created.id}`, authorization: company.authorization, json: { integration_type: 'fax' } }), {
      integration_type: [NOT_IN_LIST],
    });
    expect(await shown(created.id)).toEqual(created);
  });

  it('lists only the company\'s integrations', async () => {
    const a = await createIntegration(company, 'forms');
    const b = await createIntegration(company, 'crm_two');
    await createIntegration(other, 'team_chat');
    const reply = await call(gateway, { path: PATH, authorization: company.authorization });
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe(200);
    expect(reply.body.integrations).toEqual([a, b]);
    expect(reply.body.metadata).toEqual({ root: 'integrations', total_count: 2, page: 1, per_page: 25, total_pages: 1 });
  });

  it('deletes an integration and answers with it', async () => {
    const created = await createIntegration();
    expect(recordOf(await call(gateway, { method: 'DELETE', path: `${PATH}/${created.id}`, authorization: company.authorization }))).toEqual(created);
    expect((await call(gateway, { path: `${PATH}/${created.id}`, authorization: company.authorization })).status).toBe(404);
    expect(await listed()).toEqual([]);
  });

  it('answers 404 for another company\'s integration on show, update and delete', async () => {
    const theirs = await createIntegration(other, 'forms');
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const reply = await call(gateway, { method, path: `${PATH}/${theirs.id}`, authorization: company.authorization, json: method === 'PUT' ? { integration_type: 'crm_one' } : undefined });
      expect(reply.status, method).toBe(404);
      expect(reply.body).toEqual({ status: 404, errors: { base: ['Not found'] }, metadata: {} });
    }
    expect(await shown(theirs.id, other)).toEqual(theirs);
  });

  it('answers 404 for a missing or non-numeric id', async () => {
    for (const id of ['999', 'abc', 'objects']) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const reply = await call(gateway, { method, path: `${PATH}/${id}`, authorization: company.authorization, json: method === 'PUT' ? { integration_type: 'forms' } : undefined });
        expect(reply.status, `${method} ${id}`).toBe(404);
      }
    }
  });
});

describe('PUT /api/v1/integrations/objects/:id', () => {
  const objectPath = (id: number | string) => `${PATH}/objects/${id}`;

  it('switches active on and off', async () => {
    const created = await createIntegration();
    const on = recordOf(await call(gateway, { method: 'PUT', path: objectPath(created.id), authorization: company.authorization, json: { active: true } }));
    expect(on).toEqual({ ...created, active: true, updated_at: expect.stringMatching(TIME), user_updated_at: expect.stringMatching(TIME) });
    expect((await shown(created.id)).active).toBe(true);
    const off = recordOf(await call(gateway, { method: 'PUT', path: objectPath(created.id), authorization: company.authorization, json: { active: false } }));
    expect(off.active).toBe(false);
    expect((await shown(created.id)).active).toBe(false);
  });

  it.each([
    ['true', true],
    ['yes', true],
    ['1', true],
    ['on', true],
    ['false', false],
    ['no', false],
    ['0', false],
    ['off', false],
  ])('reads active=%s from a form body or the query string', async (word, expected) => {
    const created = await createIntegration();
    // Start from the opposite state so the change is visible.
    await call(gateway, { method: 'PUT', path: objectPath(created.id), authorization: company.authorization, json: { active: !expected } });
    const form = await call(gateway, { method: 'PUT', path: objectPath(created.id), authorization: company.authorization, form: `active=${word}` });
    expect(recordOf(form).active).toBe(expected);
    await call(gateway, { method: 'PUT', path: objectPath(created.id), authorization: company.authorization, json: { active: !expected } });
    const query = await call(gateway, { method: 'PUT', path: `${objectPath(created.id)}?active=${word}`, authorization: company.authorization });
    expect(recordOf(query).active).toBe(expected);
  });

  it('changes nothing but active (and the update times)', async () => {
    const created = await createIntegration(company, 'forms');
    const reply = await call(gateway, { method: 'PUT', path: objectPath(created.id), authorization: company.authorization, json: { active: 'yes', integration_type: 'crm_one' } });
    expect(recordOf(reply)).toMatchObject({ active: true, integration_type: 'forms', category: 'lead_sources' });
  });

  it.each([
    ['a non-boolean word', { active: 'maybe' }, NOT_BOOLEAN],
    ['an upper-case word', { active: 'TRUE' }, NOT_BOOLEAN],
    ['a number other than 0 and 1', { active: 2 }, NOT_BOOLEAN],
    ['null', { active: null }, NOT_BOOLEAN],
    ['a missing value', {}, 'is required'],
  ])('rejects %s with 422 and keeps the flag', async (_label, json, message) => {
    const created = await createIntegration();
    expect422(await call(gateway, { method: 'PUT', path: objectPath(created.id), authorization: company.authorization, json }), { active: [message] });
    expect((await shown(created.id)).active).toBe(false);
  });

  it('answers 404 for another company\'s integration and leaves it alone', async () => {
    const theirs = await createIntegration(other);
    const reply = await call(gateway, { method: 'PUT', path: objectPath(theirs.id), authorization: company.authorization, json: { active: true } });
    expect(reply.status).toBe(404);
    expect(reply.body.status).toBe(404);
    expect((await shown(theirs.id, other)).active).toBe(false);
  });

  it('answers 404 for a missing or non-numeric id', async () => {
    for (const id of ['999', 'abc']) {
      const reply = await call(gateway, { method: 'PUT', path: objectPath(id), authorization: company.authorization, json: { active: true } });
      expect(reply.status, id).toBe(404);
    }
  });

  it('answers 405 with Allow for another method', async () => {
    const created = await createIntegration();
    const reply = await call(gateway, { path: objectPath(created.id), authorization: company.authorization });
    expect(reply.status).toBe(405);
    expect(reply.body.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('PUT');
  });

  it('requires credentials', async () => {
    const created = await createIntegration();
    const reply = await call(gateway, { method: 'PUT', path: objectPath(created.id), json: { active: true } });
    expect(reply.status).toBe(401);
    expect((await shown(created.id)).active).toBe(false);
  });
});
