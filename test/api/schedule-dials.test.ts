import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DialConditions, LeadDialResult } from '../../shared/leads/outbound-dial.js';
import { midDayTomorrow, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough, listThrough } from '../fixtures/records.js';
import { enterSchedule, leadNow, runDueSteps, scheduleWith } from '../fixtures/schedules.js';

/**
 * The engine's dial handling with outbound dialing mocked (it is built on another branch): what
 * the runner does with a placed call, a call to retry later and a call not placed, how dials count
 * toward max_contact_attempts, and callbacks.
 */
const dials = vi.hoisted(() => ({ results: [] as Array<LeadDialResult | Error>, seen: [] as Array<{ leadId: number; conditions: DialConditions }> }));
vi.mock('../../shared/leads/outbound-dial.js', () => ({
  dialLead: async (_companyId: number, lead: { id: number }, conditions: DialConditions): Promise<LeadDialResult> => {
    dials.seen.push({ leadId: lead.id, conditions });
    const result = dials.results.shift() ?? { placed: false, reason: 'no result queued by the test' };
    if (result instanceof Error) throw result;
    return result;
  },
  buyerAvailability: async () => ({ available: false, buyers: [], excluded: [] }),
}));

const gateway = useGateway();
let company: TestCompany;
const T0 = midDayTomorrow();
const later = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 3_600_000;
usePinnedClock(() => T0);

beforeEach(async () => {
  company = await createTestCompany('schedule-dials');
  dials.results.length = 0;
  dials.seen.length = 0;
});

describe('dial actions', () => {
  it('counts a placed call, records its id and goes on; passes the action’s conditions', async () => {
    const { schedule, actions } = await scheduleWith(gateway, company, {}, [
      { action_type: 'dial', when_buyer_available: true, during_daylight_hours: 'yes', calls_on_hold_limit: 2, available_cc_percentage: 40 },
      { action_type: 'wait', action_wait_type: 'hours', wait_hours: 2 },
    ]);
    const lead = await enterSchedule(company.id, schedule, T0);
    dials.results.push({ placed: true, callId: 77 });
    await runDueSteps(company.id, T0);
    expect(dials.seen).toEqual([
      { leadId: lead.id, conditions: { scheduleActionId: actions[0]!.id, whenBuyerAvailable: true, whenBuyerWouldConvert: false, callsOnHoldLimit: 2, availableCcPercentage: 40, duringDaylightHours: true } },
    ]);
    expect(await leadNow(company.id, lead.id)).toMatchObject({ contact_attempts: 1, call_ids: [77], action_index: 2, next_action_at: later(2 * HOUR).toISOString() });
  });

  it('waits at the dial until its retry time (later by lead_priority), then dials again', async () => {
    const { schedule, actions } = await scheduleWith(gateway, company, {}, [{ action_type: 'dial' }, { action_type: 'wait', action_wait_type: 'hours', wait_hours: 1 }]);
    const lead = await enterSchedule(company.id, schedule, T0, { lead_priority: 20 });
    dials.results.push({ placed: false, reason: 'no buyer available', retryAt: later(10 * 60_000) });
    await runDueSteps(company.id, T0);
    expect(await leadNow(company.id, lead.id)).toMatchObject({ contact_attempts: 0, action_index: 0, current_action_id: actions[0]!.id, next_action_at: later(10 * 60_000 + 20_000).toISOString() });
    dials.results.push({ placed: true, callId: 5 });
    await runDueSteps(company.id, later(10 * 60_000 + 20_000));
    expect(dials.seen).toHaveLength(2);
    expect(await leadNow(company.id, lead.id)).toMatchObject({ contact_attempts: 1, call_ids: [5], action_index: 2 });
  });

  it('skips a dial that is not placed and has no retry time', async () => {
    const { schedule } = await scheduleWith(gateway, company, {}, [{ action_type: 'dial' }, { action_type: 'lead_alteration', record_token_additional_list: 'after:dial' }]);
    const lead = await enterSchedule(company.id, schedule, T0);
    dials.results.push({ placed: false, reason: 'caller is blacklisted' });
    await runDueSteps(company.id, T0);
    expect(await leadNow(company.id, lead.id)).toMatchObject({ contact_attempts: 0, call_ids: [], status: 'completed', data: { after: 'dial' } });
  });

  it('tries a dial that failed with an error again five minutes later', async () => {
    const { schedule } = await scheduleWith(gateway, company, {}, [{ action_type: 'dial' }]);
    const lead = await enterSchedule(company.id, schedule, T0);
    dials.results.push(new Error('carrier unreachable'));
    await runDueSteps(company.id, T0);
    expect(await leadNow(company.id, lead.id)).toMatchObject({ status: 'active', action_index: 0, contact_attempts: 0, next_action_at: later(5 * 60_000).toISOString() });
    dials.results.push({ placed: true, callId: 4 });
    await runDueSteps(company.id, later(5 * 60_000));
    expect(await leadNow(company.id, lead.id)).toMatchObject({ status: 'completed', call_ids: [4], contact_attempts: 1 });
  });

  it('ends the main phase at max_contact_attempts and runs the end-of-schedule actions', async () => {
    const { schedule } = await scheduleWith(gateway, company, { max_contact_attempts: 2 }, [
      { action_type: 'dial' },
      { action_type: 'wait', action_wait_type: 'minutes', wait_minutes: 30 },
      { action_type: 'dial' },
      { action_type: 'wait', action_wait_type: 'minutes', wait_minutes: 30 },
      { action_type: 'dial' },
    ]);
    await createThrough(gateway, company, '/api/v1/schedule_actions', { schedule_id: schedule.id, owner_relation: 'end_of_schedule_actions', action_type: 'lead_alteration', record_token_additional_list: 'ended:yes' });
    const lead = await enterSchedule(company.id, schedule, T0);
    dials.results.push({ placed: true, callId: 1 }, { placed: true, callId: 2 }, { placed: true, callId: 3 });
    await runDueSteps(company.id, T0);
    await runDueSteps(company.id, later(30 * 60_000));
    expect(dials.seen).toHaveLength(2);
    expect(await leadNow(company.id, lead.id)).toMatchObject({ contact_attempts: 2, call_ids: [1, 2], status: 'completed', end_reason: 'max_contact_attempts', data: { ended: 'yes' } });
  });

  it('dials a scheduled callback at its time, then resumes the wait it cut short', async () => {
    const { schedule } = await scheduleWith(gateway, company, {}, [
      { action_type: 'wait', action_wait_type: 'hours', wait_hours: 5 },
      { action_type: 'lead_alteration', record_token_additional_list: 'after:wait' },
    ]);
    const lead = await enterSchedule(company.id, schedule, T0);
    await runDueSteps(company.id, T0);
    const created = await call(gateway, { method: 'POST', path: '/api/v1/scheduled_callbacks', authorization: company.authorization, json: { lead_id: lead.id, callback_in_seconds: 3600 } });
    expect(created.status, created.text).toBe(200);
    expect(created.body.scheduled_callback).toMatchObject({ lead_id: lead.id, schedule_id: schedule.id, caller_id: lead.caller_id });
    expect(await leadNow(company.id, lead.id)).toMatchObject({ callback_at: expect.any(String), next_action_at: expect.any(String) });
    const pending = await leadNow(company.id, lead.id);
    expect(Math.abs(Date.parse(pending.next_action_at!) - later(HOUR).getTime())).toBeLessThan(1000);
    expect(await listThrough(gateway, company, `/api/v1/scheduled_callbacks?lead_id=${lead.id}`, 'scheduled_callbacks')).toHaveLength(1);

    dials.results.push({ placed: true, callId: 9 });
    await runDueSteps(company.id, later(HOUR + 1000));
    expect(dials.seen).toEqual([{ leadId: lead.id, conditions: expect.objectContaining({ scheduleActionId: null }) }]);
    expect(await leadNow(company.id, lead.id)).toMatchObject({ callback_at: null, contact_attempts: 1, call_ids: [9], next_action_at: later(5 * HOUR).toISOString(), status: 'active' });
    await runDueSteps(company.id, later(5 * HOUR));
    expect(await leadNow(company.id, lead.id)).toMatchObject({ status: 'completed', data: { after: 'wait' } });
  });

  it('refuses a callback for a lead that is not an active schedule lead of the company', async () => {
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/scheduled_callbacks', authorization: company.authorization, json: { lead_id: 123, callback_in_seconds: 60 } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ lead_id: ['does not exist: 123'] });
    const { schedule } = await scheduleWith(gateway, company, {}, []);
    const lead = await enterSchedule(company.id, schedule, T0);
    const other = await createTestCompany('schedule-dials-other');
    const foreign = await call(gateway, { method: 'POST', path: '/api/v1/scheduled_callbacks', authorization: other.authorization, json: { lead_id: lead.id, callback_in_seconds: 60 } });
    expect(foreign.body.errors).toEqual({ lead_id: [`does not exist: ${lead.id}`] });
    const blank = await call(gateway, { method: 'POST', path: '/api/v1/scheduled_callbacks', authorization: company.authorization, json: { lead_id: lead.id } });
    expect(blank.body.errors).toEqual({ callback_at: ["can't be blank (or give callback_in_seconds)"] });
  });
});
