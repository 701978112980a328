import { beforeEach, describe, expect, it } from 'vitest';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect404, expect422 } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough, listThrough } from '../fixtures/records.js';
import { COMMON_COLUMNS } from '../fixtures/reference.js';
import { scheduleWebhook } from '../fixtures/schedules.js';

/**
 * Schedule actions through the local gateway: the reference's record shape with the action kind
 * as root node, the allowed owner_relation and action_type values, the kinds that need an
 * outside system, and the schedules' other resources.
 */
const gateway = useGateway();
let company: TestCompany;
let schedule: Record<string, any>;

const PATH = '/api/v1/schedule_actions';
const REFERENCE_FIELDS = [
  'name', 'schedule_id', 'owner_relation', 'type', 'sortable_order', 'action_type', 'action_category', 'sms_body', 'email_title', 'email_body', 'email_type', 'email_from',
  'email_domain', 'outgoing_webhook', 'action_wait_type', 'wait_until_day_of_week', 'wait_until_hour', 'wait_until_minute', 'wait_until_time_zone', 'wait_seconds',
  'wait_minutes', 'wait_hours', 'wait_days', 'choice_action_type', 'sub_action', 'add_to_schedule_id', 'add_to_schedule_name', 'mailing_list_id', 'campaign_id',
  'has_queued_leads', 'queued_leads_count', 'token_value_ids', 'calls_on_hold_limit', 'when_buyer_would_convert', 'when_buyer_available', 'available_cc_percentage',
  'during_daylight_hours', 'lead_alteration_ids', 'created_at', 'updated_at',
];

const post = (json: Record<string, unknown>, owner: TestCompany = company) => call(gateway, { method: 'POST', path: PATH, authorization: owner.authorization, json });

beforeEach(async () => {
  company = await createTestCompany('schedule-actions');
  schedule = await createThrough(gateway, company, '/api/v1/schedules', { name: 'Follow-up', time_zone: 'America/New_York' });
});

describe('schedule actions', () => {
  it('creates, shows, updates and deletes an action under its kind’s root node, with the reference’s fields and integrations', async () => {
    const created = await post({ schedule_id: schedule.id, owner_relation: 'actions', action_type: 'wait', action_wait_type: 'hours', wait_hours: '2', sortable_order: '1.5', record_token_filter_list: 'state:CA, age:>=21' });
    expect(created.status, created.text).toBe(200);
    expect(created.body.metadata).toEqual({ root: 'action_wait' });
    expect(created.body.associations).toEqual({ integrations: [] });
    const action = created.body.action_wait;
    for (const field of [...COMMON_COLUMNS, ...REFERENCE_FIELDS]) expect(action, field).toHaveProperty(field);
    expect(action).toMatchObject({ schedule_id: schedule.id, owner_relation: 'actions', action_type: 'wait', action_category: 'timing', wait_hours: 2, sortable_order: 1.5, record_token_filter_list: ['state:CA', 'age:>=21'], has_queued_leads: false, queued_leads_count: 0, outgoing_webhook: null });

    const shown = await call(gateway, { path: `${PATH}/${action.id}`, authorization: company.authorization });
    expect(shown.body.metadata).toEqual({ root: 'action_wait' });
    expect(shown.body.action_wait.id).toBe(action.id);

    const updated = await call(gateway, { method: 'PUT', path: `${PATH}/${action.id}`, authorization: company.authorization, json: { wait_hours: 3, sortable_order: -1 } });
    expect(updated.body.action_wait).toMatchObject({ wait_hours: 3, sortable_order: -1, action_type: 'wait' });

    const removed = await call(gateway, { method: 'DELETE', path: `${PATH}/${action.id}`, authorization: company.authorization });
    expect(removed.body.metadata).toEqual({ root: 'action_wait' });
    expect404(await call(gateway, { path: `${PATH}/${action.id}`, authorization: company.authorization }));
  });

  it('shows a webhook action’s outgoing_webhook and an add_to_schedule action’s schedule name', async () => {
    const webhook = await scheduleWebhook(gateway, company, 'https://crm.example.com/leads');
    const other = await createThrough(gateway, company, '/api/v1/schedules', { name: 'Second chance' });
    const hook = (await post({ schedule_id: schedule.id, owner_relation: 'end_of_schedule_actions', action_type: 'webhook', outgoing_webhook_id: webhook.id })).body.action_webhook;
    expect(hook.outgoing_webhook).toMatchObject({ id: webhook.id, name: 'schedule hook', trigger_type: 'schedule_action', type: 'OutgoingWebhook', outgoing_url_ids: webhook.outgoing_url_ids });
    const add = (await post({ schedule_id: schedule.id, owner_relation: 'actions', action_type: 'add_to_schedule', add_to_schedule_id: other.id })).body.action_add_to_schedule;
    expect(add).toMatchObject({ add_to_schedule_id: other.id, add_to_schedule_name: 'Second chance', action_category: 'lead' });
  });

  it('lists by schedule_id, owner_relation and ids', async () => {
    const other = await createThrough(gateway, company, '/api/v1/schedules', { name: 'Other' });
    const a = (await post({ schedule_id: schedule.id, owner_relation: 'actions', action_type: 'restart_schedule' })).body.action_restart_schedule;
    const b = (await post({ schedule_id: schedule.id, owner_relation: 'end_of_schedule_actions', action_type: 'lead_opt_out' })).body.action_lead_opt_out;
    const c = (await post({ schedule_id: other.id, owner_relation: 'actions', action_type: 'restart_schedule' })).body.action_restart_schedule;
    const ids = (rows: Record<string, any>[]) => rows.map((row) => row.id);
    expect(ids(await listThrough(gateway, company, `${PATH}?schedule_id=${schedule.id}`, 'schedule_actions'))).toEqual([a.id, b.id]);
    expect(ids(await listThrough(gateway, company, `${PATH}?owner_relation=actions`, 'schedule_actions'))).toEqual([a.id, c.id]);
    expect(ids(await listThrough(gateway, company, `${PATH}?ids[]=${b.id}&ids[]=${c.id}`, 'schedule_actions'))).toEqual([b.id, c.id]);
  });

  it('requires owner_relation and action_type from their lists, and the fields each kind needs', async () => {
    const missing = await post({ schedule_id: schedule.id });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['action_type', 'owner_relation']);
    expect422(await post({ owner_relation: 'sideways', action_type: 'dial' }), {
      owner_relation: ['is not included in the list (actions, end_of_schedule_actions, webhook_actions, call_disposition_actions, call_control_actions, key_press_flows, lead_retarget_actions, schedule_actions)'],
    });
    expect((await post({ owner_relation: 'actions', action_type: 'teleport' })).body.errors.action_type[0]).toMatch(/^is not included in the list \(dial, wait, /);
    expect422(await post({ owner_relation: 'actions', action_type: 'wait', action_wait_type: 'hours' }), { wait_hours: ["can't be blank when action_wait_type is hours"] });
    expect422(await post({ owner_relation: 'actions', action_type: 'webhook' }), { outgoing_webhook_id: ["can't be blank for this action type"] });
    expect422(await post({ owner_relation: 'actions', action_type: 'wait', action_wait_type: 'until_time', wait_until_hour: 24 }), { wait_until_hour: ['must be between 0 and 23'] });
    expect422(await post({ owner_relation: 'actions', action_type: 'dial', record_token_filter_list: 'state' }), {
      record_token_filter_list: ['is not a valid list of filters: entry 1 ("state") is missing a ":" between key and value (expected key:value)'],
    });
    expect422(await post({ schedule_id: 999_999, owner_relation: 'actions', action_type: 'dial' }), { schedule_id: ['does not exist: 999999'] });
  });

  it.each(['crm_two', 'marketing_automation', 'ftp_upload', 'data_append'])('creates %s although this deployment has no such integration (a lead skips it)', async (kind) => {
    const created = await post({ schedule_id: schedule.id, owner_relation: 'actions', action_type: kind });
    expect(created.status, created.text).toBe(200);
    expect(created.body[`action_${kind}`]).toMatchObject({ action_type: kind, action_category: 'integration' });
  });

  it('refuses object_storage_upload when the S3 bucket setting is missing, and takes it when storage is configured', async () => {
    const saved = { adapter: process.env.OBJECT_STORAGE_ADAPTER, bucket: process.env.OBJECT_STORAGE_BUCKET };
    try {
      process.env.OBJECT_STORAGE_ADAPTER = 's3';
      delete process.env.OBJECT_STORAGE_BUCKET;
      expect422(await post({ owner_relation: 'actions', action_type: 'object_storage_upload' }), { action_type: ['is not available: this deployment has no object storage (set OBJECT_STORAGE_BUCKET)'] });
      process.env.OBJECT_STORAGE_BUCKET = 'leads-bucket';
      expect((await post({ owner_relation: 'actions', action_type: 'object_storage_upload' })).body.metadata).toEqual({ root: 'action_object_storage_upload' });
    } finally {
      process.env.OBJECT_STORAGE_ADAPTER = saved.adapter;
      if (saved.bucket === undefined) delete process.env.OBJECT_STORAGE_BUCKET;
      else process.env.OBJECT_STORAGE_BUCKET = saved.bucket;
    }
  });

  it('keeps the kind and relation an action was created with', async () => {
    const action = (await post({ owner_relation: 'actions', action_type: 'dial' })).body.action_dial;
    const updated = await call(gateway, { method: 'PUT', path: `${PATH}/${action.id}`, authorization: company.authorization, json: { action_type: 'wait', owner_relation: 'end_of_schedule_actions', name: 'First call' } });
    expect(updated.body.action_dial).toMatchObject({ action_type: 'dial', owner_relation: 'actions', name: 'First call' });
  });

  it('does not show another company’s action', async () => {
    const action = (await post({ owner_relation: 'actions', action_type: 'dial' })).body.action_dial;
    const other = await createTestCompany('schedule-actions-other');
    expect404(await call(gateway, { path: `${PATH}/${action.id}`, authorization: other.authorization }));
  });
});

describe('the schedules’ other resources', () => {
  it('serves action groups, triggers and distributions with their rules', async () => {
    const other = await createThrough(gateway, company, '/api/v1/schedules', { name: 'Other' });
    const action = (await post({ owner_relation: 'actions', action_type: 'dial' })).body.action_dial;
    expect(await createThrough(gateway, company, '/api/v1/schedule_action_groups', { name: 'Dials', schedule_action_ids: [action.id] })).toMatchObject({ schedule_action_ids: [action.id] });
    expect(await createThrough(gateway, company, '/api/v1/schedule_triggers', { schedule_id: other.id, source_schedule_id: schedule.id, record_token_filter_list: 'status:expired' })).toMatchObject({
      trigger_event: 'lead_ended',
      enabled: true,
      record_token_filter_list: ['status:expired'],
    });
    expect422(await call(gateway, { method: 'POST', path: '/api/v1/schedule_triggers', authorization: company.authorization, json: { schedule_id: other.id, source_schedule_id: other.id } }), {
      source_schedule_id: ['must be another schedule than schedule_id'],
    });
    expect(await createThrough(gateway, company, '/api/v1/schedule_distributions', { schedule_id: schedule.id, target_schedule_id: other.id, weight: 3 })).toMatchObject({ weight: 3, enabled: true });
    expect422(await call(gateway, { method: 'POST', path: '/api/v1/schedule_distributions', authorization: company.authorization, json: { schedule_id: schedule.id, target_schedule_id: 999_999 } }), {
      target_schedule_id: ['does not exist: 999999'],
    });
  });
});
