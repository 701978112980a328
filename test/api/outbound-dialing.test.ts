import { describe, expect, it } from 'vitest';
import { getCall } from '../../shared/calls/call-store.js';
import { dialLead, NO_CONDITIONS, RETRY_AFTER_MS, type DialConditions } from '../../shared/leads/outbound-dial.js';
import { getLead } from '../../shared/leads/lead-store.js';
import type { LeadRecord } from '../../shared/leads/lead-record.js';
import { clock } from '../../shared/adapters/clock.js';
import { midDayTomorrow, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { storeLead } from '../fixtures/stored-leads.js';
import { callFields, carrierPost, newCallSid, placedCall, placedCalls, playOutboundCall, VOICE_BASE } from '../fixtures/voice.js';

const gateway = useGateway();
usePinnedClock(midDayTomorrow);

const LEAD_NUMBER = '+14155552671';

interface Setup {
  company: TestCompany;
  buyers: Record<string, any>[];
  offer: Record<string, any>;
  number: string;
  schedule: Record<string, any>;
}

async function setup(buyerFields: Record<string, unknown>[] = [{}], scheduleFields: Record<string, unknown> = {}): Promise<Setup> {
  const company = await createTestCompany('outbound');
  const buyers = [];
  for (const [index, fields] of buyerFields.entries()) {
    buyers.push(await createThrough(gateway, company, '/api/v1/buyers', { name: `B${index + 1}`, number: `+1212555${String(2000 + index)}`, tier: index, current_conversion_revenue: 20, ...fields }));
  }
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Solar', buyer_ids: buyers.map((buyer) => buyer.id) });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  const schedule = await createThrough(gateway, company, '/api/v1/schedules', { name: 'Follow-up', offer_id: offer.id, ...scheduleFields });
  return { company, buyers, offer, number: number.number as string, schedule };
}

function lead(s: Setup, fields: Partial<LeadRecord> = {}): Promise<LeadRecord> {
  return storeLead(s.company.id, clock().now(), { schedule_id: s.schedule.id, caller_id: LEAD_NUMBER, lead_token: s.schedule.lead_token, phase: 'actions', data: { first_name: 'Ada', state: 'CA' }, ...fields });
}

async function dialed(s: Setup, record: LeadRecord, conditions: Partial<DialConditions> = {}) {
  const result = await dialLead(s.company.id, record, { ...NO_CONDITIONS, ...conditions }, clock().now());
  if (!result.placed) throw new Error(`not placed: ${result.reason}`);
  const stored = (await getCall(s.company.id, result.callId))!;
  return { callId: result.callId, stored, placed: placedCall(String(stored.carrier_call_id)) };
}

describe('dialing a lead', () => {
  it('calls the lead from the offer\'s number and, once answered, connects a buyer through the normal call flow', async () => {
    const s = await setup();
    const record = await lead(s);
    const { callId, stored, placed } = await dialed(s, record, { scheduleActionId: 77 });
    expect(placed).toMatchObject({ to: LEAD_NUMBER, from: s.number, timeoutSeconds: 30 });
    expect(placed.answerUrl).toMatch(/\/api\/v1\/voice\/twilio\/outbound_answer$/);
    expect(placed.statusUrl).toMatch(/\/api\/v1\/voice\/twilio\/status$/);
    expect(stored).toMatchObject({ direction: 'outbound', status: 'dialing', in_progress: true, lead_id: record.id, schedule_id: s.schedule.id, schedule_action_id: 77, offer_id: s.offer.id, caller_number: LEAD_NUMBER, number: s.number });

    const result = await playOutboundCall(gateway, placed, true);
    expect(result.outcome).toBe('completed');
    expect(result.dialed).toEqual([s.buyers[0]!.number]);
    const shown = await call(gateway, { path: `/api/v1/calls/${callId}`, authorization: s.company.authorization });
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.call).toMatchObject({ direction: 'outbound', lead_id: record.id, status: 'completed', in_progress: false, buyer_id: s.buyers[0]!.id, data: { first_name: 'Ada', state: 'CA' } });
  });

  it('lets a buyer\'s token filter on a lead token decide who takes the call', async () => {
    const s = await setup([{ record_token_filter_list: ['state:NY'] }, {}]);
    const fromNy = await dialed(s, await lead(s, { data: { state: 'NY' } }));
    expect((await playOutboundCall(gateway, fromNy.placed, true)).dialed).toEqual([s.buyers[0]!.number]);
    const fromCa = await dialed(s, await lead(s, { data: { state: 'CA' } }));
    expect((await playOutboundCall(gateway, fromCa.placed, true)).dialed).toEqual([s.buyers[1]!.number]);
    const timeline = (await getCall(s.company.id, fromCa.callId))!.timeline as Array<Record<string, any>>;
    expect(timeline.find((entry) => entry.type === 'routing')?.excluded).toEqual([{ buyer_id: s.buyers[0]!.id, reason: 'token_filter:state:NY' }]);
  });

  it('ends the call when the lead does not answer or is busy, without ringing a buyer', async () => {
    const s = await setup();
    const silent = await dialed(s, await lead(s));
    expect((await playOutboundCall(gateway, silent.placed, 'no-answer')).outcome).toBe('unanswered');
    expect(await getCall(s.company.id, silent.callId)).toMatchObject({ status: 'no_answer', in_progress: false, buyer_id: null });
    const busy = await dialed(s, await lead(s));
    await playOutboundCall(gateway, busy.placed, 'busy');
    expect(await getCall(s.company.id, busy.callId)).toMatchObject({ status: 'busy', in_progress: false });
  });

  it('tells an answering lead nobody is available and hangs up when no buyer takes the call', async () => {
    const s = await setup([{ paused: true }]);
    const { callId, placed } = await dialed(s, await lead(s));
    const result = await playOutboundCall(gateway, placed, true);
    expect(result.outcome).toBe('no_buyer');
    expect(result.steps[0]!.response).toMatch(/<Say>Sorry, nobody is available[^<]*<\/Say><Hangup\/>/);
    expect(await getCall(s.company.id, callId)).toMatchObject({ status: 'no_buyer', in_progress: false });
  });

  it('answers a forged or unknown answer webhook neutrally', async () => {
    const unknown = await carrierPost(gateway, `${VOICE_BASE}/outbound_answer`, callFields(newCallSid(), '+14155550000', LEAD_NUMBER));
    expect(unknown.status).toBe(200);
    expect(unknown.text).toContain('<Hangup/>');
    const forged = await carrierPost(gateway, `${VOICE_BASE}/outbound_answer`, callFields(newCallSid(), '+14155550000', LEAD_NUMBER), 'bad-signature');
    expect(forged.status).toBe(403);
  });
});

describe('dial conditions', () => {
  const refused = async (s: Setup, record: LeadRecord, conditions: Partial<DialConditions>) => {
    const before = placedCalls().length;
    const at = clock().now();
    const result = await dialLead(s.company.id, record, { ...NO_CONDITIONS, ...conditions }, at);
    expect(placedCalls().length).toBe(before);
    if (result.placed) throw new Error('placed');
    return { ...result, at };
  };

  it('during_daylight_hours: not before 08:00 or from 21:00 in the lead\'s zone, retried at the next 08:00 there', async () => {
    const s = await setup([{}], { time_zone: 'UTC' });
    // 12:30:30 UTC is 21:30 in Tokyo (no daylight saving): too late; 08:00 there is 23:00 UTC.
    const result = await refused(s, await lead(s, { data: { time_zone: 'Asia/Tokyo' } }), { duringDaylightHours: true });
    expect(result.reason).toBe('outside_daylight_hours');
    expect(result.retryAt!.toISOString()).toBe(`${result.at.toISOString().slice(0, 10)}T23:00:00.000Z`);
    // A token that names no zone: the schedule's zone (UTC, mid-day) decides.
    expect((await dialLead(s.company.id, await lead(s, { data: { time_zone: 'Mars/Base' } }), { ...NO_CONDITIONS, duringDaylightHours: true }, clock().now())).placed).toBe(true);
  });

  it('when_buyer_available: not while every buyer is excluded, retried in a minute', async () => {
    const s = await setup([{ paused: true }]);
    const result = await refused(s, await lead(s), { whenBuyerAvailable: true });
    expect(result.reason).toBe('no_buyer_available');
    expect(result.retryAt!.getTime()).toBe(result.at.getTime() + RETRY_AFTER_MS);
  });

  it('when_buyer_would_convert: not when no available buyer would pay for the call', async () => {
    const s = await setup([{ current_conversion_revenue: null }]);
    const result = await refused(s, await lead(s), { whenBuyerWouldConvert: true, whenBuyerAvailable: true });
    expect(result.reason).toBe('no_buyer_would_convert');
    expect(result.retryAt!.getTime()).toBe(result.at.getTime() + RETRY_AFTER_MS);
    const paying = await setup([{ current_conversion_revenue: 30 }]);
    expect((await dialLead(paying.company.id, await lead(paying), { ...NO_CONDITIONS, whenBuyerWouldConvert: true }, clock().now())).placed).toBe(true);
  });

  it('calls_on_hold_limit and available_cc_percentage: not while the offer\'s calls wait or its buyers are full', async () => {
    const s = await setup([{ concurrency_cap_limit: 2 }]);
    // An inbound call ringing the buyer: waiting for a buyer, and one of two concurrent slots taken.
    const inbound = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(newCallSid(), '+14155559999', s.number), CallStatus: 'ringing' });
    expect(inbound.text).toContain('<Dial');
    const record = await lead(s);
    const onHold = await refused(s, record, { callsOnHoldLimit: 1 });
    expect(onHold.reason).toBe('calls_on_hold_limit');
    expect(onHold.retryAt!.getTime()).toBe(onHold.at.getTime() + RETRY_AFTER_MS);
    const full = await refused(s, record, { availableCcPercentage: 60 });
    expect(full.reason).toBe('available_cc_percentage');
    expect(full.retryAt!.getTime()).toBe(full.at.getTime() + RETRY_AFTER_MS);
    expect((await dialLead(s.company.id, record, { ...NO_CONDITIONS, callsOnHoldLimit: 2, availableCcPercentage: 50 }, clock().now())).placed).toBe(true);
  });

  it('refuses without a number to call, an offer, or a number to call from, and for a blacklisted lead', async () => {
    const s = await setup();
    expect(await refused(s, await lead(s, { caller_id: null, email: 'a@b.example' }), {})).toMatchObject({ reason: 'no_caller_id' });
    const noOffer = await createThrough(gateway, s.company, '/api/v1/schedules', { name: 'No offer' });
    expect(await refused(s, await lead(s, { schedule_id: noOffer.id }), {})).toMatchObject({ reason: 'no_offer' });
    const bare = await createThrough(gateway, s.company, '/api/v1/offers', { name: 'Bare' });
    const bareSchedule = await createThrough(gateway, s.company, '/api/v1/schedules', { name: 'Bare', offer_id: bare.id });
    expect(await refused(s, await lead(s, { schedule_id: bareSchedule.id }), {})).toMatchObject({ reason: 'no_number' });
    const blocked = await call(gateway, { method: 'POST', path: `/api/v1/contacts/${encodeURIComponent('+14155550123')}/caller_block`, authorization: s.company.authorization });
    expect(blocked.status, blocked.text).toBe(200);
    expect(await refused(s, await lead(s, { caller_id: '+14155550123' }), {})).toMatchObject({ reason: 'blacklisted' });
  });
});

describe('GET /api/v1/leads/:id/buyer_is_available', () => {
  it('answers whether a buyer would take the lead\'s call, with the reasons of the others, by id or uuid', async () => {
    const s = await setup([{}, { paused: true }, { record_token_filter_list: ['state:NY'] }]);
    const record = await lead(s);
    for (const id of [record.id, record.uuid]) {
      const reply = await call(gateway, { path: `/api/v1/leads/${id}/buyer_is_available`, authorization: s.company.authorization });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ status: 200, buyer_is_available: true, lead_id: record.id, buyers: [{ buyer_id: s.buyers[0]!.id, name: 'B1' }] });
      expect(reply.body.excluded).toEqual(
        expect.arrayContaining([
          { buyer_id: s.buyers[1]!.id, reason: 'paused' },
          { buyer_id: s.buyers[2]!.id, reason: 'token_filter:state:NY' },
        ]),
      );
    }
    // Nothing was claimed: the buyer's concurrency is untouched.
    const buyer = await call(gateway, { path: `/api/v1/buyers/${s.buyers[0]!.id}`, authorization: s.company.authorization });
    expect(buyer.body.buyer.current_concurrency ?? 0).toBe(0);
  });

  it('says no, with no_offer, for a lead whose schedule has no offer', async () => {
    const s = await setup();
    const noOffer = await createThrough(gateway, s.company, '/api/v1/schedules', { name: 'No offer' });
    const reply = await call(gateway, { path: `/api/v1/leads/${(await lead(s, { schedule_id: noOffer.id })).id}/buyer_is_available`, authorization: s.company.authorization });
    expect(reply.body).toMatchObject({ buyer_is_available: false, buyers: [], excluded: [], reason: 'no_offer' });
  });

  it('does not find another company\'s lead, or an unknown one', async () => {
    const s = await setup();
    const other = await createTestCompany('outbound-other');
    const record = await lead(s);
    for (const path of [`/api/v1/leads/${record.id}/buyer_is_available`, `/api/v1/leads/${record.uuid}/buyer_is_available`]) {
      expect((await call(gateway, { path, authorization: other.authorization })).status).toBe(404);
    }
    expect((await call(gateway, { path: '/api/v1/leads/123/buyer_is_available', authorization: s.company.authorization })).status).toBe(404);
  });
});

describe('POST /api/v1/schedules/make_call', () => {
  it('calls a lead now, adds the call to the lead, and the call goes on like any dial', async () => {
    const s = await setup();
    const record = await lead(s);
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/schedules/make_call', authorization: s.company.authorization, json: { schedule_id: s.schedule.id, lead_id: record.uuid } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.call).toMatchObject({ direction: 'outbound', status: 'dialing', in_progress: true, lead_id: record.id, caller_number: LEAD_NUMBER, number: s.number, data: record.data });
    expect((await getLead(s.company.id, record.id))!.call_ids).toEqual([reply.body.call.id]);
    const stored = (await getCall(s.company.id, reply.body.call.id))!;
    expect((await playOutboundCall(gateway, placedCall(String(stored.carrier_call_id)), true)).outcome).toBe('completed');
  });

  it('calls a bare caller_id without creating a lead', async () => {
    const s = await setup();
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/schedules/make_call', authorization: s.company.authorization, form: `schedule_id=${s.schedule.id}&caller_id=${encodeURIComponent('(415) 555-2672')}` });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.call).toMatchObject({ direction: 'outbound', lead_id: null, caller_number: '+14155552672', data: {} });
  });

  it('refuses with 422 a schedule without an offer or number, and bad or missing parameters; 404 for another company\'s lead', async () => {
    const s = await setup();
    const post = (json: Record<string, unknown>, company = s.company) => call(gateway, { method: 'POST', path: '/api/v1/schedules/make_call', authorization: company.authorization, json });
    const noOffer = await createThrough(gateway, s.company, '/api/v1/schedules', { name: 'No offer' });
    const bare = await createThrough(gateway, s.company, '/api/v1/offers', { name: 'Bare' });
    const noNumber = await createThrough(gateway, s.company, '/api/v1/schedules', { name: 'No number', offer_id: bare.id });
    const before = placedCalls().length;
    for (const [json, field] of [
      [{ schedule_id: noOffer.id, caller_id: LEAD_NUMBER }, 'schedule_id'],
      [{ schedule_id: noNumber.id, caller_id: LEAD_NUMBER }, 'schedule_id'],
      [{ schedule_id: s.schedule.id }, 'lead_id'],
      [{ schedule_id: s.schedule.id, caller_id: 'not a number' }, 'caller_id'],
      [{ caller_id: LEAD_NUMBER }, 'schedule_id'],
    ] as const) {
      const reply = await post(json);
      expect(reply.status, reply.text).toBe(422);
      expect(Object.keys(reply.body.errors)).toContain(field);
    }
    const other = await setup();
    const theirs = await lead(other);
    expect((await post({ schedule_id: s.schedule.id, lead_id: theirs.id })).status).toBe(404);
    expect((await post({ schedule_id: 999_999, caller_id: LEAD_NUMBER })).status).toBe(422);
    expect(placedCalls().length).toBe(before);
  });
});
