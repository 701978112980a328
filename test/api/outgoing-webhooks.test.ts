import { beforeEach, describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../shared/events/event-names.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect404, expect422, recordOf } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { COMMON_COLUMNS } from '../fixtures/reference.js';

/**
 * Outgoing webhooks and their URLs through the local gateway: the reference's outgoing_webhook
 * fields (Schedule action) and the rules docs/resources.md gives where the reference is silent.
 */

const gateway = useGateway();
let company: TestCompany;
let other: TestCompany;

beforeEach(async () => {
  company = await createTestCompany('owh');
  other = await createTestCompany('owh-other');
});

const WEBHOOKS = '/api/v1/outgoing_webhooks';
const URLS = '/api/v1/outgoing_webhook_urls';
const HOOK = 'https://hooks.example.com/calls';

/** The reference's outgoing_webhook fields beyond the common columns, plus `enabled`. */
const WEBHOOK_COLUMNS = [
  ...COMMON_COLUMNS,
  'company_id',
  'name',
  'trigger_type',
  'trigger_duration',
  'offer_id',
  'schedule_action_id',
  'sortable_order',
  'token_value_ids',
  'outgoing_url_ids',
  'token_value_map_ids',
  'enabled',
];
const URL_COLUMNS = [...COMMON_COLUMNS, 'company_id', 'name', 'url', 'http_method', 'content_type', 'headers', 'body'];

const post = (path: string, json: unknown, owner: TestCompany = company) => call(gateway, { method: 'POST', path, authorization: owner.authorization, json });
const put = (path: string, json: unknown, owner: TestCompany = company) => call(gateway, { method: 'PUT', path, authorization: owner.authorization, json });
const get = (path: string, owner: TestCompany = company) => call(gateway, { path, authorization: owner.authorization });
const del = (path: string, owner: TestCompany = company) => call(gateway, { method: 'DELETE', path, authorization: owner.authorization });

const createUrl = (fields: Record<string, unknown> = {}, owner: TestCompany = company) => createThrough(gateway, owner, URLS, { url: HOOK, ...fields });
const createWebhook = (fields: Record<string, unknown> = {}, owner: TestCompany = company) =>
  createThrough(gateway, owner, WEBHOOKS, { name: 'Call ended to CRM', trigger_type: 'call_ended', ...fields });

// ---------------------------------------------------------------------------------------------

describe('outgoing_webhook_urls', () => {
  it('creates a URL with every column and answers with the record envelope', async () => {
    const record = recordOf(
      await post(URLS, {
        name: ' CRM ',
        url: 'https://crm.example.com/leads/{{lead_id}}?source={{ traffic_source }}',
        http_method: 'put',
        content_type: 'application/x-www-form-urlencoded',
        headers: { 'X-Api-Key': 'secret-{{token}}', Accept: 'application/json' },
        body: 'caller={{caller_id}}',
      }),
      'outgoing_webhook_url',
    );
    expect(Object.keys(record).sort()).toEqual([...URL_COLUMNS].sort());
    expect(record).toMatchObject({
      id: 1,
      type: 'OutgoingWebhookUrl',
      company_id: company.id,
      name: 'CRM',
      url: 'https://crm.example.com/leads/{{lead_id}}?source={{ traffic_source }}',
      http_method: 'PUT',
      content_type: 'application/x-www-form-urlencoded',
      headers: { 'X-Api-Key': 'secret-{{token}}', Accept: 'application/json' },
      body: 'caller={{caller_id}}',
      routes_show_path: '/api/v1/outgoing_webhook_urls/1',
    });
    expect(recordOf(await get(`${URLS}/1`), 'outgoing_webhook_url')).toEqual(record);
  });

  it('defaults to POST, application/json, no headers and no body', async () => {
    expect(await createUrl()).toMatchObject({ name: null, url: HOOK, http_method: 'POST', content_type: 'application/json', headers: {}, body: null });
  });

  it('new shows the defaults and persists nothing', async () => {
    const record = recordOf(await get(`${URLS}/new`), 'outgoing_webhook_url');
    expect(Object.keys(record).sort()).toEqual([...URL_COLUMNS].sort());
    expect(record).toMatchObject({ id: null, type: 'OutgoingWebhookUrl', http_method: 'POST', content_type: 'application/json', headers: {}, url: null });
    expect((await get(URLS)).body.metadata.total_count).toBe(0);
  });

  it('requires url on create', async () => {
    expect422(await post(URLS, { name: 'No URL' }), { url: ['is required'] });
  });

  it.each([
    ['an ftp URL', 'ftp://x'],
    ['text that is not a URL', 'not a url'],
    ['a bare host', 'example.com/hook'],
    ['a blank', ''],
    ['a placeholder for the scheme', '{{scheme}}://example.com/hook'],
    // Placeholders are checked as `x`, which is no port.
    ['a placeholder for the port', 'http://hooks.example.com:{{port}}/x'],
  ])('refuses %s as url', async (_label, url) => {
    const reply = await post(URLS, { url });
    expect(reply.status, reply.text).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['url']);
  });

  it.each([
    'https://hooks.example.com/{{call_id}}',
    'https://hooks.example.com/x?caller={{ caller_id }}&n={{data.zip}}',
    'https://{{subdomain}}.example.com/hook',
  ])('accepts {{token}} placeholders in url: %s', async (url) => {
    expect((await createUrl({ url })).url).toBe(url);
  });

  it('refuses an http_method and a content_type outside their lists', async () => {
    expect422(await post(URLS, { url: HOOK, http_method: 'HEAD', content_type: 'text/html' }), {
      http_method: ['is not included in the list (POST, GET, PUT, PATCH, DELETE)'],
      content_type: ['is not included in the list (application/json, application/x-www-form-urlencoded, text/plain)'],
    });
  });

  it.each(['GET', 'PUT', 'PATCH', 'DELETE', 'post'])('accepts http_method %s, stored upper-case', async (http_method) => {
    expect((await createUrl({ http_method })).http_method).toBe(http_method.toUpperCase());
  });

  describe('headers', () => {
    it('refuses the headers the service sets, naming each', async () => {
      const headers = { Host: 'a', 'content-length': '1', 'Transfer-Encoding': 'chunked', Connection: 'close', 'Content-Type': 'text/plain', 'Webhook-Signature': 'v1,x', 'webhook-id': '1' };
      expect422(await post(URLS, { url: HOOK, headers }), {
        headers: [
          'cannot set Host: it is set by the service',
          'cannot set content-length: it is set by the service',
          'cannot set Transfer-Encoding: it is set by the service',
          'cannot set Connection: it is set by the service',
          'cannot set Content-Type: it is set from content_type',
          'cannot set Webhook-Signature: webhook-* headers are reserved for the service',
          'cannot set webhook-id: webhook-* headers are reserved for the service',
        ],
      });
    });

    it.each([
      ['an array', ['X-A']],
      ['a string that is not JSON', 'X-A: 1'],
      ['JSON text of an array', '["X-A"]'],
      ['a number', 5],
    ])('refuses %s', async (_label, headers) => {
      expect422(await post(URLS, { url: HOOK, headers }), { headers: ['is not a hash of header names and values'] });
    });

    it('refuses invalid names, non-string values, line breaks, long values and names given twice', async () => {
      const headers = { 'Bad Name': 'x', 'X-Number': 5, 'X-Split': 'a\r\nInjected: yes', 'X-Long': 'v'.repeat(1001), 'X-Twice': 'a', 'x-twice': 'b' };
      expect422(await post(URLS, { url: HOOK, headers }), {
        headers: [
          'has a header name that is not a valid HTTP token: Bad Name',
          'has a value for X-Number that is not a string',
          'has a value for X-Split with a line break or control character',
          'has a value for X-Long longer than 1000 characters',
          'names x-twice twice (header names are case-insensitive)',
        ],
      });
    });

    it('takes at most 20 headers', async () => {
      const headers = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`X-H${i}`, String(i)]));
      expect(Object.keys((await createUrl({ headers: headers(20) })).headers)).toHaveLength(20);
      expect422(await post(URLS, { url: HOOK, headers: headers(21) }), { headers: ['has more than 20 headers'] });
    });

    it('takes a hash as JSON text, as form fields, and blank as no headers', async () => {
      expect((await createUrl({ headers: '{"X-A":"1"}' })).headers).toEqual({ 'X-A': '1' });
      const form = await call(gateway, { method: 'POST', path: URLS, authorization: company.authorization, form: `url=${encodeURIComponent(HOOK)}&headers[X-Key]=abc&headers[Accept]=text%2Fplain` });
      expect(recordOf(form, 'outgoing_webhook_url').headers).toEqual({ 'X-Key': 'abc', Accept: 'text/plain' });
      expect((await createUrl({ headers: '' })).headers).toEqual({});
    });
  });

  it('bounds the body template at 16 KB', async () => {
    // 8,200 two-byte characters: within the 10,000-character input limit, over 16,384 bytes.
    expect422(await post(URLS, { url: HOOK, body: 'é'.repeat(8_200) }), { body: ['is too long (maximum is 16384 bytes)'] });
    expect((await createUrl({ body: 'é'.repeat(8_192) })).body).toHaveLength(8_192);
  });

  it('updates only the fields sent, with the same rules', async () => {
    const created = await createUrl({ name: 'A', headers: { 'X-A': '1' } });
    const updated = recordOf(await put(`${URLS}/${created.id}`, { http_method: 'patch' }), 'outgoing_webhook_url');
    expect(updated).toMatchObject({ name: 'A', url: HOOK, http_method: 'PATCH', headers: { 'X-A': '1' } });
    expect422(await put(`${URLS}/${created.id}`, { url: 'ftp://x' }), { url: ['is not a valid URL (http or https, {{token}} placeholders allowed)'] });
    expect(recordOf(await get(`${URLS}/${created.id}`), 'outgoing_webhook_url').url).toBe(HOOK);
  });

  it('lists with fulltext over name and url, and orders by name', async () => {
    await createUrl({ name: 'Zeta', url: 'https://zeta.example.com/x' });
    await createUrl({ name: 'Alpha', url: 'https://alpha.example.com/x' });
    const found = await get(`${URLS}?fulltext=zeta.example`);
    expect(found.body.outgoing_webhook_urls.map((row: any) => row.name)).toEqual(['Zeta']);
    const ordered = await get(`${URLS}?order=name&columns=name`);
    expect(ordered.body.outgoing_webhook_urls).toEqual([{ name: 'Alpha' }, { name: 'Zeta' }]);
  });

  it("answers 404 for another company's URL and leaves it as it was", async () => {
    const theirs = await createUrl({ name: 'Theirs' }, other);
    expect404(await get(`${URLS}/${theirs.id}`));
    expect404(await put(`${URLS}/${theirs.id}`, { name: 'Mine' }));
    expect404(await del(`${URLS}/${theirs.id}`));
    expect(recordOf(await get(`${URLS}/${theirs.id}`, other), 'outgoing_webhook_url').name).toBe('Theirs');
  });
});

// ---------------------------------------------------------------------------------------------

describe('outgoing_webhooks', () => {
  it('creates a webhook with every field of the reference and answers with the record envelope', async () => {
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Solar' });
    const [first, second] = [await createUrl(), await createUrl()];
    const record = recordOf(
      await post(WEBHOOKS, {
        name: ' Long calls ',
        trigger_type: 'call_ended',
        trigger_duration: '90',
        offer_id: String(offer.id),
        schedule_action_id: 12,
        sortable_order: '-2',
        token_value_ids: '4,5',
        token_value_map_ids: [6],
        outgoing_url_ids: [second!.id, first!.id],
        enabled: 'no',
      }),
      'outgoing_webhook',
    );
    expect(Object.keys(record).sort()).toEqual([...WEBHOOK_COLUMNS].sort());
    expect(record).toMatchObject({
      id: 1,
      type: 'OutgoingWebhook',
      company_id: company.id,
      name: 'Long calls',
      trigger_type: 'call_ended',
      trigger_duration: 90,
      offer_id: offer.id,
      schedule_action_id: 12,
      sortable_order: -2,
      token_value_ids: [4, 5],
      token_value_map_ids: [6],
      outgoing_url_ids: [second!.id, first!.id],
      enabled: false,
      routes_show_path: '/api/v1/outgoing_webhooks/1',
    });
    expect(recordOf(await get(`${WEBHOOKS}/1`), 'outgoing_webhook')).toEqual(record);
  });

  it('defaults to enabled, order 0 and empty id lists', async () => {
    expect(await createWebhook()).toMatchObject({
      trigger_duration: null,
      offer_id: null,
      schedule_action_id: null,
      sortable_order: 0,
      token_value_ids: [],
      outgoing_url_ids: [],
      token_value_map_ids: [],
      enabled: true,
    });
  });

  it('takes a blank id list as the empty list and a blank trigger_duration as none', async () => {
    expect(await createWebhook({ outgoing_url_ids: '', token_value_ids: null, trigger_duration: '' })).toMatchObject({ outgoing_url_ids: [], token_value_ids: [], trigger_duration: null });
  });

  it('new shows the defaults, prefilled with what is sent, and persists nothing', async () => {
    const record = recordOf(await get(`${WEBHOOKS}/new?trigger_type=manual`), 'outgoing_webhook');
    expect(Object.keys(record).sort()).toEqual([...WEBHOOK_COLUMNS].sort());
    expect(record).toMatchObject({ id: null, type: 'OutgoingWebhook', trigger_type: 'manual', enabled: true, sortable_order: 0, outgoing_url_ids: [] });
    expect((await get(WEBHOOKS)).body.metadata.total_count).toBe(0);
  });

  it('requires name and trigger_type on create', async () => {
    expect422(await post(WEBHOOKS, {}), { name: ['is required'], trigger_type: ['is required'] });
  });

  it('accepts every event name, manual and schedule_action as trigger_type, and nothing else', async () => {
    for (const trigger_type of [...EVENT_NAMES, 'manual', 'schedule_action']) {
      expect((await post(WEBHOOKS, { name: trigger_type, trigger_type })).status, trigger_type).toBe(200);
    }
    const reply = await post(WEBHOOKS, { name: 'x', trigger_type: 'call_exploded' });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.trigger_type[0]).toMatch(/^is not included in the list \(new_call, .*, manual, schedule_action\)$/);
  });

  it('refuses a negative or fractional trigger_duration, ids that are not ids and a non-boolean enabled', async () => {
    expect422(await post(WEBHOOKS, { name: 'x', trigger_type: 'new_call', trigger_duration: -1, schedule_action_id: 0, token_value_ids: 'a', enabled: 'maybe', sortable_order: 1.5 }), {
      trigger_duration: ['must be greater than or equal to 0'],
      schedule_action_id: ['is not a valid id'],
      'token_value_ids.0': ['is not an integer'],
      enabled: ['is not a valid boolean (use 1, true, yes, on, 0, false, no or off)'],
      sortable_order: ['is not an integer'],
    });
    expect((await post(WEBHOOKS, { name: 'x', trigger_type: 'new_call', trigger_duration: 1.5 })).body.errors).toEqual({ trigger_duration: ['is not an integer'] });
  });

  it("refuses outgoing_url_ids naming a missing URL or another company's, and writes nothing", async () => {
    const mine = await createUrl();
    const theirs = await createUrl({}, other);
    await createUrl({}, other);
    // `theirs` has the id `mine` has; the other company's second URL has an id this company lacks.
    expect422(await post(WEBHOOKS, { name: 'x', trigger_type: 'new_call', outgoing_url_ids: [mine.id, 2, 99] }), { outgoing_url_ids: ['does not exist: 2, 99'] });
    expect(theirs.id).toBe(mine.id);
    expect((await get(WEBHOOKS)).body.metadata.total_count).toBe(0);
  });

  it("refuses an offer_id of another company", async () => {
    const theirs = await createThrough(gateway, other, '/api/v1/offers', { name: 'Theirs' });
    expect422(await post(WEBHOOKS, { name: 'x', trigger_type: 'new_lead', offer_id: theirs.id }), { offer_id: [`does not exist: ${theirs.id}`] });
  });

  it('updates only the fields sent, and checks outgoing_url_ids on update too', async () => {
    const url = await createUrl();
    const created = await createWebhook({ outgoing_url_ids: [url.id], trigger_duration: 30 });
    const updated = recordOf(await put(`${WEBHOOKS}/${created.id}`, { enabled: false, trigger_type: 'manual' }), 'outgoing_webhook');
    expect(updated).toMatchObject({ name: created.name, trigger_type: 'manual', enabled: false, trigger_duration: 30, outgoing_url_ids: [url.id], created_at: created.created_at });
    expect422(await put(`${WEBHOOKS}/${created.id}`, { outgoing_url_ids: [url.id, 42] }), { outgoing_url_ids: ['does not exist: 42'] });
    expect(recordOf(await get(`${WEBHOOKS}/${created.id}`), 'outgoing_webhook').outgoing_url_ids).toEqual([url.id]);
  });

  it("takes a deleted URL out of every webhook's outgoing_url_ids, and only this company's", async () => {
    const [gone, kept] = [await createUrl(), await createUrl()];
    const both = await createWebhook({ outgoing_url_ids: [gone!.id, kept!.id] });
    const onlyGone = await createWebhook({ outgoing_url_ids: [gone!.id] });
    const untouched = await createWebhook({ outgoing_url_ids: [kept!.id] });
    // The other company has a URL with the same id, listed by a webhook of its own.
    const theirUrl = await createUrl({}, other);
    const theirs = await createWebhook({ outgoing_url_ids: [theirUrl.id] }, other);
    expect(theirUrl.id).toBe(gone!.id);

    expect(recordOf(await del(`${URLS}/${gone!.id}`), 'outgoing_webhook_url').id).toBe(gone!.id);
    const ids = async (id: number, owner: TestCompany = company) => recordOf(await get(`${WEBHOOKS}/${id}`, owner), 'outgoing_webhook').outgoing_url_ids;
    expect(await ids(both.id)).toEqual([kept!.id]);
    expect(await ids(onlyGone.id)).toEqual([]);
    expect(await ids(untouched.id)).toEqual([kept!.id]);
    expect(await ids(theirs.id, other)).toEqual([theirUrl.id]);
    // What a webhook shows can be saved back.
    expect((await put(`${WEBHOOKS}/${both.id}`, { outgoing_url_ids: await ids(both.id) })).status).toBe(200);
  });

  it('lists with filters on trigger_type, offer_id and enabled, fulltext on name, and order', async () => {
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Solar' });
    await createWebhook({ name: 'Bravo', trigger_type: 'new_call', offer_id: offer.id });
    await createWebhook({ name: 'Alpha', trigger_type: 'new_lead', enabled: false });
    await createWebhook({ name: 'Charlie', trigger_type: 'new_call', sortable_order: -1 });
    const names = async (query: string) => (await get(`${WEBHOOKS}?${query}`)).body.outgoing_webhooks.map((row: any) => row.name);
    expect(await names('trigger_type=new_call')).toEqual(['Bravo', 'Charlie']);
    expect(await names(`offer_id=${offer.id}`)).toEqual(['Bravo']);
    expect(await names('enabled=false')).toEqual(['Alpha']);
    expect(await names('fulltext=char')).toEqual(['Charlie']);
    expect(await names('order=name&order_dir=desc')).toEqual(['Charlie', 'Bravo', 'Alpha']);
    expect(await names('order=sortable_order')).toEqual(['Charlie', 'Bravo', 'Alpha']);
    expect((await get(`${WEBHOOKS}?trigger_type=call_exploded`)).status).toBe(422);
  });

  it("answers 404 for another company's webhook and leaves it as it was", async () => {
    const theirs = await createWebhook({ name: 'Theirs' }, other);
    expect404(await get(`${WEBHOOKS}/${theirs.id}`));
    expect404(await put(`${WEBHOOKS}/${theirs.id}`, { name: 'Mine' }));
    expect404(await del(`${WEBHOOKS}/${theirs.id}`));
    expect(recordOf(await get(`${WEBHOOKS}/${theirs.id}`, other), 'outgoing_webhook').name).toBe('Theirs');
  });

  it('deletes and returns the webhook', async () => {
    const created = await createWebhook();
    expect(recordOf(await del(`${WEBHOOKS}/${created.id}`), 'outgoing_webhook')).toMatchObject({ id: created.id, name: created.name });
    expect404(await get(`${WEBHOOKS}/${created.id}`));
  });
});
