import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect422 } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { submitLead, submitted } from '../fixtures/leads.js';
import { createThrough, listThrough } from '../fixtures/records.js';
import { COMMON_COLUMNS } from '../fixtures/reference.js';
import { runDueSteps, scheduleWith } from '../fixtures/schedules.js';

/**
 * Points where the service departed from the reference's explicit text (issue 29), each through
 * HTTP: the leads' common columns, fulltext on shown names, all-optional incoming webhook
 * creates, token-only lead posts, wait types inferred from the one wait field given, and action
 * kinds that need an outside system (created, then skipped with a result on the lead).
 */
const gateway = useGateway();
let company: TestCompany;

beforeAll(async () => {
  company = await createTestCompany('departures');
});

const as = (method: string, path: string, json?: unknown) => call(gateway, { method, path, authorization: company.authorization, json });

describe('leads', () => {
  it('show, list and CSV every common column, and take a post with only a lead_token', async () => {
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Token only' });
    const reply = await submitLead(gateway, { query: { lead_token: offer.lead_token } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ success: true, created: true, lead: { caller_id: null, email: null, offer_id: offer.id, status: 'active' } });
    const lead = reply.body.lead;
    // A contactless lead never matches another: a second post is a second lead.
    const again = await submitted(gateway, { json: { lead_token: offer.lead_token, source: 'lp' } });
    expect(again.id).not.toBe(lead.id);
    expect(again.data).toEqual({ source: 'lp' });

    const shown = (await as('GET', `/api/v1/leads/${lead.id}`)).body.lead;
    for (const column of COMMON_COLUMNS) expect(shown, column).toHaveProperty(column);
    expect(shown).toMatchObject({ id: lead.id, type: 'Lead', legacy_id: null, deleted_at: null, user_updated_at: null, external_record_id: null, routes_show_path: `/api/v1/leads/${lead.id}`, routes_edit_path: `/api/v1/leads/${lead.id}` });

    const picked = await listThrough(gateway, company, `/api/v1/leads?offer_id=${offer.id}&columns=id,legacy_id,routes_show_path,external_record_id`, 'leads');
    expect(picked).toContainEqual({ id: lead.id, legacy_id: null, routes_show_path: `/api/v1/leads/${lead.id}`, external_record_id: null });
    const csv = await as('GET', `/api/v1/leads.csv?offer_id=${offer.id}`);
    expect(csv.text.split('\n')[0]!.split(',').slice(0, COMMON_COLUMNS.length)).toEqual([...COMMON_COLUMNS]);

    // The contactless lead can be updated as it is, and given a contact later.
    const updated = await as('PUT', `/api/v1/leads/${lead.uuid}`, { data: { note: 'called back' } });
    expect(updated.status, updated.text).toBe(200);
    expect((await as('PUT', `/api/v1/leads/${lead.uuid}`, { email: 'late@example.com' })).body.lead.email).toBe('late@example.com');
    // But an update does not take the last contact away.
    expect((await as('PUT', `/api/v1/leads/${lead.uuid}`, { email: '' })).status).toBe(422);
  });
});

describe('fulltext', () => {
  it('finds an integration by the name it is shown with, and a manual fire by its shown name', async () => {
    const crm = await createThrough(gateway, company, '/api/v1/integrations', { integration_type: 'crm_one' });
    await createThrough(gateway, company, '/api/v1/integrations', { integration_type: 'crm_two' });
    expect(crm.name).toBe('Crm one');
    const found = await listThrough(gateway, company, `/api/v1/integrations?fulltext=${encodeURIComponent('Crm one')}`, 'integrations');
    expect(found.map((row) => row.id)).toEqual([crm.id]);
    const fire = await createThrough(gateway, company, '/api/v1/webhook_manual_fires', {});
    const fires = await listThrough(gateway, company, `/api/v1/webhook_manual_fires?fulltext=${encodeURIComponent(`manual fire #${fire.id}`)}`, 'webhook_manual_fires');
    expect(fires.map((row) => row.id)).toEqual([fire.id]);
  });
});

describe('POST /api/v1/inbound_webhooks', () => {
  it('takes an empty body (every field optional) and generates the vanity name, which pings answer to', async () => {
    const made = await as('POST', '/api/v1/inbound_webhooks', {});
    expect(made.status, made.text).toBe(200);
    const webhook = made.body.inbound_webhook;
    expect(webhook.vanity_uri).toMatch(/^[0-9a-f]{16}$/);
    const blank = (await as('POST', '/api/v1/inbound_webhooks', { vanity_uri: '', name: 'Blank' })).body.inbound_webhook;
    expect(blank.vanity_uri).toMatch(/^[0-9a-f]{16}$/);
    expect(blank.vanity_uri).not.toBe(webhook.vanity_uri);
    const chosen = (await as('POST', '/api/v1/inbound_webhooks', { vanity_uri: 'my-partner' })).body.inbound_webhook;
    expect(chosen.vanity_uri).toBe('my-partner');
    // The generated name is the ping's path like a chosen one (no buyers: a refusal, not a 404).
    const ping = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${webhook.vanity_uri}`, json: { caller_id: '+14155550100' } });
    expect(ping.status).not.toBe(404);
  });
});

describe('schedule actions', () => {
  it.each([
    [{ action_type: 'wait', wait_hours: 2 }, 'hours'],
    [{ action_type: 'wait', wait_seconds: '30' }, 'seconds'],
    [{ action_type: 'wait', wait_days: 1, wait_until_time_zone: 'America/Chicago' }, 'days'],
    [{ action_type: 'wait', wait_until_hour: 9, wait_until_minute: 30 }, 'until_time'],
    [{ action_type: 'schedule_callback', wait_minutes: 15 }, 'minutes'],
    [{ action_type: 'wait', wait_hours: 0, action_wait_type: 'days', wait_days: 2 }, 'days'],
  ])('infers the wait type from the one wait field given (%j -> %s)', async (fields, type) => {
    const reply = await as('POST', '/api/v1/schedule_actions', { owner_relation: 'actions', ...fields });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body[`action_${fields.action_type}`].action_wait_type).toBe(type);
  });

  it('refuses only a wait that names no wait field or several kinds of them', async () => {
    expect422(await as('POST', '/api/v1/schedule_actions', { owner_relation: 'actions', action_type: 'wait' }), {
      action_wait_type: ["can't be blank when no wait field (wait_seconds, wait_minutes, wait_hours, wait_days, wait_until_hour) is given"],
    });
    expect422(await as('POST', '/api/v1/schedule_actions', { owner_relation: 'actions', action_type: 'schedule_callback', wait_hours: 2, wait_days: 1 }), {
      action_wait_type: ["can't be inferred: the wait fields describe hours and days; give action_wait_type"],
    });
    expect422(await as('POST', '/api/v1/schedule_actions', { owner_relation: 'actions', action_type: 'wait', wait_until_minute: 5 }), {
      wait_until_hour: ["can't be blank when action_wait_type is until_time"],
    });
  });

  it('creates the kinds that need an outside system; a lead reaching one records it skipped and goes on', async () => {
    const kinds = ['crm_two', 'marketing_automation', 'ftp_upload', 'data_append'];
    const { schedule, actions } = await scheduleWith(gateway, company, {}, [...kinds.map((action_type) => ({ action_type })), { action_type: 'wait', wait_hours: 2 }]);
    expect(actions.map((action) => action.action_type)).toEqual([...kinds, 'wait']);
    const lead = await submitted(gateway, { query: { lead_token: schedule.lead_token, caller_id: '+14155550123' } });
    expect(await runDueSteps(company.id, new Date(Date.now() + 1000))).toContain('ran');
    const shown = (await as('GET', `/api/v1/leads/${lead.id}`)).body.lead;
    expect(shown).toMatchObject({
      status: 'active',
      // Waiting after the wait (the fifth action): the four skipped ones did not stop it.
      action_index: 5,
      last_skipped_action: { action_id: actions[3]!.id, action_type: 'data_append', result: 'skipped', reason: 'this deployment has no data_append integration' },
    });
  });
});
