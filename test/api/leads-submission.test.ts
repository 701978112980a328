import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clock } from '../../shared/adapters/clock.js';
import { createLead, getLead, newLeadId } from '../../shared/leads/lead-store.js';
import { midDayTomorrow, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany, createTestUser } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { asCompany, eventsOfLead, offerWithToken, pendingOf, submitLead, submitted } from '../fixtures/leads.js';
import { createThrough, receiveEvents } from '../fixtures/records.js';

const gateway = useGateway();
usePinnedClock(midDayTomorrow);

let callers = 0;
const newCaller = () => `+1415556${String(1000 + ++callers)}`;

async function offerSetup() {
  const company = await createTestCompany('leads-submit');
  await receiveEvents(gateway, company, 'new_lead');
  const offer = await offerWithToken(gateway, company);
  return { company, offer, token: offer.lead_token as string };
}

describe('POST /api/v1/leads: how parameters arrive', () => {
  it('takes a landing-page form sent in the query string alone (no body, no Basic auth), the other fields as data tokens', async () => {
    const { offer, token } = await offerSetup();
    const reply = await submitLead(gateway, { query: { lead_token: token, caller_id: '(415) 555-2671', email: 'Ann@Example.com', first_name: 'Ann', zip: '94107', jornaya_leadid: 'J-1', source_url: 'https://lp.example.com/a' } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ success: true, status: 200, errors: {}, metadata: { root: 'lead' } });
    expect(reply.body.checksum).toMatch(/^[0-9a-f]{32}$/);
    const lead = reply.body.lead;
    expect(lead).toMatchObject({
      type: 'Lead',
      caller_id: '+14155552671',
      email: 'ann@example.com',
      status: 'active',
      offer_id: offer.id,
      schedule_id: null,
      phase: null,
      next_action_at: null,
      data: { first_name: 'Ann', zip: '94107', jornaya_leadid: 'J-1', source_url: 'https://lp.example.com/a' },
      call_ids: [],
      contact_attempts: 0,
    });
    expect(lead.data).not.toHaveProperty('lead_token');
    expect(lead.created_at).toMatch(/\+00:00$/);
    expect(await eventsOfLead(lead.id)).toEqual(['new_lead']);
  });

  it('takes JSON with a data hash, and with auto_format_nested_fields lifts contact fields out of other shapes', async () => {
    const { token } = await offerSetup();
    const plain = await submitted(gateway, { json: { lead_token: token, caller_id: newCaller(), data: { first_name: 'Bo', score: 7, vip: true }, utm_source: 'fb' } });
    expect(plain.data).toEqual({ first_name: 'Bo', score: 7, vip: true, utm_source: 'fb' });

    const nested = { lead_token: token, contact: { phone: '415-555-3000', email_address: 'Cy@Example.com', firstname: 'Cy' }, lead: { zip_code: '10001', jornaya_leadid: 'J-2', blocked: true } };
    // Without the flag a nested shape is a token of JSON text, and no contact was given: a contactless lead.
    const unlifted = await submitted(gateway, { json: nested });
    expect(unlifted).toMatchObject({ caller_id: null, email: null, data: { contact: JSON.stringify(nested.contact) } });

    const lifted = await submitted(gateway, { json: { ...nested, auto_format_nested_fields: true } });
    expect(lifted).toMatchObject({ caller_id: '+14155553000', email: 'cy@example.com', status: 'active' });
    // A nested control word is only a token: the lead is not blocked.
    expect(lifted.data).toEqual({ first_name: 'Cy', zip: '10001', jornaya_leadid: 'J-2', blocked: true });
  });

  it('takes form fields in the body, mixed with the query string', async () => {
    const { token } = await offerSetup();
    const caller = newCaller();
    const reply = await call(gateway, { method: 'POST', path: `/api/v1/leads?lead_token=${token}`, form: `caller_id=${encodeURIComponent(caller)}&data[zip]=12345&lead_priority=2.5&hours_to_expire=24` });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.lead).toMatchObject({ caller_id: caller, lead_priority: 2.5, hours_to_expire: 24, data: { zip: '12345' } });
    expect(Date.parse(reply.body.lead.expires_at) - Date.parse(reply.body.lead.created_at)).toBe(24 * 3600_000);
  });

  it('refuses an unknown or missing lead_token with success false and errors, and writes nothing', async () => {
    const unknown = await submitLead(gateway, { query: { lead_token: 'no-such-token', caller_id: newCaller() } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, status: 404, errors: { lead_token: ['is unknown'] } });
    const missing = await submitLead(gateway, { query: { caller_id: newCaller() } });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ success: false, errors: { lead_token: ['is required'] } });
    const absurd = await submitLead(gateway, { query: { lead_token: 'x'.repeat(5000) } });
    expect(absurd.status).toBe(404);
  });

  it('names every bad parameter at once, and refuses over-limit data instead of trimming it', async () => {
    const { company, token } = await offerSetup();
    const caller = newCaller();
    const bad = await submitLead(gateway, { json: { lead_token: token, caller_id: 'abc', email: 'nope', blocked: 'maybe', apply_to: 'buyers', next_action_at: 'soon', hours_to_expire: 0 } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['apply_to', 'blocked', 'caller_id', 'email', 'hours_to_expire', 'next_action_at']);
    const tooMuch = await submitLead(gateway, { json: { lead_token: token, caller_id: caller, data: { note: 'x'.repeat(1001) } } });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors.data).toEqual(['has a value longer than 1000 characters']);
    const listed = await asCompany(gateway, company, 'GET', `/api/v1/leads?caller_id=${encodeURIComponent(caller)}`);
    expect(listed.body.leads).toEqual([]);
  });
});

describe('POST /api/v1/leads: update or create', () => {
  it('updates the newest active lead of the same token and caller, merging data', async () => {
    const { token } = await offerSetup();
    const caller = newCaller();
    const first = await submitted(gateway, { query: { lead_token: token, caller_id: caller, first_name: 'Di', zip: '1' } });
    const second = await submitLead(gateway, { query: { lead_token: token, caller_id: caller, zip: '2', lead_priority: '1' } });
    expect(second.body).toMatchObject({ success: true, created: false, updated_lead_ids: [first.id] });
    expect(second.body.lead).toMatchObject({ id: first.id, data: { first_name: 'Di', zip: '2' }, lead_priority: 1 });
    expect(await eventsOfLead(first.id)).toEqual(['new_lead', 'lead_changed']);
  });

  it('update_only never creates; update_all_matching_leads updates every active match', async () => {
    const { company, token } = await offerSetup();
    const caller = newCaller();
    const none = await submitLead(gateway, { query: { lead_token: token, caller_id: caller, update_only: 'true' } });
    expect(none.status).toBe(404);
    expect(none.body.success).toBe(false);
    expect((await asCompany(gateway, company, 'GET', `/api/v1/leads?caller_id=${encodeURIComponent(caller)}`)).body.leads).toEqual([]);

    const first = await submitted(gateway, { query: { lead_token: token, caller_id: caller } });
    // A second active lead of the same caller and token, as two posts racing could leave behind.
    const stored = (await getLead(company.id, first.id))!;
    const twin = { ...structuredClone(stored), id: newLeadId(new Date(Date.parse(stored.created_at) + 1000)), uuid: randomUUID(), version: 0 };
    await createLead(company.id, twin);
    const newest = await submitLead(gateway, { query: { lead_token: token, caller_id: caller, tag: 'newest' } });
    expect(newest.body.updated_lead_ids).toEqual([twin.id]);
    const both = await submitLead(gateway, { query: { lead_token: token, caller_id: caller, update_all_matching_leads: 'yes', tag: 'all' } });
    expect(both.body.updated_lead_ids).toEqual([twin.id, first.id]);
    expect((await getLead(company.id, first.id))!.data).toEqual({ tag: 'all' });
    const updatedOnly = await submitted(gateway, { query: { lead_token: token, caller_id: caller, update_only: '1', tag: 'again' } });
    expect(updatedOnly.id).toBe(twin.id);
  });

  it('expire_existing ends the live lead (lead_ended) and starts a new one; delete_existing deletes the old ones', async () => {
    const { company, token } = await offerSetup();
    const caller = newCaller();
    const first = await submitted(gateway, { query: { lead_token: token, caller_id: caller } });
    const second = await submitted(gateway, { query: { lead_token: token, caller_id: caller, expire_existing: 'on' } });
    expect(second.id).not.toBe(first.id);
    const old = await asCompany(gateway, company, 'GET', `/api/v1/leads/${first.id}`);
    expect(old.body.lead).toMatchObject({ status: 'expired', end_reason: 'expire_existing' });
    expect(await eventsOfLead(first.id)).toEqual(['new_lead', 'lead_ended']);

    const third = await submitted(gateway, { query: { lead_token: token, caller_id: caller, delete_existing: 'true' } });
    expect((await asCompany(gateway, company, 'GET', `/api/v1/leads/${first.id}`)).status).toBe(404);
    expect((await asCompany(gateway, company, 'GET', `/api/v1/leads/${second.uuid}`)).status).toBe(404);
    expect((await asCompany(gateway, company, 'GET', `/api/v1/leads/${third.id}`)).body.lead.status).toBe('active');
  });

  it('never updates an ended lead: a new one starts', async () => {
    const { company, token } = await offerSetup();
    const caller = newCaller();
    const first = await submitted(gateway, { query: { lead_token: token, caller_id: caller } });
    expect((await asCompany(gateway, company, 'PUT', `/api/v1/leads/${first.uuid}`, { status: 'completed' })).status).toBe(200);
    const next = await submitLead(gateway, { query: { lead_token: token, caller_id: caller, zip: '9' } });
    expect(next.body.created).toBe(true);
    expect(next.body.lead.id).not.toBe(first.id);
    expect((await asCompany(gateway, company, 'GET', `/api/v1/leads/${first.id}`)).body.lead.data).toEqual({});
  });
});

describe('POST /api/v1/leads: schedule leads', () => {
  async function scheduleSetup(fields: Record<string, unknown> = {}) {
    const company = await createTestCompany('leads-schedule');
    await receiveEvents(gateway, company, 'new_lead');
    const offer = await offerWithToken(gateway, company);
    const schedule = await createThrough(gateway, company, '/api/v1/schedules', { name: 'Follow-up', offer_id: offer.id, hours_to_expire: 48, max_contact_attempts: 3, time_zone: 'America/New_York', ...fields });
    return { company, offer, schedule, token: schedule.lead_token as string };
  }

  it('enters the schedule at its first action, due now, with a scheduler entry for its step version and the schedule defaults', async () => {
    const { company, offer, schedule, token } = await scheduleSetup();
    const now = clock().now();
    const lead = await submitted(gateway, { query: { lead_token: token, caller_id: newCaller(), first_name: 'Ed' } });
    expect(lead).toMatchObject({ schedule_id: schedule.id, offer_id: offer.id, phase: 'actions', action_index: 0, max_contact_attempts: 3, hours_to_expire: 48 });
    expect(Date.parse(lead.expires_at) - Date.parse(lead.created_at)).toBe(48 * 3600_000);
    const stored = (await getLead(company.id, lead.id))!;
    expect(await pendingOf(lead.id)).toEqual([{ version: stored.step_version, dueAt: new Date(stored.next_action_at!) }]);
    expect(Math.abs(Date.parse(lead.next_action_at) - now.getTime())).toBeLessThan(5000);
  });

  it('moves the step: restart_schedule and next_action_at bump the version, an earlier callback comes first, a later one waits', async () => {
    const { company, token } = await scheduleSetup();
    const caller = newCaller();
    const lead = await submitted(gateway, { query: { lead_token: token, caller_id: caller, next_action_at: '2099-01-01 10:00:00' } });
    // A time without an offset is read in the schedule's zone (New York, -05:00 in January).
    expect(lead.next_action_at).toBe('2099-01-01T15:00:00.000+00:00');
    const v1 = (await getLead(company.id, lead.id))!.step_version;

    const restarted = await submitted(gateway, { query: { lead_token: token, caller_id: caller, restart_schedule: '1' } });
    const v2 = (await getLead(company.id, lead.id))!.step_version;
    expect(restarted.id).toBe(lead.id);
    expect(v2).toBeGreaterThan(v1);
    expect(Date.parse(restarted.next_action_at)).toBeLessThan(Date.parse('2099-01-01T15:00:00Z'));

    const moved = await submitted(gateway, { json: { lead_token: token, caller_id: caller, next_action_at: '2098-06-01 12:00:00 +0000' } });
    const v3 = (await getLead(company.id, lead.id))!.step_version;
    expect(moved.next_action_at).toBe('2098-06-01T12:00:00.000+00:00');
    expect(v3).toBeGreaterThan(v2);
    expect((await pendingOf(lead.id)).map((entry) => entry.version)).toEqual(expect.arrayContaining([v1, v2, v3]));

    const later = await submitted(gateway, { json: { lead_token: token, caller_id: caller, schedule_callback_at: '2099-06-01 12:00:00 +0000' } });
    expect(later).toMatchObject({ callback_at: '2099-06-01T12:00:00.000+00:00', next_action_at: '2098-06-01T12:00:00.000+00:00' });
    const earlier = await submitted(gateway, { json: { lead_token: token, caller_id: caller, schedule_callback_in_seconds: 600 } });
    expect(Date.parse(earlier.next_action_at)).toBe(Date.parse(earlier.callback_at));
    expect((await getLead(company.id, lead.id))!.step_version).toBeGreaterThan(v3);
  });

  it('takes leads for a paused schedule too (the engine decides what a paused schedule runs)', async () => {
    const { token } = await scheduleSetup({ paused: true });
    const lead = await submitted(gateway, { query: { lead_token: token, caller_id: newCaller() } });
    expect(lead).toMatchObject({ status: 'active', phase: 'actions' });
    expect(await pendingOf(lead.id)).toHaveLength(1);
  });
});

describe('POST /api/v1/leads: blacklist and numbers', () => {
  it('blocked blacklists the caller and ends the lead; unblock_contact needs an auth_token of the same company', async () => {
    const { company, token } = await offerSetup();
    const caller = newCaller();
    const blocked = await submitted(gateway, { query: { lead_token: token, caller_id: caller, blocked: '1' } });
    expect(blocked).toMatchObject({ status: 'blocked', end_reason: 'blocked', next_action_at: null });
    expect(await eventsOfLead(blocked.id)).toEqual(['new_lead', 'lead_ended']);
    const listed = async () => (await asCompany(gateway, company, 'GET', '/api/v1/contacts/suppression_list?per_page=500')).body.contacts.map((row: any) => row.caller_id);
    expect(await listed()).toContain(caller);

    const withoutToken = await submitLead(gateway, { query: { lead_token: token, caller_id: caller, unblock_contact: '1' } });
    expect(withoutToken.status).toBe(422);
    expect(withoutToken.body.errors).toEqual({ auth_token: ['is required to unblock_contact'] });
    const other = await createTestUser((await createTestCompany('leads-other')).id);
    const foreign = await submitLead(gateway, { query: { lead_token: token, caller_id: caller, unblock_contact: '1', auth_token: other.authToken } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.success).toBe(false);
    expect(await listed()).toContain(caller);

    const user = await createTestUser(company.id);
    const unblocked = await submitLead(gateway, { query: { lead_token: token, caller_id: caller, unblock_contact: '1', auth_token: user.authToken } });
    expect(unblocked.status, unblocked.text).toBe(200);
    // The blocked lead stays ended; the unblocked caller gets a new lead.
    expect(unblocked.body.lead.id).not.toBe(blocked.id);
    expect(await listed()).not.toContain(caller);
    expect(unblocked.body.lead.data).not.toHaveProperty('auth_token');
  });

  it('assign_service_number answers a number of the offer held for the caller; 422 when the offer has none', async () => {
    const { company, offer, token } = await offerSetup();
    const none = await submitLead(gateway, { query: { lead_token: token, caller_id: newCaller(), assign_service_number: '1' } });
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual({ assign_service_number: ['the offer has no tracking number to assign'] });
    const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
    const reply = await submitLead(gateway, { query: { lead_token: token, caller_id: newCaller(), assign_service_number: '1', assign_sms_number: '1' } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ service_number_plain: number.number, trackdrive_number_plain: number.number, sms_number_plain: number.number });
    // The hosted service's own parameter name, which the reference neutralised (docs/compatibility.md).
    const original = await submitLead(gateway, { query: { lead_token: token, caller_id: newCaller(), assign_trackdrive_number: 'true' } });
    expect(original.body).toMatchObject({ service_number_plain: number.number, trackdrive_number_plain: number.number });
    expect(original.body.lead.data).not.toHaveProperty('assign_trackdrive_number');
    const noCaller = await submitLead(gateway, { query: { lead_token: token, email: `${randomUUID()}@example.com`, assign_service_number: '1' } });
    expect(noCaller.body.errors).toEqual({ assign_service_number: ['needs a caller_id'] });
  });
});
