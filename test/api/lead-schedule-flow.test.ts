import { describe, expect, it } from 'vitest';
import { TableScheduler } from '../../shared/adapters/local/table-scheduler.js';
import { setSchedulerPort } from '../../shared/adapters/scheduler.js';
import { getCall } from '../../shared/calls/call-store.js';
import { startLocalRunner } from '../../shared/leads/local-runner.js';
import { runLeadStep } from '../../shared/leads/step-runner.js';
import { midDayTomorrow, pinClock, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { deliverQueued, useReceiver } from '../fixtures/events.js';
import { call, useGateway, type TestGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { runDueSteps, scheduleWebhook, scheduleWith, testScheduler } from '../fixtures/schedules.js';
import { placedCall, placedCalls, playOutboundCall } from '../fixtures/voice.js';

/**
 * The whole lead path as a user runs it, on a pinned clock: a landing-page form submits a lead
 * (query string only, no credentials), the schedule dials it through the telephony port, the
 * answered call is routed to a buyer by its tokens, the lead waits two hours in the scheduler,
 * is dialed again, and its end-of-schedule webhook reaches the receiver.
 */
process.env.WEBHOOK_ALLOWED_CIDRS = '127.0.0.0/8';

const gateway = useGateway();
const receiver = useReceiver();
const T0 = midDayTomorrow();
const HOUR = 3_600_000;
const at = (ms: number) => new Date(T0.getTime() + ms);
// The pinned clock moves a millisecond per reading: steps made "now" are due just after T0.
const SOON = at(1000);
usePinnedClock(() => T0);

const LEAD = '+14155552671';

interface Flow {
  company: TestCompany;
  buyers: Record<string, any>[];
  schedule: Record<string, any>;
}

/** Two buyers (one only for Texas leads), an offer with a number, a dial -> wait 2 h -> dial schedule ending in a webhook. */
async function dialWaitDialSchedule(): Promise<Flow> {
  const company = await createTestCompany('lead-flow');
  const texas = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Texas', number: '+12125553001', tier: 0, record_token_filter_list: ['state:TX'] });
  const anyone = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Anyone', number: '+12125553002', tier: 1 });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Solar', buyer_ids: [texas.id, anyone.id] });
  await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  const end = await scheduleWebhook(gateway, company, `${receiver.url}?lead={{lead_id}}`, '{"first_name":"{{first_name}}","state":"{{state}}"}');
  const { schedule } = await scheduleWith(gateway, company, { offer_id: offer.id }, [
    { action_type: 'dial' },
    { action_type: 'wait', action_wait_type: 'hours', wait_hours: 2 },
    { action_type: 'dial' },
  ]);
  await createThrough(gateway, company, '/api/v1/schedule_actions', { schedule_id: schedule.id, owner_relation: 'end_of_schedule_actions', action_type: 'webhook', outgoing_webhook_id: end.id });
  return { company, buyers: [texas, anyone], schedule };
}

/** A landing-page form: every field in the query string, no body, no Basic auth. */
async function submitForm(g: TestGateway, fields: Record<string, string>): Promise<Record<string, any>> {
  const reply = await call(g, { method: 'POST', path: `/api/v1/leads?${new URLSearchParams(fields)}` });
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body.success).toBe(true);
  return reply.body.lead;
}

async function lead(flow: Flow, id: number): Promise<Record<string, any>> {
  const reply = await call(gateway, { path: `/api/v1/leads/${id}`, authorization: flow.company.authorization });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.lead;
}

describe('a schedule lead from form to end of schedule', () => {
  it('dials, waits 2 hours on the scheduler, dials again, runs the end-of-schedule webhook and ends', async () => {
    const flow = await dialWaitDialSchedule();
    const submitted = await submitForm(gateway, { lead_token: flow.schedule.lead_token, caller_id: '(415) 555-2671', first_name: 'Ada', state: 'TX' });
    expect(submitted).toMatchObject({ caller_id: LEAD, status: 'active', schedule_id: flow.schedule.id, data: { first_name: 'Ada', state: 'TX' } });

    // Its first step is due now: the first dial places a call to the lead.
    const placedBefore = placedCalls().length;
    expect(await runDueSteps(flow.company.id, SOON)).toEqual(['ran']);
    expect(placedCalls().length).toBe(placedBefore + 1);
    const first = placedCalls().at(-1)!;
    expect(first.to).toBe(LEAD);
    // The lead answers; its `state` token routes it to the Texas buyer, who talks for 90 s.
    const played = await playOutboundCall(gateway, first, true);
    expect(played.dialed).toEqual([flow.buyers[0]!.number]);
    let shown = await lead(flow, submitted.id);
    expect(shown).toMatchObject({ status: 'active', contact_attempts: 1 });
    expect(shown.call_ids).toHaveLength(1);
    expect(await getCall(flow.company.id, shown.call_ids[0])).toMatchObject({ direction: 'outbound', lead_id: submitted.id, status: 'completed', buyer_id: flow.buyers[0]!.id, data: { first_name: 'Ada', state: 'TX' } });

    // Now it waits two hours: nothing runs a minute before, the second dial runs at the time.
    // (Waits count from when the step ran.)
    expect(Date.parse(shown.next_action_at)).toBe(SOON.getTime() + 2 * HOUR);
    expect(await runDueSteps(flow.company.id, at(1000 + 2 * HOUR - 60_000))).toEqual([]);
    pinClock(at(1000 + 2 * HOUR));
    expect(await runDueSteps(flow.company.id, at(1000 + 2 * HOUR))).toEqual(['ran']);
    expect(placedCalls().length).toBe(placedBefore + 2);
    // This time the lead does not answer: no buyer rings.
    expect((await playOutboundCall(gateway, placedCalls().at(-1)!, 'no-answer')).dialed).toEqual([]);

    // The main actions are done, so the end-of-schedule webhook ran and the lead ended.
    shown = await lead(flow, submitted.id);
    expect(shown).toMatchObject({ status: 'completed', contact_attempts: 2, next_action_at: null });
    expect(shown.call_ids).toHaveLength(2);
    await deliverQueued();
    const hooks = receiver.received.filter((request) => request.url.includes(`lead=${submitted.id}`));
    expect(hooks).toHaveLength(1);
    expect(JSON.parse(hooks[0]!.body)).toEqual({ first_name: 'Ada', state: 'TX' });
    // Nothing is left to run for it.
    expect((await testScheduler().pending()).filter((due) => due.entry.leadId === submitted.id)).toEqual([]);
  });

  it('runs a stale or duplicated Scheduler fire as nothing: each dial happens once', async () => {
    const flow = await dialWaitDialSchedule();
    const submitted = await submitForm(gateway, { lead_token: flow.schedule.lead_token, caller_id: LEAD, state: 'CA' });
    const [due] = (await testScheduler().due(SOON)).filter((entry) => entry.entry.leadId === submitted.id);
    const placedBefore = placedCalls().length;
    // The same fire delivered twice: the second finds the step claimed.
    expect(await runLeadStep(due!.entry, SOON)).toBe('ran');
    expect(await runLeadStep(due!.entry, SOON)).toBe('stale');
    expect(placedCalls().length).toBe(placedBefore + 1);
    // A fire for a version the lead has moved past (restarted by a new submission) does nothing.
    await submitForm(gateway, { lead_token: flow.schedule.lead_token, caller_id: LEAD, restart_schedule: 'true' });
    expect(await runLeadStep(due!.entry, SOON)).toBe('stale');
    expect(placedCalls().length).toBe(placedBefore + 1);
    await testScheduler().remove(due!);
  });

  it('stops a waiting lead that opts out or whose caller is blacklisted', async () => {
    const flow = await dialWaitDialSchedule();
    const optOut = await submitForm(gateway, { lead_token: flow.schedule.lead_token, caller_id: LEAD });
    const blocked = await submitForm(gateway, { lead_token: flow.schedule.lead_token, caller_id: '+14155552672' });
    await runDueSteps(flow.company.id, SOON);
    await playOutboundCall(gateway, placedCalls().at(-1)!, 'no-answer');
    await playOutboundCall(gateway, placedCalls().at(-2)!, 'no-answer');
    const opted = await call(gateway, { method: 'PUT', path: `/api/v1/leads/${encodeURIComponent(LEAD)}/caller_opt_out?lead_token=${flow.schedule.lead_token}` });
    expect(opted.status, opted.text).toBe(200);
    const block = await call(gateway, { method: 'POST', path: '/api/v1/contacts/+14155552672/caller_block', authorization: flow.company.authorization });
    expect(block.status, block.text).toBe(200);

    const placedBefore = placedCalls().length;
    pinClock(at(2 * HOUR + 1000));
    await runDueSteps(flow.company.id, at(2 * HOUR + 1000));
    expect(placedCalls().length).toBe(placedBefore);
    expect(await lead(flow, optOut.id)).toMatchObject({ status: 'opted_out', next_action_at: null });
    // The blacklisted caller is never dialed again (the dial refuses it and the lead does not call out).
    expect(placedCalls().slice(placedBefore).map((placed) => placed.to)).not.toContain('+14155552672');
    expect((await lead(flow, blocked.id)).contact_attempts).toBe(1);
  });

  it('runs the waiting lead after the local runner restarts mid-wait', async () => {
    const flow = await dialWaitDialSchedule();
    const submitted = await submitForm(gateway, { lead_token: flow.schedule.lead_token, caller_id: LEAD });
    // A scheduler of this test's own, as `npm start` has one of its own: the runner is the real loop.
    const scheduler = new TableScheduler(`restart-${submitted.id}`);
    setSchedulerPort(scheduler);
    try {
      await call(gateway, { method: 'POST', path: `/api/v1/leads?${new URLSearchParams({ lead_token: flow.schedule.lead_token, caller_id: LEAD, restart_schedule: 'true' })}` });
      const placedBefore = placedCalls().length;
      let runner = startLocalRunner(scheduler);
      await runner.pass();
      expect(placedCalls().length).toBe(placedBefore + 1);
      await playOutboundCall(gateway, placedCalls().at(-1)!, 'no-answer');
      // Stopped mid-wait (the service went down); time passes; a new runner starts.
      await runner.stop();
      pinClock(at(3 * HOUR));
      runner = startLocalRunner(scheduler);
      await runner.pass();
      await runner.stop();
      expect(placedCalls().length).toBe(placedBefore + 2);
      expect(placedCall(placedCalls().at(-1)!.carrierCallId).to).toBe(LEAD);
      expect(await scheduler.pending()).toEqual([]);
    } finally {
      setSchedulerPort();
    }
  });
});
