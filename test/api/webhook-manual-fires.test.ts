import { beforeEach, describe, expect, it } from 'vitest';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { listThrough } from '../fixtures/records.js';
import { COMMON_COLUMNS } from '../fixtures/reference.js';
import { expect404, expect405, expect422, recordOf } from '../fixtures/envelope.js';

/**
 * Webhook manual fires through the local gateway (route group `subscriptions`, with the outgoing
 * webhooks they fire): list, new, create and show only; no update, no delete.
 */

const gateway = useGateway();
let company: TestCompany;
let other: TestCompany;

beforeEach(async () => {
  company = await createTestCompany('fires');
  other = await createTestCompany('fires-other');
});

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;

const listOf = (path: string, plural: string, owner: TestCompany = company) => listThrough(gateway, owner, path, plural);

describe('webhook manual fires', () => {
  const PATH = '/api/v1/webhook_manual_fires';
  const ROOT = 'webhook_manual_fire';
  const COLUMNS = [
    ...COMMON_COLUMNS,
    'name',
    'context_menu_name',
    'company_id',
    'outgoing_webhook_id',
    'buyer_conversion_id',
    'lead_id',
    'call_id',
    'webhook_log_ids',
    'fire_status',
    'url_count',
    'delivered_count',
    'failed_count',
    'last_status_code',
    'last_error',
  ];

  /** A fire of no outgoing webhook fires every `manual` one; a fresh company has none. */
  async function createFire(fields: Record<string, unknown> = {}, owner: TestCompany = company): Promise<Record<string, any>> {
    return recordOf(await call(gateway, { method: 'POST', path: PATH, authorization: owner.authorization, json: fields }), ROOT);
  }

  async function createWebhook(owner: TestCompany = company): Promise<number> {
    const url = recordOf(await call(gateway, { method: 'POST', path: '/api/v1/outgoing_webhook_urls', authorization: owner.authorization, json: { url: 'https://crm.example.com/{{call_id}}' } }), 'outgoing_webhook_url');
    const webhook = recordOf(
      await call(gateway, { method: 'POST', path: '/api/v1/outgoing_webhooks', authorization: owner.authorization, json: { name: 'CRM', trigger_type: 'manual', outgoing_url_ids: [url.id] } }),
      'outgoing_webhook',
    );
    return webhook.id as number;
  }

  it('creates a fire with every column; ids given as digit strings are stored as numbers', async () => {
    const webhookId = await createWebhook();
    const record = await createFire({ outgoing_webhook_id: String(webhookId), buyer_conversion_id: 4, lead_id: '5' });
    expect(Object.keys(record).sort()).toEqual([...COLUMNS].sort());
    expect(record).toEqual({
      id: 1,
      legacy_id: null,
      type: 'WebhookManualFire',
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: expect.stringMatching(TIME),
      updated_at: expect.stringMatching(TIME),
      deleted_at: null,
      user_updated_at: expect.stringMatching(TIME),
      routes_show_path: '/api/v1/webhook_manual_fires/1',
      routes_edit_path: '/api/v1/webhook_manual_fires/1',
      external_record_id: null,
      name: 'Manual fire #1',
      context_menu_name: 'Manual fire #1',
      company_id: company.id,
      outgoing_webhook_id: webhookId,
      buyer_conversion_id: 4,
      lead_id: 5,
      call_id: null,
      webhook_log_ids: [],
      // Its one URL is queued (docs/events.md); nothing has been attempted yet.
      fire_status: 'queued',
      url_count: 1,
      delivered_count: 0,
      failed_count: 0,
      last_status_code: null,
      last_error: null,
    });
  });

  it('refuses an outgoing webhook or a call that is not the company\'s', async () => {
    const othersWebhook = await createWebhook(other);
    expect422(await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { outgoing_webhook_id: othersWebhook } }), {
      outgoing_webhook_id: [`does not exist: ${othersWebhook}`],
    });
    const reply = await call(gateway, { method: 'POST', path: PATH, authorization: company.authorization, json: { call_id: 6 } });
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['call_id']);
    expect(await listOf(PATH, 'webhook_manual_fires')).toEqual([]);
  });

  it('with no outgoing webhook to fire, says so', async () => {
    expect(await createFire()).toMatchObject({ fire_status: 'nothing_to_fire', url_count: 0 });
  });

  it('stores the created_at and updated_at it is given', async () => {
    const record = await createFire({ created_at: '2026-01-15 08:30:00 +0000', updated_at: '2026-01-15 04:45:00 -0500' });
    expect(record.created_at).toBe('2026-01-15T08:30:00.000+00:00');
    expect(record.updated_at).toBe('2026-01-15T09:45:00.000+00:00');
    const shown = recordOf(await call(gateway, { path: `${PATH}/${record.id}`, authorization: company.authorization }), ROOT);
    expect(shown.created_at).toBe('2026-01-15T08:30:00.000+00:00');
    expect(shown.updated_at).toBe('2026-01-15T09:45:00.000+00:00');
  });

  it('uses the current time when created_at is blank', async () => {
    const record = await createFire({ created_at: '', updated_at: null });
    expect(record.created_at).toMatch(TIME);
    expect(record.updated_at).toMatch(TIME);
  });

  it('rejects ids that are not positive integers and times it cannot read', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: PATH,
      authorization: company.authorization,
      json: { outgoing_webhook_id: 'abc', buyer_conversion_id: 1.5, lead_id: 0, call_id: true, created_at: 'yesterday' },
    });
    expect422(reply, {
      outgoing_webhook_id: ['is not an integer'],
      buyer_conversion_id: ['is not an integer'],
      lead_id: ['is not a valid id'],
      call_id: ['is not an integer'],
      created_at: ['is not a valid time'],
    });
    expect(await listOf(PATH, 'webhook_manual_fires')).toEqual([]);
  });

  it('takes blank ids as null', async () => {
    const record = await createFire({ outgoing_webhook_id: '', lead_id: null });
    expect(record).toMatchObject({ outgoing_webhook_id: null, lead_id: null, buyer_conversion_id: null, call_id: null });
  });

  it('new prefills lead_id and persists nothing', async () => {
    const record = recordOf(await call(gateway, { path: `${PATH}/new?lead_id=5`, authorization: company.authorization }), ROOT);
    expect(Object.keys(record).sort()).toEqual([...COLUMNS].sort());
    expect(record).toMatchObject({ id: null, type: 'WebhookManualFire', lead_id: 5, call_id: null, webhook_log_ids: [] });
    const withCall = recordOf(await call(gateway, { path: `${PATH}/new?lead_id=5&call_id=8`, authorization: company.authorization }), ROOT);
    expect(withCall).toMatchObject({ lead_id: 5, call_id: 8 });
    expect422(await call(gateway, { path: `${PATH}/new?lead_id=five`, authorization: company.authorization }), { lead_id: ['is not an integer'] });
    expect(await listOf(PATH, 'webhook_manual_fires')).toEqual([]);
  });

  it('new shows a prefilled created_at in the API\'s time format', async () => {
    const reply = await call(gateway, { path: `${PATH}/new?created_at=${encodeURIComponent('2026-11-01 10:00:00 +0000')}`, authorization: company.authorization });
    expect(recordOf(reply, ROOT).created_at).toBe('2026-11-01T10:00:00.000+00:00');
  });

  it('shows and lists fires of the company only', async () => {
    const first = await createFire({ lead_id: 1 });
    const second = await createFire({ lead_id: 2 });
    await createFire({ lead_id: 3 }, other);
    expect(recordOf(await call(gateway, { path: `${PATH}/${second.id}`, authorization: company.authorization }), ROOT)).toEqual(second);
    const list = await call(gateway, { path: PATH, authorization: company.authorization });
    expect(list.body.webhook_manual_fires).toEqual([first, second]);
    expect(list.body.metadata).toEqual({ root: 'webhook_manual_fires', total_count: 2, page: 1, per_page: 25, total_pages: 1 });
  });

  it('answers 404 for another company\'s fire and for bad ids', async () => {
    const theirs = await createFire({}, other);
    expect404(await call(gateway, { path: `${PATH}/${theirs.id}`, authorization: company.authorization }));
    for (const id of ['999', 'abc']) expect404(await call(gateway, { path: `${PATH}/${id}`, authorization: company.authorization }), id);
  });

  it('has no update and no delete: 405 with Allow, and the record stays', async () => {
    const fire = await createFire({ lead_id: 9 });
    expect405(await call(gateway, { method: 'DELETE', path: `${PATH}/1`, authorization: company.authorization }), 'GET');
    expect405(await call(gateway, { method: 'PUT', path: `${PATH}/1`, authorization: company.authorization, json: { lead_id: 10 } }), 'GET');
    expect(recordOf(await call(gateway, { path: `${PATH}/${fire.id}`, authorization: company.authorization }), ROOT)).toEqual(fire);
  });
});
