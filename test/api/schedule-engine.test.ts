import { DateTime } from 'luxon';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { telephonyPort } from '../../shared/adapters/index.js';
import type { CallControlRecorder } from '../../shared/adapters/local/call-control-recorder.js';
import { FileObjectStorage } from '../../shared/adapters/local/file-object-storage.js';
import { setObjectStorage } from '../../shared/adapters/object-storage.js';
import { isBlacklisted } from '../../shared/contacts/blacklist.js';
import { clearStep } from '../../shared/leads/lead-steps.js';
import { leadsOfContact, transitionLead } from '../../shared/leads/lead-store.js';
import { runLeadStep } from '../../shared/leads/step-runner.js';
import { midDayTomorrow, nextOffsetChange, pinClock, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { deliverQueued, useReceiver } from '../fixtures/events.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough, listThrough } from '../fixtures/records.js';
import { enterSchedule, leadNow, runDueSteps, scheduleWebhook, scheduleWith, testScheduler, updateSchedule } from '../fixtures/schedules.js';

/**
 * The schedule engine on a pinned clock: leads enter a schedule made through the API, the test
 * file's table scheduler is run at chosen instants, and what the actions did is read back from the
 * lead, the webhook receiver, the telephony recorder and the API.
 */
process.env.WEBHOOK_ALLOWED_CIDRS = '127.0.0.0/8';

const gateway = useGateway();
const receiver = useReceiver();
let company: TestCompany;
const T0 = midDayTomorrow();
const later = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 3_600_000;
usePinnedClock(() => T0);

beforeEach(async () => {
  company = await createTestCompany('schedule-engine');
  receiver.received.length = 0;
});

async function hooksFor(label: string): Promise<Record<string, any>> {
  return scheduleWebhook(gateway, company, `${receiver.url}?step=${label}&lead={{lead_id}}`, '{"step":"' + label + '","zip":"{{zip}}"}');
}

function steps(): string[] {
  return receiver.received.map((request) => new URL(request.url, 'http://x').searchParams.get('step')!);
}

async function endWebhook(scheduleId: number, webhookId: number): Promise<void> {
  await createThrough(gateway, company, '/api/v1/schedule_actions', { schedule_id: scheduleId, owner_relation: 'end_of_schedule_actions', action_type: 'webhook', outgoing_webhook_id: webhookId });
}

describe('running a schedule', () => {
  it('waits 2 hours, fires the webhook, then the end-of-schedule webhook, and ends the lead', async () => {
    const main = await hooksFor('main');
    const end = await hooksFor('end');
    const { schedule, actions } = await scheduleWith(gateway, company, {}, [
      { action_type: 'wait', action_wait_type: 'hours', wait_hours: 2 },
      { action_type: 'webhook', outgoing_webhook_id: main.id },
    ]);
    await endWebhook(schedule.id, end.id);
    const lead = await enterSchedule(company.id, schedule, T0, { data: { zip: '10001' } });

    expect(await runDueSteps(company.id, T0)).toEqual(['ran']);
    const waiting = await leadNow(company.id, lead.id);
    expect(waiting).toMatchObject({ status: 'active', phase: 'actions', action_index: 1, current_action_id: actions[1]!.id, next_action_at: later(2 * HOUR).toISOString() });
    // The waiting lead is counted at the action it waits for.
    const shown = await call(gateway, { path: `/api/v1/schedule_actions/${actions[1]!.id}`, authorization: company.authorization });
    expect(shown.body.action_webhook).toMatchObject({ has_queued_leads: true, queued_leads_count: 1 });

    expect(await runDueSteps(company.id, later(2 * HOUR - 1000))).toEqual([]);
    await deliverQueued();
    expect(receiver.received).toEqual([]);

    pinClock(later(2 * HOUR));
    expect(await runDueSteps(company.id, later(2 * HOUR))).toEqual(['ran']);
    await deliverQueued();
    // Deliveries run in parallel: their order is not the actions' order.
    expect(steps().sort()).toEqual(['end', 'main']);
    const mainRequest = receiver.received.find((request) => request.url.includes('step=main'))!;
    expect(JSON.parse(mainRequest.body)).toEqual({ step: 'main', zip: '10001' });
    expect(new URL(mainRequest.url, 'http://x').searchParams.get('lead')).toBe(String(lead.id));
    expect(await leadNow(company.id, lead.id)).toMatchObject({ status: 'completed', end_reason: 'schedule_finished', phase: null, next_action_at: null, ended_at: later(2 * HOUR).toISOString() });
    expect((await testScheduler().pending()).filter((due) => due.entry.companyId === company.id)).toEqual([]);
  });

  it('runs a fire once: a duplicated fire and a fire for a stale version do nothing', async () => {
    const main = await hooksFor('main');
    const { schedule } = await scheduleWith(gateway, company, {}, [{ action_type: 'webhook', outgoing_webhook_id: main.id }, { action_type: 'wait', action_wait_type: 'minutes', wait_minutes: 5 }]);
    const lead = await enterSchedule(company.id, schedule, T0);
    const entry = { companyId: company.id, leadId: lead.id, version: lead.step_version };
    expect(await runLeadStep(entry, T0)).toBe('ran');
    expect(await runLeadStep(entry, T0)).toBe('stale');
    expect(await runLeadStep({ ...entry, version: 0 }, T0)).toBe('stale');
    expect(await runLeadStep({ ...entry, leadId: lead.id + 1 }, T0)).toBe('missing');
    await deliverQueued();
    expect(steps()).toEqual(['main']);
  });

  it('stops a waiting lead that opted out: its pending fire finds it stale', async () => {
    const main = await hooksFor('main');
    const { schedule } = await scheduleWith(gateway, company, {}, [{ action_type: 'wait', action_wait_type: 'hours', wait_hours: 2 }, { action_type: 'webhook', outgoing_webhook_id: main.id }]);
    const lead = await enterSchedule(company.id, schedule, T0);
    await runDueSteps(company.id, T0);
    // As the leads API's opt-out does.
    await transitionLead(company.id, lead.id, (current) => {
      current.status = 'opted_out';
      clearStep(company.id, current);
      return { result: undefined, save: true, events: ['lead_opted_out'] };
    });
    expect(await runDueSteps(company.id, later(2 * HOUR))).toEqual(['stale']);
    await deliverQueued();
    expect(receiver.received).toEqual([]);
    expect(await leadNow(company.id, lead.id)).toMatchObject({ status: 'opted_out', next_action_at: null });
  });

  it('ends a lead at hours_to_expire, on time, into its end-of-schedule actions', async () => {
    const main = await hooksFor('main');
    const end = await hooksFor('end');
    const { schedule } = await scheduleWith(gateway, company, { hours_to_expire: 1 }, [{ action_type: 'wait', action_wait_type: 'hours', wait_hours: 2 }, { action_type: 'webhook', outgoing_webhook_id: main.id }]);
    await endWebhook(schedule.id, end.id);
    const lead = await enterSchedule(company.id, schedule, T0);
    await runDueSteps(company.id, T0);
    expect((await leadNow(company.id, lead.id)).next_action_at).toBe(later(HOUR).toISOString());
    expect(await runDueSteps(company.id, later(HOUR))).toEqual(['ran']);
    await deliverQueued();
    expect(steps()).toEqual(['end']);
    expect(await leadNow(company.id, lead.id)).toMatchObject({ status: 'expired', end_reason: 'expired', phase: null });
  });

  it('waits until a day of week, hour and minute in the action’s zone across a daylight-saving change', async () => {
    const zone = 'America/New_York';
    const change = nextOffsetChange(zone, 'forward');
    // The Friday before the change at 15:00, waiting until Monday 09:15 (after the change).
    const friday = change.day.minus({ days: (change.day.weekday + 2) % 7 || 7 }).set({ hour: 15 });
    const start = friday.toJSDate();
    const monday = friday.plus({ days: 3 }).set({ hour: 9, minute: 15 });
    pinClock(start);
    const end = await hooksFor('end');
    const { schedule } = await scheduleWith(gateway, company, {}, [
      { action_type: 'wait', action_wait_type: 'until_time', wait_until_day_of_week: 'monday', wait_until_hour: 9, wait_until_minute: 15, wait_until_time_zone: zone },
    ]);
    await endWebhook(schedule.id, end.id);
    const lead = await enterSchedule(company.id, schedule, start);
    await runDueSteps(company.id, start);
    const waiting = await leadNow(company.id, lead.id);
    expect(waiting.next_action_at).toBe(monday.toUTC().toISO());
    expect(DateTime.fromISO(waiting.next_action_at!, { zone }).offset).toBe(change.after);
    expect(await runDueSteps(company.id, new Date(monday.toMillis() - 1000))).toEqual([]);
    expect(await runDueSteps(company.id, monday.toJSDate())).toEqual(['ran']);
    expect((await leadNow(company.id, lead.id)).status).toBe('completed');
  });

  it('branches on a choice and alters the lead’s data with its tokens', async () => {
    const { schedule } = await scheduleWith(gateway, company, {}, [
      { action_type: 'choice', record_token_filter_list: 'tier:gold', choice_action_type: 'next_action', sub_action: 'skip_next_action' },
      { action_type: 'lead_alteration', record_token_additional_list: 'lane:vip,greeting:Hi {{first_name}}' },
      { action_type: 'lead_alteration', record_token_additional_list: 'seen:yes' },
      { action_type: 'choice', record_token_filter_list: 'lane:vip', choice_action_type: 'end_lead', sub_action: 'next_action' },
      { action_type: 'lead_alteration', record_token_additional_list: 'standard:yes' },
    ]);
    const gold = await enterSchedule(company.id, schedule, T0, { data: { tier: 'gold', first_name: 'Ann' } });
    const silver = await enterSchedule(company.id, schedule, T0, { data: { tier: 'silver' } });
    await runDueSteps(company.id, T0);
    expect((await leadNow(company.id, gold.id)).data).toEqual({ tier: 'gold', first_name: 'Ann', lane: 'vip', greeting: 'Hi Ann', seen: 'yes' });
    expect(await leadNow(company.id, gold.id)).toMatchObject({ status: 'completed', end_reason: 'choice' });
    expect((await leadNow(company.id, silver.id)).data).toEqual({ tier: 'silver', seen: 'yes', standard: 'yes' });
  });

  it('adds the lead to another schedule as a new lead with the same contact and data, once', async () => {
    const second = await scheduleWith(gateway, company, {}, [{ action_type: 'wait', action_wait_type: 'days', wait_days: 1 }]);
    const { schedule } = await scheduleWith(gateway, company, {}, [
      { action_type: 'add_to_schedule', add_to_schedule_id: second.schedule.id },
      { action_type: 'add_to_schedule', add_to_schedule_id: second.schedule.id },
    ]);
    const lead = await enterSchedule(company.id, schedule, T0, { data: { zip: '94107' } });
    await runDueSteps(company.id, T0);
    const inSecond = await leadsOfContact(company.id, lead.caller_id!, { kind: 'schedule', id: second.schedule.id });
    expect(inSecond).toHaveLength(1);
    expect(inSecond[0]).toMatchObject({ caller_id: lead.caller_id, data: { zip: '94107' }, lead_token: second.schedule.lead_token, status: 'active', phase: 'actions', action_index: 1 });
    expect(inSecond[0]!.next_action_at).toBe(later(24 * HOUR).toISOString());
    expect((await leadNow(company.id, lead.id)).status).toBe('completed');
  });

  it('blocks: the caller is blacklisted and the lead ends blocked', async () => {
    const { schedule } = await scheduleWith(gateway, company, {}, [{ action_type: 'lead_block' }, { action_type: 'wait', action_wait_type: 'hours', wait_hours: 1 }]);
    const lead = await enterSchedule(company.id, schedule, T0);
    await runDueSteps(company.id, T0);
    expect(await leadNow(company.id, lead.id)).toMatchObject({ status: 'blocked', end_reason: 'lead_block', next_action_at: null });
    expect(await isBlacklisted(company.id, lead.caller_id!)).toBe(true);
  });

  it('holds the leads of a paused schedule and runs them once it is resumed', async () => {
    const { schedule } = await scheduleWith(gateway, company, { paused: true }, [{ action_type: 'lead_opt_out' }]);
    const lead = await enterSchedule(company.id, schedule, T0);
    await runDueSteps(company.id, T0);
    expect(await leadNow(company.id, lead.id)).toMatchObject({ status: 'active', next_action_at: later(15 * 60_000).toISOString() });
    await updateSchedule(gateway, company, schedule.id, { paused: false });
    await runDueSteps(company.id, later(15 * 60_000));
    expect(await leadNow(company.id, lead.id)).toMatchObject({ status: 'opted_out', end_reason: 'lead_opt_out' });
  });

  it('ends a schedule of restarts in bounded steps instead of looping', async () => {
    const { schedule } = await scheduleWith(gateway, company, { hours_to_expire: 1 }, [{ action_type: 'lead_alteration', record_token_additional_list: 'x:1' }, { action_type: 'restart_schedule' }]);
    const lead = await enterSchedule(company.id, schedule, T0);
    expect(await runDueSteps(company.id, T0)).toEqual(['ran']);
    expect((await leadNow(company.id, lead.id)).next_action_at).toBe(later(60_000).toISOString());
    await runDueSteps(company.id, later(HOUR));
    expect((await leadNow(company.id, lead.id)).status).toBe('expired');
  });

  it('texts the lead from the offer’s tracking number and e-mails it, with its tokens; texts count as contact attempts', async () => {
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Solar' });
    const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
    const { schedule } = await scheduleWith(gateway, company, { offer_id: offer.id, max_contact_attempts: 1 }, [
      { action_type: 'lead_alteration', record_token_additional_list: 'seen:yes', sms_body: 'Hi {{first_name}}', email_title: 'Quote for {{zip}}', email_body: 'Hello {{first_name}}' },
      { action_type: 'lead_alteration', record_token_additional_list: 'second:yes' },
    ]);
    const lead = await enterSchedule(company.id, schedule, T0, { email: 'ann@example.com', data: { first_name: 'Ann', zip: '10001' } });
    await runDueSteps(company.id, T0);
    const texts = (telephonyPort() as CallControlRecorder).texts.filter((text) => text.to === lead.caller_id);
    expect(texts).toEqual([expect.objectContaining({ to: lead.caller_id, from: number.number, body: 'Hi Ann' })]);
    // One contact attempt of one allowed: the main phase ends before the second action.
    expect(await leadNow(company.id, lead.id)).toMatchObject({ contact_attempts: 1, status: 'completed', end_reason: 'max_contact_attempts', data: { seen: 'yes' } });
    const { EmailOutbox } = await import('../../shared/adapters/local/email-outbox.js');
    const { emailPort } = await import('../../shared/adapters/index.js');
    await deliverQueued();
    const sent = (emailPort() as InstanceType<typeof EmailOutbox>).sent.filter((mail) => mail.to === 'ann@example.com');
    expect(sent).toEqual([expect.objectContaining({ kind: 'schedule_action', subject: 'Quote for 10001', text: 'Hello Ann' })]);
  });

  it('uploads the lead as JSON to object storage', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'objects-'));
    setObjectStorage(new FileObjectStorage(folder));
    try {
      const { schedule, actions } = await scheduleWith(gateway, company, {}, [{ action_type: 'object_storage_upload', object_storage_key_prefix: 'exports' }]);
      const lead = await enterSchedule(company.id, schedule, T0, { data: { zip: '10001' } });
      await runDueSteps(company.id, T0);
      const dir = join(folder, 'exports', String(company.id), lead.uuid);
      const [file] = readdirSync(dir);
      expect(file).toBe(`${actions[0]!.id}-2.json`);
      expect(JSON.parse(readFileSync(join(dir, file!), 'utf8'))).toMatchObject({ id: lead.id, uuid: lead.uuid, data: { zip: '10001' }, type: 'Lead' });
    } finally {
      setObjectStorage();
    }
  });
});

describe('moving leads between schedules', () => {
  it('retargets the matching waiting leads into another schedule and logs what it did', async () => {
    const source = await scheduleWith(gateway, company, {}, [{ action_type: 'wait', action_wait_type: 'days', wait_days: 3 }]);
    const target = await scheduleWith(gateway, company, {}, [{ action_type: 'lead_alteration', record_token_additional_list: 'retargeted:yes' }]);
    const hot = await enterSchedule(company.id, source.schedule, T0, { data: { temp: 'hot' } });
    const cold = await enterSchedule(company.id, source.schedule, T0, { data: { temp: 'cold' } });
    await runDueSteps(company.id, T0);

    const retarget = await createThrough(gateway, company, '/api/v1/lead_retargets', { source_schedule_id: source.schedule.id, target_schedule_id: target.schedule.id, record_token_filter_list: 'temp:hot' });
    expect(retarget).toMatchObject({ retarget_type: 'move', scanned_count: 2, retargeted_count: 1, skipped_count: 0, has_more: false });
    const moved = await leadNow(company.id, hot.id);
    expect(moved).toMatchObject({ schedule_id: target.schedule.id, lead_token: target.schedule.lead_token, phase: 'actions', action_index: 0 });
    // Due at once (the request's now: the pinned clock moves a millisecond per reading).
    expect(Date.parse(moved.next_action_at!) - T0.getTime()).toBeLessThan(1000);
    expect((await leadNow(company.id, cold.id)).schedule_id).toBe(source.schedule.id);

    const logs = await listThrough(gateway, company, `/api/v1/lead_retarget_logs?lead_retarget_id=${retarget.id}`, 'lead_retarget_logs');
    expect(logs).toEqual([expect.objectContaining({ lead_retarget_id: retarget.id, lead_id: hot.id, outcome: 'moved', source_schedule_id: source.schedule.id, target_schedule_id: target.schedule.id, new_lead_id: null })]);

    await runDueSteps(company.id, later(1000));
    expect(await leadNow(company.id, hot.id)).toMatchObject({ status: 'completed', data: { temp: 'hot', retargeted: 'yes' } });

    const copied = await createThrough(gateway, company, '/api/v1/lead_retargets', { source_schedule_id: source.schedule.id, target_schedule_id: target.schedule.id, retarget_type: 'copy' });
    expect(copied).toMatchObject({ retargeted_count: 1, skipped_count: 0 });
    const copies = await listThrough(gateway, company, `/api/v1/lead_retarget_logs?lead_retarget_id=${copied.id}`, 'lead_retarget_logs');
    expect(copies).toEqual([expect.objectContaining({ lead_id: cold.id, outcome: 'copied', new_lead_id: expect.any(Number) })]);
    expect((await leadNow(company.id, cold.id)).schedule_id).toBe(source.schedule.id);
  });

  it('refuses a retarget into its own source schedule', async () => {
    const source = await scheduleWith(gateway, company, {}, []);
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/lead_retargets', authorization: company.authorization, json: { source_schedule_id: source.schedule.id, target_schedule_id: source.schedule.id } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ target_schedule_id: ['must be another schedule than source_schedule_id'] });
  });

  it('starts a new lead in a trigger’s schedule when a lead ends matching its filter', async () => {
    const next = await scheduleWith(gateway, company, {}, [{ action_type: 'wait', action_wait_type: 'hours', wait_hours: 1 }]);
    const { schedule } = await scheduleWith(gateway, company, {}, [{ action_type: 'lead_alteration', record_token_additional_list: 'done:yes' }]);
    await createThrough(gateway, company, '/api/v1/schedule_triggers', { schedule_id: next.schedule.id, source_schedule_id: schedule.id, record_token_filter_list: 'status:completed,vip:yes' });
    const vip = await enterSchedule(company.id, schedule, T0, { data: { vip: 'yes' } });
    const plain = await enterSchedule(company.id, schedule, T0);
    await runDueSteps(company.id, T0);
    expect(await leadsOfContact(company.id, vip.caller_id!, { kind: 'schedule', id: next.schedule.id })).toHaveLength(1);
    expect(await leadsOfContact(company.id, plain.caller_id!, { kind: 'schedule', id: next.schedule.id })).toHaveLength(0);
  });

  it('splits a schedule’s new leads by its distributions’ weights', async () => {
    const elsewhere = await scheduleWith(gateway, company, {}, [{ action_type: 'lead_alteration', record_token_additional_list: 'went:elsewhere' }]);
    const { schedule } = await scheduleWith(gateway, company, {}, [{ action_type: 'lead_alteration', record_token_additional_list: 'went:home' }]);
    await createThrough(gateway, company, '/api/v1/schedule_distributions', { schedule_id: schedule.id, target_schedule_id: elsewhere.schedule.id, weight: 1 });
    await createThrough(gateway, company, '/api/v1/schedule_distributions', { schedule_id: schedule.id, target_schedule_id: schedule.id, weight: 1 });
    const leads = await Promise.all(Array.from({ length: 8 }, () => enterSchedule(company.id, schedule, T0)));
    await runDueSteps(company.id, T0);
    const outcomes = await Promise.all(leads.map((lead) => leadNow(company.id, lead.id)));
    for (const [index, lead] of outcomes.entries()) {
      // Weight 1 + 1: the first row (elsewhere) takes the leads whose id is even.
      const elsewhereExpected = leads[index]!.id % 2 === 0;
      expect(lead).toMatchObject(elsewhereExpected ? { schedule_id: elsewhere.schedule.id, data: { went: 'elsewhere' } } : { schedule_id: schedule.id, data: { went: 'home' } });
    }
  });
});

afterAll(() => setObjectStorage());
