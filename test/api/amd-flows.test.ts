import { describe, expect, it } from 'vitest';
import { getCall } from '../../shared/calls/call-store.js';
import { wavBase64, wavBytes } from '../fixtures/audio.js';
import { pinClock, usePinnedClock, midDayTomorrow } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect422, recordOf } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { enterSchedule, leadNow, runDueSteps, scheduleWith } from '../fixtures/schedules.js';
import { placedCalls, playOutboundCall } from '../fixtures/voice.js';

/**
 * Answering machine flows: CRUD with their rules, and an outbound call of a schedule's dial that a
 * machine answers getting its offer's flow (hang up, a message, a retry of the lead's dial later)
 * instead of a buyer, while a person still reaches the buyer.
 */
const gateway = useGateway();
const T0 = midDayTomorrow();
const MINUTE = 60_000;
const at = (ms: number) => new Date(T0.getTime() + ms);
// The pinned clock moves a millisecond per reading: steps made "now" are due just after T0.
const SOON = at(1000);
usePinnedClock(() => T0);

interface Setup {
  company: TestCompany;
  buyer: Record<string, any>;
  offer: Record<string, any>;
  schedule: Record<string, any>;
}

/** A buyer, an offer with a number, and a schedule that dials then waits a day (the lead stays active). */
async function setup(name: string): Promise<Setup> {
  const company = await createTestCompany(name);
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Closer', number: '+12125554001' });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Solar', buyer_ids: [buyer.id] });
  await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  const { schedule } = await scheduleWith(gateway, company, { offer_id: offer.id }, [{ action_type: 'dial' }, { action_type: 'wait', action_wait_type: 'days', wait_days: 1 }]);
  return { company, buyer, offer, schedule };
}

const flow = (s: Setup, json: Record<string, unknown>) => createThrough(gateway, s.company, '/api/v1/offer_amd_flows', { offer_id: s.offer.id, ...json });

/** A lead of the schedule, its dial run now: the call the service placed. */
async function dialedLead(s: Setup, now = SOON) {
  const lead = await enterSchedule(s.company.id, s.schedule, T0);
  const before = placedCalls().length;
  expect(await runDueSteps(s.company.id, now)).toContain('ran');
  expect(placedCalls().length).toBe(before + 1);
  return { lead, placed: placedCalls().at(-1)! };
}

async function callOf(s: Setup, carrierCallId: string): Promise<Record<string, any>> {
  const lead = placedCalls().find((entry) => entry.carrierCallId === carrierCallId)!;
  const reply = await call(gateway, { path: `/api/v1/calls?caller_number=${encodeURIComponent(lead.to)}`, authorization: s.company.authorization });
  expect(reply.status, reply.text).toBe(200);
  return (await getCall(s.company.id, reply.body.calls[0].id))!;
}

describe('offer_amd_flows records', () => {
  it('creates, shows, updates and deletes a flow, one per offer', async () => {
    const s = await setup('amd-crud');
    const made = await flow(s, { name: 'Voicemail', action: 'retry_later', retry_after_minutes: 30, max_retries: 2 });
    expect(made).toMatchObject({ name: 'Voicemail', offer_id: s.offer.id, action: 'retry_later', retry_after_minutes: 30, max_retries: 2, enabled: true, sound_file_id: null, message_text: null, type: 'OfferAmdFlow' });
    const second = await call(gateway, { method: 'POST', path: '/api/v1/offer_amd_flows', authorization: s.company.authorization, json: { offer_id: s.offer.id, action: 'hang_up' } });
    expect(second.status, second.text).toBe(409);
    expect(second.body.errors).toEqual({ offer_id: ['has already been taken'] });
    const updated = recordOf(await call(gateway, { method: 'PUT', path: `/api/v1/offer_amd_flows/${made.id}`, authorization: s.company.authorization, json: { action: 'leave_message', message_text: 'Call us back' } }), 'offer_amd_flow');
    expect(updated).toMatchObject({ action: 'leave_message', message_text: 'Call us back' });
    expect((await call(gateway, { method: 'DELETE', path: `/api/v1/offer_amd_flows/${made.id}`, authorization: s.company.authorization })).status).toBe(200);
    // The offer is free for a flow again.
    expect((await flow(s, { action: 'hang_up' })).action).toBe('hang_up');
  });

  it('refuses unknown actions, bounds, a message flow with nothing to say, and another company\'s offer or sound', async () => {
    const s = await setup('amd-refused');
    const other = await setup('amd-other');
    const theirSound = await createThrough(gateway, other.company, '/api/v1/sound_files', { name: 'Theirs', audio_base64: wavBase64(0.1) });
    const post = (json: Record<string, unknown>) => call(gateway, { method: 'POST', path: '/api/v1/offer_amd_flows', authorization: s.company.authorization, json: { offer_id: s.offer.id, ...json } });
    expect422(await post({ action: 'explode' }), { action: ['is not included in the list (hang_up, leave_message, retry_later)'] });
    expect422(await post({ action: 'retry_later', retry_after_minutes: 0, max_retries: 21 }), { retry_after_minutes: ['must be greater than or equal to 1'], max_retries: ['must be less than or equal to 20'] });
    expect422(await post({ action: 'leave_message' }), { message_text: ["can't be blank when action is leave_message and no sound_file_id is given"] });
    expect422(await post({ action: 'leave_message', sound_file_id: theirSound.id + 100 }), { sound_file_id: [`does not exist: ${theirSound.id + 100}`] });
    expect422(await post({ action: 'hang_up', offer_id: other.offer.id + 1000 }), { offer_id: [`does not exist: ${other.offer.id + 1000}`] });
  });
});

describe('a machine answering an outbound call', () => {
  it('places calls with machine detection only while the offer has an enabled flow', async () => {
    const s = await setup('amd-detect');
    const plain = await dialedLead(s);
    expect(plain.placed.machineDetection).toBeUndefined();
    const made = await flow(s, { action: 'hang_up' });
    expect((await dialedLead(s)).placed.machineDetection).toBe(true);
    await call(gateway, { method: 'PUT', path: `/api/v1/offer_amd_flows/${made.id}`, authorization: s.company.authorization, json: { enabled: false } });
    expect((await dialedLead(s)).placed.machineDetection).toBeUndefined();
  });

  it('hangs up on a machine without ringing a buyer; a person still reaches the buyer', async () => {
    const s = await setup('amd-hangup');
    await flow(s, { action: 'hang_up' });
    const machine = await dialedLead(s);
    const played = await playOutboundCall(gateway, machine.placed, true, undefined, 'machine_end_beep');
    expect(played.outcome).toBe('machine');
    expect(played.answer).toMatch(/<Response><Hangup\/><\/Response>$/);
    const ended = await callOf(s, machine.placed.carrierCallId);
    expect(ended).toMatchObject({ status: 'no_answer', in_progress: false, buyer_id: null, data: { answered_by: 'machine_end_beep' } });
    expect(ended.timeline.find((entry: any) => entry.type === 'answered_by_machine')).toMatchObject({ answered_by: 'machine_end_beep', action: 'hang_up' });

    const person = await dialedLead(s);
    const talked = await playOutboundCall(gateway, person.placed, true, undefined, 'human');
    expect(talked.outcome).toBe('completed');
    expect(talked.dialed).toEqual([s.buyer.number]);
  });

  it('leaves the flow\'s sound file (a URL serving it) or its text, then hangs up', async () => {
    const s = await setup('amd-message');
    const sound = await createThrough(gateway, s.company, '/api/v1/sound_files', { name: 'Voicemail', audio_base64: wavBase64(0.4) });
    const made = await flow(s, { action: 'leave_message', sound_file_id: sound.id, message_text: 'Please call us back.' });
    const bySound = await playOutboundCall(gateway, (await dialedLead(s)).placed, true, undefined, 'machine_end_silence');
    expect(bySound.outcome).toBe('machine');
    const url = /<Response><Play>([^<]+)<\/Play><Hangup\/><\/Response>$/.exec(bySound.answer!)![1]!;
    const audio = await fetch(`${gateway.baseUrl}${new URL(url).pathname}`);
    expect(audio.status).toBe(200);
    expect(Buffer.from(await audio.arrayBuffer()).equals(wavBytes(0.4))).toBe(true);

    await call(gateway, { method: 'PUT', path: `/api/v1/offer_amd_flows/${made.id}`, authorization: s.company.authorization, json: { sound_file_id: null } });
    const byText = await playOutboundCall(gateway, (await dialedLead(s)).placed, true, undefined, 'machine_end_beep');
    expect(byText.answer).toMatch(/<Response><Say>Please call us back\.<\/Say><Hangup\/><\/Response>$/);
  });

  it("hangs up and has the lead's schedule dial again after the flow's minutes, up to max_retries", async () => {
    const s = await setup('amd-retry');
    await flow(s, { action: 'retry_later', retry_after_minutes: 30, max_retries: 1 });
    const { lead, placed } = await dialedLead(s);
    const played = await playOutboundCall(gateway, placed, true, undefined, 'machine_start');
    expect(played.answer).toMatch(/<Response><Hangup\/><\/Response>$/);
    const retryAt = Date.parse((await callOf(s, placed.carrierCallId)).timeline.find((entry: any) => entry.type === 'answered_by_machine').callback_at);
    // The retry counts from the answer (the pinned clock, a few readings after T0).
    expect(retryAt - T0.getTime()).toBeGreaterThanOrEqual(30 * MINUTE);
    expect(retryAt - T0.getTime()).toBeLessThan(30 * MINUTE + 1000);
    const waiting = await leadNow(s.company.id, lead.id);
    expect(waiting).toMatchObject({ status: 'active', callback_at: new Date(retryAt).toISOString(), next_action_at: new Date(retryAt).toISOString() });
    expect((waiting as Record<string, unknown>).amd_retry_count).toBe(1);

    // Nothing is dialed before then; at the time, the lead's callback dials it again (with detection).
    const before = placedCalls().length;
    expect(await runDueSteps(s.company.id, new Date(retryAt - MINUTE))).toEqual([]);
    pinClock(new Date(retryAt));
    expect(await runDueSteps(s.company.id, new Date(retryAt))).toEqual(['ran']);
    expect(placedCalls().length).toBe(before + 1);
    const again = placedCalls().at(-1)!;
    expect(again).toMatchObject({ to: lead.caller_id, machineDetection: true });

    // A machine again: max_retries (1) is spent, so no further retry is scheduled.
    await playOutboundCall(gateway, again, true, undefined, 'machine_end_beep');
    const second = (await callOf(s, again.carrierCallId)).timeline.filter((entry: any) => entry.type === 'answered_by_machine').at(-1);
    expect(second).toMatchObject({ action: 'retry_later', retry_not_scheduled: 'max_retries_reached' });
    expect((await leadNow(s.company.id, lead.id)).callback_at).toBeNull();
  });
});
