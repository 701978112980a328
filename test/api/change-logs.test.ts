import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinClock, restoreClock } from '../fixtures/clock.js';
import { createTestCompany, createTestUser, type TestCompany } from '../fixtures/company.js';
import { wavBase64 } from '../fixtures/audio.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { CHANGE_LOG_COLUMNS } from '../../shared/resources/change-log.js';
import { CHANGE_LOG_LIMITS, FILTERED } from '../../shared/resources/change-diff.js';

/**
 * `GET /api/v1/change_logs` and `/:id` (docs/resources.md, "Change logs"): every create, update
 * and delete through the resource engine leaves one entry, written in the write's transaction,
 * with who made it and `object_changes`; a refused write leaves none; hidden values are
 * `[FILTERED]`; a company sees only its own entries.
 */
const gateway = useGateway();

type Row = Record<string, any>;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Day 0 starts tomorrow (UTC), so every entry's TTL lies in the future. */
const day0 = Date.parse(`${new Date(Date.now() + DAY_MS).toISOString().slice(0, 10)}T00:00:00Z`);
const at = (day: number, time: string) => new Date(day0 + day * DAY_MS + Date.parse(`1970-01-01T${time}Z`));

let a: TestCompany;
let b: TestCompany;
const hintOf = (company: TestCompany) => `api_key:${company.keyPair.publicKey.slice(-4)}`;

const as = (company: TestCompany, method: string, path: string, json?: Row) => call(gateway, { method, path, authorization: company.authorization, json });

async function logsOf(company: TestCompany, query = ''): Promise<Row[]> {
  const reply = await as(company, 'GET', `/api/v1/change_logs${query}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.change_logs as Row[];
}

/** Entries of one record, oldest first. */
async function entriesOf(company: TestCompany, itemType: string, id: number): Promise<Row[]> {
  return (await logsOf(company, `?item_type=${itemType}&item_id=${id}&per_page=100`)).reverse();
}

let source: Row;

beforeAll(async () => {
  a = await createTestCompany('changes-a');
  b = await createTestCompany('changes-b');
});
afterAll(() => restoreClock());

describe('a record written through the API', () => {
  beforeAll(async () => {
    pinClock(at(0, '10:00:00.000'));
    source = await createThrough(gateway, a, '/api/v1/traffic_sources', { name: 'Radio', description: 'FM' });
    pinClock(at(0, '11:00:00.000'));
    expect((await as(a, 'PUT', `/api/v1/traffic_sources/${source.id}`, { name: 'Radio ads', description: 'FM' })).status).toBe(200);
    pinClock(at(0, '12:00:00.000'));
    expect((await as(a, 'DELETE', `/api/v1/traffic_sources/${source.id}`)).status).toBe(200);
    pinClock(at(0, '13:00:00.000'));
  });

  it('leaves a create entry with every stored value as [null, value], and who made it', async () => {
    const [created] = await entriesOf(a, 'traffic_sources', source.id);
    expect(Object.keys(created!)).toEqual([...CHANGE_LOG_COLUMNS]);
    expect(created).toMatchObject({
      company_id: a.id,
      item_type: 'traffic_sources',
      item_id: source.id,
      item_uuid: source.uuid,
      event: 'create',
      whodunnit: hintOf(a),
      user_id: null,
      auth_method: 'api_key',
      api_key_hint: a.keyPair.publicKey.slice(-4),
      truncated: false,
      created_at: at(0, '10:00:00.000').toISOString().replace('Z', '+00:00'),
    });
    expect(created!.object_changes).toMatchObject({ id: [null, source.id], uuid: [null, source.uuid], name: [null, 'Radio'], description: [null, 'FM'], time_zone: [null, 'UTC'] });
    // Bookkeeping is not a change of the record.
    expect(created!.object_changes).not.toHaveProperty('company_id');
    expect(created!.object_changes).not.toHaveProperty('user_updated_at');
  });

  it('leaves an update entry with only the changed fields, before and after', async () => {
    const [, updated] = await entriesOf(a, 'traffic_sources', source.id);
    expect(updated).toMatchObject({ event: 'update', item_id: source.id, whodunnit: hintOf(a) });
    expect(Object.keys(updated!.object_changes).sort()).toEqual(['name', 'updated_at']);
    expect(updated!.object_changes.name).toEqual(['Radio', 'Radio ads']);
    expect(updated!.object_changes.updated_at).toEqual([at(0, '10:00:00.000').toISOString(), at(0, '11:00:00.000').toISOString()]);
  });

  it('leaves a delete entry with every value the record had as [value, null]', async () => {
    const entries = await entriesOf(a, 'traffic_sources', source.id);
    expect(entries.map((entry) => entry.event)).toEqual(['create', 'update', 'delete']);
    expect(entries[2]!.object_changes).toMatchObject({ id: [source.id, null], name: ['Radio ads', null], description: ['FM', null] });
  });

  it('shows one entry by id, and 404 for ids that name none', async () => {
    const [, updated] = await entriesOf(a, 'traffic_sources', source.id);
    const reply = await as(a, 'GET', `/api/v1/change_logs/${updated!.id}`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.change_log).toEqual(updated);
    const zoned = await as(a, 'GET', `/api/v1/change_logs/${updated!.id}?time_zone=America/New_York&columns=id,created_at`);
    expect(Object.keys(zoned.body.change_log)).toEqual(['id', 'created_at']);
    expect(Date.parse(zoned.body.change_log.created_at)).toBe(at(0, '11:00:00.000').getTime());
    expect(zoned.body.change_log.created_at).toMatch(/-0[45]:00$/);
    for (const id of [updated!.id + 1, 'abc', '0']) expect((await as(a, 'GET', `/api/v1/change_logs/${id}`)).status).toBe(404);
  });

  it('is invisible to another company: not listed, not shown, not found by its record id', async () => {
    const entries = await entriesOf(a, 'traffic_sources', source.id);
    expect(await entriesOf(b, 'traffic_sources', source.id)).toEqual([]);
    expect((await logsOf(b)).some((row) => row.company_id !== b.id)).toBe(false);
    for (const entry of entries) {
      const reply = await as(b, 'GET', `/api/v1/change_logs/${entry.id}`);
      expect(reply.status).toBe(404);
      expect(reply.text).not.toContain('Radio');
    }
  });
});

describe('a refused write', () => {
  it('leaves no entry (422 on create and on update, 404 on a foreign record)', async () => {
    pinClock(at(1, '09:00:00.000'));
    const before = await logsOf(b, '?per_page=500');
    expect((await as(b, 'POST', '/api/v1/traffic_sources', { name: '' })).status).toBe(422);
    const own = await createThrough(gateway, b, '/api/v1/traffic_sources', { name: 'TV' });
    expect((await as(b, 'PUT', `/api/v1/traffic_sources/${own.id}`, { time_zone: 'Mars/Olympus' })).status).toBe(422);
    const foreign = await createThrough(gateway, a, '/api/v1/traffic_sources', { name: 'Print' });
    expect((await as(b, 'DELETE', `/api/v1/traffic_sources/${foreign.id + 1000}`)).status).toBe(404);
    const after = await logsOf(b, '?per_page=500');
    // Only the create that succeeded.
    expect(after.length).toBe(before.length + 1);
    expect(after[0]).toMatchObject({ event: 'create', item_id: own.id });
    expect((await entriesOf(b, 'traffic_sources', own.id)).map((entry) => entry.event)).toEqual(['create']);
  });
});

describe('who made the change', () => {
  it("is the user's id when a per-user auth_token made it", async () => {
    pinClock(at(1, '10:00:00.000'));
    const user = await createTestUser(a.id);
    const reply = await call(gateway, { method: 'POST', path: `/api/v1/traffic_sources?auth_token=${user.authToken}`, json: { name: 'Podcast' } });
    expect(reply.status, reply.text).toBe(200);
    const [entry] = await entriesOf(a, 'traffic_sources', reply.body.traffic_source.id);
    expect(entry).toMatchObject({ whodunnit: String(user.userId), user_id: user.userId, auth_method: 'auth_token', api_key_hint: null });
    expect((await logsOf(a, `?whodunnit=${user.userId}`)).map((row) => row.id)).toEqual([entry!.id]);
    expect((await logsOf(a, `?user_id=${user.userId}`)).map((row) => row.id)).toEqual([entry!.id]);
  });
});

describe('values the API hides', () => {
  it("are [FILTERED]: a subscription's signing secret, at creation and rotation; a rotation instruction is not a field", async () => {
    pinClock(at(2, '09:00:00.000'));
    const created = await call(gateway, { method: 'POST', path: '/api/v1/subscriptions', authorization: a.authorization, json: { target_url: 'https://hooks.example.com/a', event: 'new_call' } });
    expect(created.status, created.text).toBe(200);
    const subscription = created.body.subscription;
    const rotated = await as(a, 'PUT', `/api/v1/subscriptions/${subscription.id}`, { rotate_secret: true });
    expect(rotated.status, rotated.text).toBe(200);
    const secrets = [subscription.secret, rotated.body.subscription.secret] as string[];
    expect(secrets.every((secret) => typeof secret === 'string' && secret.length > 10)).toBe(true);

    const entries = await entriesOf(a, 'subscriptions', subscription.id);
    expect(entries.map((entry) => entry.event)).toEqual(['create', 'update']);
    expect(entries[0]!.object_changes.secret).toEqual([null, FILTERED]);
    expect(entries[0]!.object_changes.target_url).toEqual([null, 'https://hooks.example.com/a']);
    expect(entries[1]!.object_changes.secret).toEqual([FILTERED, FILTERED]);
    expect(entries[1]!.object_changes).not.toHaveProperty('rotate_secret');
    const listed = await as(a, 'GET', `/api/v1/change_logs?item_type=subscriptions&item_id=${subscription.id}`);
    const shown = await as(a, 'GET', `/api/v1/change_logs/${entries[1]!.id}`);
    for (const text of [listed.text, shown.text]) for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it("are [FILTERED]: a sound file's upload is never logged, its playback token is filtered", async () => {
    pinClock(at(2, '10:00:00.000'));
    const audio = wavBase64(0.1);
    const sound = await createThrough(gateway, a, '/api/v1/sound_files', { name: 'Hold', audio_base64: audio });
    const [entry] = await entriesOf(a, 'sound_files', sound.id);
    expect(entry!.object_changes.name).toEqual([null, 'Hold']);
    expect(entry!.object_changes).not.toHaveProperty('audio_base64');
    expect(entry!.object_changes.playback_token).toEqual([null, FILTERED]);
    const text = (await as(a, 'GET', `/api/v1/change_logs/${entry!.id}`)).text;
    expect(text).not.toContain(audio.slice(0, 200));
  });
});

describe('a record a write changes in turn', () => {
  it("is logged as that record's update by the same author: a deleted buyer leaves its group", async () => {
    pinClock(at(2, '10:30:00.000'));
    const buyer = await createThrough(gateway, b, '/api/v1/buyers', { name: 'Leaving', number: '+12125550177' });
    const group = await createThrough(gateway, b, '/api/v1/buyer_groups/0', { name: 'Team', buyer_ids: [buyer.id] });
    pinClock(at(2, '10:31:00.000'));
    expect((await as(b, 'DELETE', `/api/v1/buyers/${buyer.id}`)).status).toBe(200);
    const entries = await entriesOf(b, 'buyer_groups', group.id);
    expect(entries.map((entry) => entry.event)).toEqual(['create', 'update']);
    expect(entries[1]).toMatchObject({ whodunnit: hintOf(b), object_changes: { buyer_ids: [[buyer.id], []] } });
    const [deleted] = await logsOf(b, `?item_type=buyers&item_id=${buyer.id}&event=delete`);
    expect(entries[1]!.request_id).toBe(deleted!.request_id);
  });
});

describe('a large value', () => {
  it('is shortened in the entry (truncated: true), and the write succeeds whole', async () => {
    pinClock(at(2, '11:00:00.000'));
    const long = 'x'.repeat(9_000);
    const made = await createThrough(gateway, a, '/api/v1/traffic_sources', { name: 'Long', description: long });
    expect(made.description).toBe(long);
    const [entry] = await entriesOf(a, 'traffic_sources', made.id);
    expect(entry!.truncated).toBe(true);
    const [, after] = entry!.object_changes.description as [null, string];
    expect(after.length).toBeLessThan(CHANGE_LOG_LIMITS.stringChars + 20);
    expect(after.startsWith('x'.repeat(CHANGE_LOG_LIMITS.stringChars))).toBe(true);
  });
});

describe('the list', () => {
  let c: TestCompany;
  const made: Row[] = [];
  beforeAll(async () => {
    c = await createTestCompany('changes-c');
    for (let index = 0; index < 5; index++) {
      pinClock(at(3, `0${index}:00:00.000`));
      made.push(await createThrough(gateway, c, '/api/v1/traffic_sources', { name: `S${index}` }));
    }
    pinClock(at(3, '06:00:00.000'));
    expect((await as(c, 'PUT', `/api/v1/traffic_sources/${made[1]!.id}`, { name: 'S1 again' })).status).toBe(200);
    pinClock(at(4, '06:00:00.000'));
    expect((await as(c, 'DELETE', `/api/v1/traffic_sources/${made[2]!.id}`)).status).toBe(200);
    pinClock(at(4, '12:00:00.000'));
  });

  it('pages newest first by cursor, across days', async () => {
    const seen: Row[] = [];
    let cursor = '-1';
    for (let page = 0; page < 5 && cursor; page++) {
      const reply = await as(c, 'GET', `/api/v1/change_logs?per_page=3&cursor=${cursor}`);
      expect(reply.status, reply.text).toBe(200);
      seen.push(...(reply.body.change_logs as Row[]));
      cursor = reply.body.metadata.next_cursor ? String(reply.body.metadata.next_cursor) : '';
    }
    expect(seen.map((row) => [row.event, row.item_id])).toEqual([
      ['delete', made[2]!.id],
      ['update', made[1]!.id],
      ...[4, 3, 2, 1, 0].map((index) => ['create', made[index]!.id]),
    ]);
  });

  it('filters by event, item_type, item_id, whodunnit and time window', async () => {
    expect((await logsOf(c, '?event=update')).map((row) => row.item_id)).toEqual([made[1]!.id]);
    expect((await logsOf(c, '?event=delete&item_type=traffic_sources')).map((row) => row.item_id)).toEqual([made[2]!.id]);
    expect(await logsOf(c, '?item_type=offers')).toEqual([]);
    expect((await logsOf(c, `?item_id=${made[1]!.id}`)).map((row) => row.event)).toEqual(['update', 'create']);
    expect((await logsOf(c, `?whodunnit=${encodeURIComponent(hintOf(c))}`)).length).toBe(7);
    expect(await logsOf(c, '?whodunnit=api_key:none')).toEqual([]);
    const window = `?created_at_from=${encodeURIComponent(at(3, '01:00:00.000').toISOString())}&created_at_to=${encodeURIComponent(at(3, '03:00:00.000').toISOString())}`;
    expect((await logsOf(c, window)).map((row) => row.item_id)).toEqual([made[3]!.id, made[2]!.id, made[1]!.id]);
  });

  it('refuses unknown filter values with 422', async () => {
    for (const query of ['?event=destroy', '?item_type=nope', '?item_id=abc', '?user_id=-1', '?columns=id,bogus']) {
      const reply = await as(c, 'GET', `/api/v1/change_logs${query}`);
      expect(reply.status, `${query} ${reply.text}`).toBe(422);
    }
  });
});
