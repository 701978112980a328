import { beforeEach, describe, expect, it } from 'vitest';
import { createTestCompany, createTestUser, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { listThrough } from '../fixtures/records.js';
import { COMMON_COLUMNS } from '../fixtures/reference.js';
import { expect404, expect405, expect422, recordOf } from '../fixtures/envelope.js';

/**
 * The admin route group through the local gateway: unblock contact jobs (no update), teams
 * (access_control_lists) and the value collections.
 */

const gateway = useGateway();
let company: TestCompany;
let other: TestCompany;

beforeEach(async () => {
  company = await createTestCompany('admin');
  other = await createTestCompany('admin-other');
});

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;

const listOf = (path: string, plural: string, owner: TestCompany = company) => listThrough(gateway, owner, path, plural);

// ---------------------------------------------------------------------------------------------

describe('unblock contact jobs', () => {
  const PATH = '/api/v1/unblock_contact_jobs';
  const ROOT = 'unblock_contact_job';
  const COLUMNS = [...COMMON_COLUMNS, 'company_id', 'user_id', 'description', 'succeeded_at', 'blocked_at_from', 'blocked_at_to', 'request_ip', 'last_contact_id', 'unblock_count'];

  async function createJob(fields: Record<string, unknown> = {}, owner: TestCompany = company): Promise<Record<string, any>> {
    return recordOf(await call(gateway, { method: 'POST', path: PATH, authorization: owner.authorization, json: { description: 'Clear October', ...fields } }), ROOT);
  }

  it('creates a job with every column', async () => {
    const record = await createJob({
      description: 'Clear October',
      blocked_at_from: '2026-11-01 10:00:00 +0000',
      blocked_at_to: '2026-11-02 10:00:00 -0500',
      request_ip: '203.0.113.7',
      last_contact_id: 'c-42',
    });
    expect(Object.keys(record).sort()).toEqual([...COLUMNS].sort());
    expect(record).toEqual({
      id: 1,
      legacy_id: null,
      type: 'UnblockContactJob',
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: expect.stringMatching(TIME),
      updated_at: expect.stringMatching(TIME),
      deleted_at: null,
      user_updated_at: expect.stringMatching(TIME),
      routes_show_path: '/api/v1/unblock_contact_jobs/1',
      routes_edit_path: '/api/v1/unblock_contact_jobs/1',
      external_record_id: null,
      company_id: company.id,
      user_id: null,
      description: 'Clear October',
      // The job ran in its create request (it found nothing of this company's to unblock).
      succeeded_at: expect.stringMatching(TIME),
      blocked_at_from: '2026-11-01T10:00:00.000+00:00',
      blocked_at_to: '2026-11-02T15:00:00.000+00:00',
      request_ip: '203.0.113.7',
      last_contact_id: 'c-42',
      unblock_count: 0,
    });
  });

  it('accepts the other time forms of the API', async () => {
    const record = await createJob({ blocked_at_from: '2026-11-01T10:00:00Z', blocked_at_to: '2026-11-03' });
    expect(record.blocked_at_from).toBe('2026-11-01T10:00:00.000+00:00');
    expect(record.blocked_at_to).toBe('2026-11-03T00:00:00.000+00:00');
  });

  it('rejects times it cannot read, naming each field', async () => {
    const reply = await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { blocked_at_from: 'not-a-time', blocked_at_to: '2026-13-01 10:00:00 +0000' } });
    expect422(reply, { blocked_at_from: ['is not a valid time'], blocked_at_to: ['is not a valid time'] });
    expect(await listOf(PATH, 'unblock_contact_jobs')).toEqual([]);
  });

  it('takes blanks as null; every field is optional', async () => {
    const empty = recordOf(await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: {} }), ROOT);
    expect(empty).toMatchObject({ description: null, blocked_at_from: null, blocked_at_to: null, request_ip: null, last_contact_id: null, unblock_count: 0 });
    const blanks = await createJob({ description: '', blocked_at_from: '', blocked_at_to: null, request_ip: '' });
    expect(blanks).toMatchObject({ description: null, blocked_at_from: null, blocked_at_to: null, request_ip: null });
  });

  it('sets user_id from a per-user auth_token, and null with the key pair', async () => {
    const user = await createTestUser(company.id);
    const byUser = await call(gateway, { method: 'POST', path: PATH, json: { auth_token: user.authToken, description: 'By a user' } });
    const userJob = recordOf(byUser, ROOT);
    expect(userJob.user_id).toBe(user.userId);
    expect(userJob.company_id).toBe(company.id);
    const byKey = await createJob({ user_id: user.userId });
    expect(byKey.user_id).toBeNull();
    const listed = await listOf(PATH, 'unblock_contact_jobs');
    expect(listed.map((job) => job.user_id)).toEqual([user.userId, null]);
  });

  it('does not let the client set succeeded_at or unblock_count', async () => {
    const record = await createJob({ succeeded_at: '2026-11-01 10:00:00 +0000', unblock_count: 99 });
    expect(record).toMatchObject({ unblock_count: 0 });
    expect(record.succeeded_at).not.toBe('2026-11-01T10:00:00.000+00:00');
  });

  it('new returns the defaults and persists nothing', async () => {
    const record = recordOf(await call(gateway, { path: `${PATH}/new`, authorization: company.authorization }), ROOT);
    expect(Object.keys(record).sort()).toEqual([...COLUMNS].sort());
    expect(record).toMatchObject({ id: null, type: 'UnblockContactJob', unblock_count: 0, description: null, user_id: null });
    expect(await listOf(PATH, 'unblock_contact_jobs')).toEqual([]);
  });

  it('shows, lists and deletes a job', async () => {
    const first = await createJob({ description: 'First' });
    const second = await createJob({ description: 'Second' });
    await createJob({ description: 'Theirs' }, other);
    expect(recordOf(await call(gateway, { path: `${PATH}/${first.id}`, authorization: company.authorization }), ROOT)).toEqual(first);
    const list = await call(gateway, { path: PATH, authorization: company.authorization });
    expect(list.body.unblock_contact_jobs).toEqual([first, second]);
    expect(list.body.metadata).toEqual({ root: 'unblock_contact_jobs', total_count: 2, page: 1, per_page: 25, total_pages: 1 });
    expect(recordOf(await call(gateway, { method: 'DELETE', path: `${PATH}/${first.id}`, authorization: company.authorization }), ROOT)).toEqual(first);
    expect404(await call(gateway, { path: `${PATH}/${first.id}`, authorization: company.authorization }));
    expect(await listOf(PATH, 'unblock_contact_jobs')).toEqual([second]);
  });

  it('answers 404 for another company\'s job on show and delete, and for bad ids', async () => {
    const theirs = await createJob({}, other);
    expect404(await call(gateway, { path: `${PATH}/${theirs.id}`, authorization: company.authorization }), 'show');
    expect404(await call(gateway, { method: 'DELETE', path: `${PATH}/${theirs.id}`, authorization: company.authorization }), 'delete');
    expect(recordOf(await call(gateway, { path: `${PATH}/${theirs.id}`, authorization: other.authorization }), ROOT)).toEqual(theirs);
    for (const id of ['999', 'abc', '0x1']) {
      expect404(await call(gateway, { path: `${PATH}/${id}`, authorization: company.authorization }), `GET ${id}`);
      expect404(await call(gateway, { method: 'DELETE', path: `${PATH}/${id}`, authorization: company.authorization }), `DELETE ${id}`);
    }
  });

  it('has no update: PUT answers 405 with Allow and changes nothing', async () => {
    const job = await createJob({ description: 'Kept' });
    expect405(await call(gateway, { method: 'PUT', path: `${PATH}/1`, authorization: company.authorization, json: { description: 'Changed' } }), 'GET, DELETE');
    expect405(await call(gateway, { method: 'PUT', path: `${PATH}/abc`, authorization: company.authorization }), 'GET, DELETE');
    expect(recordOf(await call(gateway, { path: `${PATH}/${job.id}`, authorization: company.authorization }), ROOT).description).toBe('Kept');
  });
});

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------

describe('teams (access_control_lists)', () => {
  const PATH = '/api/v1/access_control_lists';
  const ROOT = 'access_control_list';
  const COLUMNS = [...COMMON_COLUMNS, 'company_id', 'name', 'users_emails', 'permissions'];

  async function createTeam(fields: Record<string, unknown> = {}, owner: TestCompany = company): Promise<Record<string, any>> {
    return recordOf(await call(gateway, { method: 'POST', path: PATH, authorization: owner.authorization, json: { name: 'Sales', ...fields } }), ROOT);
  }

  it('creates a team with every column; e-mails given as an array are trimmed and lower-cased', async () => {
    const record = await createTeam({ users_emails: ['Ann@Example.COM', ' bob@example.org '] });
    expect(Object.keys(record).sort()).toEqual([...COLUMNS].sort());
    expect(record).toEqual({
      id: 1,
      legacy_id: null,
      type: 'AccessControlList',
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: expect.stringMatching(TIME),
      updated_at: expect.stringMatching(TIME),
      deleted_at: null,
      user_updated_at: expect.stringMatching(TIME),
      routes_show_path: '/api/v1/access_control_lists/1',
      routes_edit_path: '/api/v1/access_control_lists/1',
      external_record_id: null,
      company_id: company.id,
      name: 'Sales',
      users_emails: ['ann@example.com', 'bob@example.org'],
      permissions: {},
    });
  });

  it('accepts users_emails as a comma-separated string', async () => {
    const record = await createTeam({ users_emails: 'Ann@Example.com, CARL@example.net,' });
    expect(record.users_emails).toEqual(['ann@example.com', 'carl@example.net']);
  });

  it('accepts users_emails[] from a form body', async () => {
    const reply = await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, form: 'name=Form&users_emails[]=A%40x.com&users_emails[]=b%40y.com' });
    expect(recordOf(reply, ROOT).users_emails).toEqual(['a@x.com', 'b@y.com']);
  });

  it.each([
    ['an array', ['ann@example.com', 'not-an-email']],
    ['a comma string', 'ann@example.com, bob@@example'],
  ])('rejects an invalid address in %s with 422 on users_emails, keyed by the entry', async (_label, users_emails) => {
    const reply = await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { name: 'Sales', users_emails } });
    // Item errors use the dotted key of the entry (decisions: nested fields use dotted keys).
    expect422(reply, { 'users_emails.1': ['is not a valid e-mail address'] });
    expect(await listOf(PATH, 'access_control_lists')).toEqual([]);
  });

  it('rejects users_emails that is not a list', async () => {
    const reply = await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { name: 'Sales', users_emails: { a: 'x@y.com' } } });
    expect422(reply, { users_emails: ['is not a list of e-mail addresses'] });
  });

  it('requires a name', async () => {
    expect422(await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { users_emails: ['a@b.co'] } }), { name: ['is required'] });
    expect422(await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { name: ' ' } }), { name: ["can't be blank"] });
    expect(await listOf(PATH, 'access_control_lists')).toEqual([]);
  });

  it('new returns the defaults and persists nothing', async () => {
    const record = recordOf(await call(gateway, { path: `${PATH}/new`, authorization: company.authorization }), ROOT);
    expect(Object.keys(record).sort()).toEqual([...COLUMNS].sort());
    expect(record).toMatchObject({ id: null, type: 'AccessControlList', name: null, users_emails: [] });
    expect(await listOf(PATH, 'access_control_lists')).toEqual([]);
  });

  it('round-trips create, show, update, list and delete', async () => {
    const created = await createTeam({ users_emails: ['a@example.com'] });
    expect(recordOf(await call(gateway, { path: `${PATH}/${created.id}`, authorization: company.authorization }), ROOT)).toEqual(created);

    const updated = recordOf(
      await call(gateway, { method: 'PUT', path: `${PATH}/${created.id}`, authorization: company.authorization, json: { users_emails: 'B@Example.com,c@example.com' } }),
      ROOT,
    );
    expect(updated).toEqual({ ...created, users_emails: ['b@example.com', 'c@example.com'], updated_at: expect.stringMatching(TIME), user_updated_at: expect.stringMatching(TIME) });

    const renamed = recordOf(await call(gateway, { method: 'PUT', path: `${PATH}/${created.id}`, authorization: company.authorization, json: { name: 'Support' } }), ROOT);
    expect(renamed).toMatchObject({ name: 'Support', users_emails: ['b@example.com', 'c@example.com'] });

    const second = await createTeam({ name: 'Billing' });
    await createTeam({ name: 'Theirs' }, other);
    const list = await call(gateway, { path: PATH, authorization: company.authorization });
    expect(list.body.access_control_lists).toEqual([renamed, second]);
    expect(list.body.metadata).toEqual({ root: 'access_control_lists', total_count: 2, page: 1, per_page: 25, total_pages: 1 });

    expect(recordOf(await call(gateway, { method: 'DELETE', path: `${PATH}/${created.id}`, authorization: company.authorization }), ROOT)).toEqual(renamed);
    expect404(await call(gateway, { path: `${PATH}/${created.id}`, authorization: company.authorization }));
    expect(await listOf(PATH, 'access_control_lists')).toEqual([second]);
  });

  it('rejects invalid values on update and keeps the team', async () => {
    const created = await createTeam({ users_emails: ['a@example.com'] });
    expect(
      (await call(gateway, { method: 'PUT', path: `${PATH}/${created.id}`, authorization: company.authorization, json: { name: '', users_emails: ['nope'] } })).status,
    ).toBe(422);
    expect(recordOf(await call(gateway, { path: `${PATH}/${created.id}`, authorization: company.authorization }), ROOT)).toEqual(created);
  });

  it('answers 404 for another company\'s team on show, update and delete, and for bad ids', async () => {
    const theirs = await createTeam({ name: 'Theirs' }, other);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      expect404(await call(gateway, { method, path: `${PATH}/${theirs.id}`, authorization: company.authorization, json: method === 'PUT' ? { name: 'Mine' } : undefined }), method);
      expect404(await call(gateway, { method, path: `${PATH}/abc`, authorization: company.authorization, json: method === 'PUT' ? { name: 'Mine' } : undefined }), `${method} abc`);
    }
    expect(recordOf(await call(gateway, { path: `${PATH}/${theirs.id}`, authorization: other.authorization }), ROOT)).toEqual(theirs);
  });
});

// ---------------------------------------------------------------------------------------------

describe('GET /api/v1/collections/:type', () => {
  it('serves the time zones in the list envelope, sorted by offset', async () => {
    const reply = await call(gateway, { path: '/api/v1/collections/time_zone', authorization: company.authorization });
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe(200);
    expect(reply.body.errors).toEqual({});
    const zones = reply.body.collection as Array<Record<string, string>>;
    expect(zones.length).toBeGreaterThan(100);
    expect(reply.body.metadata).toEqual({ root: 'collection', type: 'time_zone', total_count: zones.length, page: 1, per_page: zones.length, total_pages: 1 });
    for (const zone of zones) {
      expect(Object.keys(zone).sort()).toEqual(['iana', 'label', 'name', 'utc_offset']);
      expect(zone.utc_offset).toMatch(/^[+-]\d\d:\d\d$/);
      expect(zone.label).toBe(`(GMT${zone.utc_offset}) ${zone.name}`);
    }
    const minutes = (offset: string) => (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
    const offsets = zones.map((zone) => minutes(zone.utc_offset!));
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));

    const eastern = zones.find((zone) => zone.name === 'Eastern Time (US & Canada)');
    expect(eastern?.iana).toBe('America/New_York');
    // Standard or daylight time, whichever applies today.
    expect(['-05:00', '-04:00']).toContain(eastern?.utc_offset);
    expect(zones.find((zone) => zone.name === 'UTC')).toEqual({ name: 'UTC', iana: 'Etc/UTC', utc_offset: '+00:00', label: '(GMT+00:00) UTC' });
  });

  it('lists only zone names that offers accept', async () => {
    const reply = await call(gateway, { path: '/api/v1/collections/time_zone?root=false', authorization: company.authorization });
    const names = (reply.body as Array<{ name: string }>).map((zone) => zone.name);
    for (const name of [names[0], names[Math.floor(names.length / 2)], names[names.length - 1]]) {
      const offer = await call(gateway, { method: 'POST', path: '/api/v1/offers', authorization: company.authorization, json: { name: 'Zone', time_zone: name } });
      expect(offer.status, name).toBe(200);
    }
  });

  it('returns the bare array with root=false', async () => {
    const full = await call(gateway, { path: '/api/v1/collections/time_zone', authorization: company.authorization });
    const bare = await call(gateway, { path: '/api/v1/collections/time_zone?root=false', authorization: company.authorization });
    expect(bare.status).toBe(200);
    expect(Array.isArray(bare.body)).toBe(true);
    expect(bare.body.map((zone: { name: string }) => zone.name)).toEqual(full.body.collection.map((zone: { name: string }) => zone.name));
  });

  it('rejects a root that is not a boolean word', async () => {
    expect422(await call(gateway, { path: '/api/v1/collections/time_zone?root=nope', authorization: company.authorization }), {
      root: ['is not a valid boolean (use 1, true, yes, on, 0, false, no or off)'],
    });
  });

  it('serves the event names and the integration types', async () => {
    const events = await call(gateway, { path: '/api/v1/collections/event?root=false', authorization: company.authorization });
    expect(events.body.map((item: { name: string }) => item.name)).toEqual([
      'new_call',
      'call_ringing',
      'call_forwarded',
      'call_ended',
      'call_changed',
      'new_lead',
      'lead_ended',
      'lead_converted',
      'lead_opted_out',
      'lead_changed',
      'incoming_text_message',
    ]);
    const types = await call(gateway, { path: '/api/v1/collections/integration_type?root=false', authorization: company.authorization });
    expect(types.body.map((item: { name: string }) => item.name)).toHaveLength(11);
    expect(types.body.map((item: { name: string }) => item.name)).toContain('crm_two');
  });

  it('answers 404 for a collection it does not have', async () => {
    for (const type of ['planets', 'constructor', '__proto__', 'toString']) {
      const reply = await call(gateway, { path: `/api/v1/collections/${type}`, authorization: company.authorization });
      expect(reply.status, type).toBe(404);
      expect(reply.body.status).toBe(404);
    }
  });

  it('answers 405 for another method and 401 without credentials', async () => {
    expect405(await call(gateway, { method: 'POST', path: '/api/v1/collections/time_zone', authorization: company.authorization }), 'GET');
    expect((await call(gateway, { path: '/api/v1/collections/time_zone' })).status).toBe(401);
  });
});
