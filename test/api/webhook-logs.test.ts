import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.js';
import { dayOfId } from '../../shared/db/day-records.js';
import { keys, padId } from '../../shared/db/keys.js';
import { webhookAttempt } from '../fixtures/events.js';
import { recordWebhookAttempt, WEBHOOK_LOG_RETENTION_DAYS, type WebhookAttempt } from '../../shared/events/webhook-logs.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect404, expect422, recordOf } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';

/**
 * `GET /api/v1/webhook_logs` and `/:id` (Events rule 3, Data and reporting): the entries
 * shared/events/webhook-logs.ts writes, listed newest first by cursor over day partitions,
 * filtered, windowed and shown with the zone's offset; a company sees only its own.
 */

const gateway = useGateway();

const DAY_MS = 24 * 60 * 60 * 1000;
/** The first seeded day starts tomorrow (UTC): entries written there carry TTLs in the future. */
const day0 = Date.parse(`${midDayTomorrow().toISOString().slice(0, 10)}T00:00:00Z`);
const at = (day: number, time: string) => new Date(day0 + day * DAY_MS + Date.parse(`1970-01-01T${time}Z`));
// Requests are made on the fourth day, so every entry is in the default 30-day window.
usePinnedClockForAll(() => at(3, '12:30:30.000'));

/** The columns docs/resources.md lists for a webhook log entry, in order. */
const COLUMNS = [
  'id',
  'uuid',
  'created_at',
  'company_id',
  'kind',
  'event',
  'event_id',
  'subscription_id',
  'outgoing_webhook_id',
  'outgoing_webhook_url_id',
  'webhook_manual_fire_id',
  'call_id',
  'lead_id',
  'http_method',
  'target_url',
  'attempt',
  'max_attempts',
  'success',
  'status_code',
  'duration_ms',
  'response_excerpt',
  'error',
  'next_attempt_at',
];

const BASE: WebhookAttempt = webhookAttempt();

/** What each seeded entry is, by name; `time` is when it was attempted. */
const SEED: Record<string, { time: Date; fields: Partial<WebhookAttempt> }> = {
  e1: { time: at(0, '10:00:00.000'), fields: { subscription_id: 1, event_id: 'evt-1', call_id: 11 } },
  e2: {
    time: at(0, '23:59:59.999'),
    fields: {
      kind: 'outgoing_webhook',
      event: 'call_ended',
      outgoing_webhook_id: 5,
      outgoing_webhook_url_id: 2,
      success: false,
      status_code: 500,
      response_excerpt: 'boom',
      error: 'HTTP 500',
      next_attempt_at: at(1, '00:05:00.000').toISOString(),
    },
  },
  e3: { time: at(1, '00:00:00.000'), fields: { kind: 'outgoing_webhook', event: 'manual', outgoing_webhook_id: 5, webhook_manual_fire_id: 3, http_method: 'GET' } },
  e4: { time: at(1, '12:00:00.000'), fields: { event: 'new_lead', subscription_id: 2, lead_id: 7, success: false, status_code: null, error: 'timeout', response_excerpt: null } },
  e5: { time: at(1, '12:00:00.001'), fields: { subscription_id: 1 } },
  e6: { time: at(2, '08:00:00.000'), fields: { kind: 'outgoing_webhook', event: 'schedule_action', outgoing_webhook_id: 6 } },
  e7: { time: at(2, '09:00:00.000'), fields: { event: 'call_ended', subscription_id: 1, attempt: 2 } },
};

let company: TestCompany;
let other: TestCompany;
const ids: Record<string, number> = {};
const otherIds: number[] = [];
/** Entry ids by name, newest first, as the list answers. */
const newestFirst = (...names: string[]) => names.map((name) => ids[name]);

beforeAll(async () => {
  company = await createTestCompany('whlogs');
  other = await createTestCompany('whlogs-other');
  for (const [name, { time, fields }] of Object.entries(SEED)) ids[name] = await recordWebhookAttempt(company.id, { ...BASE, ...fields }, time);
  for (const time of [at(1, '12:00:00.000'), at(2, '09:30:00.000')]) {
    otherIds.push(await recordWebhookAttempt(other.id, { ...BASE, target_url: 'https://other-company.example.com/hook', subscription_id: 1 }, time));
  }
});

const get = (path: string, owner: TestCompany = company) => call(gateway, { path, authorization: owner.authorization });
const listIds = async (query: string, owner: TestCompany = company) => {
  const reply = await get(`/api/v1/webhook_logs?${query}`, owner);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.webhook_logs.map((row: any) => row.id) as number[];
};

describe('GET /api/v1/webhook_logs', () => {
  it("lists the company's entries newest first, across days, with every column", async () => {
    const reply = await get('/api/v1/webhook_logs');
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.metadata).toEqual({ root: 'webhook_logs', per_page: 25, cursor: '-1', next_cursor: 0 });
    const rows = reply.body.webhook_logs;
    expect(rows.map((row: any) => row.id)).toEqual(newestFirst('e7', 'e6', 'e5', 'e4', 'e3', 'e2', 'e1'));
    for (const row of rows) expect(Object.keys(row)).toEqual(COLUMNS);
    expect(rows[5]).toEqual({
      ...BASE,
      ...SEED.e2!.fields,
      id: ids.e2,
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      company_id: company.id,
      created_at: `${at(0, '23:59:59.999').toISOString().slice(0, -1)}+00:00`,
      next_attempt_at: `${at(1, '00:05:00.000').toISOString().slice(0, -1)}+00:00`,
    });
  });

  it('shows another company only its own entries', async () => {
    const reply = await get('/api/v1/webhook_logs', other);
    expect(reply.body.webhook_logs.map((row: any) => row.id)).toEqual([...otherIds].reverse());
    expect(reply.text).not.toContain('hooks.example.com/calls');
  });

  it.each([
    ['subscription_id=1', ['e7', 'e5', 'e1']],
    ['outgoing_webhook_id=5', ['e3', 'e2']],
    ['webhook_manual_fire_id=3', ['e3']],
    ['event=manual', ['e3']],
    ['event=call_ended', ['e7', 'e2']],
    ['kind=outgoing_webhook', ['e6', 'e3', 'e2']],
    ['success=false', ['e4', 'e2']],
    ['success=yes&kind=subscription', ['e7', 'e5', 'e1']],
    ['subscription_id=9', []],
  ])('filters by %s', async (query, names) => {
    expect(await listIds(query)).toEqual(newestFirst(...names));
  });

  it('refuses filter values outside their type', async () => {
    expect422(await get('/api/v1/webhook_logs?kind=lead&success=maybe&subscription_id=abc&event=call_exploded'), {
      kind: ['is not included in the list (subscription, outgoing_webhook)'],
      success: ['is not a valid boolean (use 1, true, yes, on, 0, false, no or off)'],
      subscription_id: ['is not an integer'],
      event: [expect.stringMatching(/^is not included in the list \(new_call, .*, manual, schedule_action\)$/) as unknown as string],
    });
  });

  it('pages by cursor over several pages and across days, each entry once', async () => {
    const pages: number[][] = [];
    let cursor: string | number = '-1';
    for (let guard = 0; guard < 10 && cursor !== 0; guard++) {
      const reply = await get(`/api/v1/webhook_logs?per_page=2&cursor=${encodeURIComponent(String(cursor))}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.metadata.cursor).toBe(String(cursor));
      pages.push(reply.body.webhook_logs.map((row: any) => row.id));
      cursor = reply.body.metadata.next_cursor;
    }
    expect(pages).toEqual([newestFirst('e7', 'e6'), newestFirst('e5', 'e4'), newestFirst('e3', 'e2'), newestFirst('e1')]);
  });

  it('pages a filtered list one entry at a time', async () => {
    const seen: number[] = [];
    let cursor: string | number = '-1';
    for (let guard = 0; guard < 10 && cursor !== 0; guard++) {
      const reply = await get(`/api/v1/webhook_logs?subscription_id=1&per_page=1&cursor=${encodeURIComponent(String(cursor))}`);
      seen.push(...reply.body.webhook_logs.map((row: any) => row.id));
      cursor = reply.body.metadata.next_cursor;
    }
    expect(seen).toEqual(newestFirst('e7', 'e5', 'e1'));
  });

  it("refuses a cursor that is not one, or is another company's", async () => {
    expect422(await get('/api/v1/webhook_logs?cursor=abc'), { cursor: ['is not a valid cursor'] });
    const theirs = await get('/api/v1/webhook_logs?per_page=1', other);
    expect(typeof theirs.body.metadata.next_cursor).toBe('string');
    expect422(await get(`/api/v1/webhook_logs?cursor=${encodeURIComponent(theirs.body.metadata.next_cursor)}`), { cursor: ['is not a valid cursor'] });
  });

  it('keeps the window created_at_from..created_at_to, read and shown in time_zone', async () => {
    const day1 = at(1, '00:00:00.000').toISOString().slice(0, 10);
    const window = `created_at_from=${encodeURIComponent(`${day1} 00:00:00`)}&created_at_to=${encodeURIComponent(`${day1} 23:59:59`)}`;
    expect(await listIds(window)).toEqual(newestFirst('e5', 'e4', 'e3'));
    // The same local day in Kolkata (+05:30) runs from 18:30 UTC the day before.
    const reply = await get(`/api/v1/webhook_logs?${window}&time_zone=Asia%2FKolkata`);
    expect(reply.body.webhook_logs.map((row: any) => row.id)).toEqual(newestFirst('e5', 'e4', 'e3', 'e2'));
    const e2 = reply.body.webhook_logs[3];
    expect(e2.created_at).toBe(`${at(1, '05:29:59.999').toISOString().slice(0, -1)}+05:30`);
    expect(e2.next_attempt_at).toBe(`${at(1, '05:35:00.000').toISOString().slice(0, -1)}+05:30`);
    expect(await listIds(`created_at_from=${encodeURIComponent(at(2, '08:00:00.000').toISOString())}`)).toEqual(newestFirst('e7', 'e6'));
    expect422(await get('/api/v1/webhook_logs?created_at_to=yesterday'), { created_at_to: ['is not a valid time (use YYYY-MM-DD HH:MM:SS +ZZZZ)'] });
  });

  it('returns only the asked columns, and the bare array with root=false', async () => {
    const reply = await get('/api/v1/webhook_logs?root=false&columns=id,kind,success&per_page=2');
    expect(reply.body).toEqual([
      { id: ids.e7, kind: 'subscription', success: true },
      { id: ids.e6, kind: 'outgoing_webhook', success: true },
    ]);
    expect422(await get('/api/v1/webhook_logs?columns=id,secret'), { columns: ['unknown column secret'] });
  });
});

describe('GET /api/v1/webhook_logs/:id', () => {
  it('shows one entry as the list does, in the asked time zone', async () => {
    const listed = (await get('/api/v1/webhook_logs?subscription_id=2')).body.webhook_logs[0];
    const shown = recordOf(await get(`/api/v1/webhook_logs/${ids.e4}`), 'webhook_log');
    expect(shown).toEqual(listed);
    expect(shown).toMatchObject({ id: ids.e4, kind: 'subscription', event: 'new_lead', lead_id: 7, success: false, error: 'timeout', company_id: company.id });
    const kolkata = recordOf(await get(`/api/v1/webhook_logs/${ids.e4}?time_zone=Asia%2FKolkata`), 'webhook_log');
    expect(kolkata.created_at).toBe(`${at(1, '17:30:00.000').toISOString().slice(0, -1)}+05:30`);
  });

  it("answers 404 for another company's entry, both ways", async () => {
    expect404(await get(`/api/v1/webhook_logs/${otherIds[0]}`));
    expect404(await get(`/api/v1/webhook_logs/${ids.e1}`, other));
  });

  it.each([
    ['a missing entry', () => String(ids.e1! + 1)],
    ['a non-numeric id', () => 'abc'],
    ['zero', () => '0'],
    ['a negative id', () => '-5'],
    ['a 17-digit id', () => '12345678901234567'],
    ['an id past the safe integers', () => '9007199254740993'],
  ])('answers 404 for %s', async (_label, id) => {
    expect404(await get(`/api/v1/webhook_logs/${id()}`));
  });
});

describe('retention', () => {
  it(`stores every entry with an expires_at ${WEBHOOK_LOG_RETENTION_DAYS} days after its attempt`, async () => {
    for (const name of ['e1', 'e7']) {
      const id = ids[name]!;
      const item = await db.send(new GetCommand({ TableName: tableName, Key: { pk: keys.dayPartition(company.id, 'webhook_logs', dayOfId(id)), sk: padId(id) } }));
      expect(item.Item?.expires_at, name).toBe(Math.floor(SEED[name]!.time.getTime() / 1000) + 30 * 24 * 60 * 60);
    }
  });
});
