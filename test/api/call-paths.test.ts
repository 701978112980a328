import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { findCallByCarrierId, getCall } from '../../shared/calls/call-store.js';
import { db, tableName } from '../../shared/db/client.js';
import { keys } from '../../shared/db/keys.js';
import { adjustCall } from '../../shared/calls/call-flow.js';
import { simulateCall, type BuyerBehaviour, type SimulationResult } from '../../shared/local/call-simulator.js';
import { reserveNumber } from '../../shared/routing/reservations.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough, receiveEvents } from '../fixtures/records.js';
import { callFields, carrierPost, dialOf, eventsOfCall, newCallSid, offerWithBuyers, showBuyer, VOICE_BASE, VOICE_TOKEN } from '../fixtures/voice.js';
import { clock } from '../../shared/adapters/clock.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';

const gateway = useGateway();
// Counters, caps, rollups and charges are per hour and UTC day: pinned mid-day, mid-minute so the
// file passes at any hour.
usePinnedClockForAll(midDayTomorrow);

const CALLER = '+14155552671';
const OTHER_CALLER = '+14155552672';
const buyerNumber = (index: number) => `+1212555${String(1000 + index)}`;

const ANSWER = (talk: number): BuyerBehaviour => ({ answer: true, answerAfter: 3, talk });
const NO_ANSWER: BuyerBehaviour = { answer: false, answerAfter: 30, talk: 0 };

interface Setup {
  company: TestCompany;
  buyers: Array<Record<string, any>>;
  offer: Record<string, any>;
  number: string;
}

/** A company with buyers (tier = position, so the first is tried first), an offer and one number. */
async function setup(buyerFields: Array<Record<string, unknown>>, numberFields: Record<string, unknown> = {}, company?: TestCompany): Promise<Setup> {
  const owner = company ?? (await createTestCompany('paths'));
  if (!company) await receiveEvents(gateway, owner);
  return { company: owner, ...(await offerWithBuyers(gateway, owner, buyerFields, { buyerNumber, offerName: `Offer ${randomUUID().slice(0, 6)}`, numberFields })) };
}

const simulate = (to: string, buyers: BuyerBehaviour[], from = CALLER) =>
  simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from, to, buyers, callSid: newCallSid() });

async function stored(company: TestCompany, result: SimulationResult): Promise<Record<string, any>> {
  expect(result.callId, 'the simulator saw a call id').toBeDefined();
  const found = await getCall(company.id, result.callId!);
  expect(found).toBeDefined();
  return found as Record<string, any>;
}

/** The call's id from its first answer when no buyer was dialed (reject / hangup carry none). */
async function callOfSid(company: TestCompany, callSid: string): Promise<Record<string, any>> {
  const found = await findCallByCarrierId('twilio', callSid);
  expect(found?.companyId).toBe(company.id);
  return found!.call as Record<string, any>;
}

function timelineOf(callRecord: Record<string, any>, type: string): Array<Record<string, any>> {
  return (callRecord.timeline as Array<Record<string, any>>).filter((entry) => entry.type === type);
}

describe('buyer conversion', () => {
  it('converts a call answered for the conversion duration and counts it for the buyer', async () => {
    const { company, buyers, number } = await setup([{ current_conversion_revenue: 40, current_conversion_duration: 60, current_conversion_name: 'Qualified' }]);
    const result = await simulate(number, [ANSWER(75)]);
    expect(result.outcome).toBe('completed');
    expect(result.dialed).toEqual([buyerNumber(0)]);
    expect(await stored(company, result)).toMatchObject({
      status: 'completed',
      in_progress: false,
      buyer_id: buyers[0]!.id,
      converted_buyer_id: buyers[0]!.id,
      buyer_converted: true,
      conversion_name: 'Qualified',
      revenue: 40,
      buyer_revenue: 40,
      payout: 0,
      profit: 40,
      answered_duration: 75,
      total_duration: 78,
    });
    expect(await showBuyer(gateway, company, buyers[0]!.id)).toMatchObject({
      attempt_daily_used: 1,
      connection_daily_used: 1,
      buyer_conversion_daily_used: 1,
      revenue_daily_used: 40,
      concurrency_cap_used: 0,
    });
    expect(await eventsOfCall(result.callId!)).toEqual(['new_call', 'call_ringing', 'call_forwarded', 'call_ended']);
  });

  it('does not convert a call shorter than the conversion duration', async () => {
    const { company, buyers, number } = await setup([{ current_conversion_revenue: 40, current_conversion_duration: 60 }]);
    const result = await simulate(number, [ANSWER(59)]);
    const callRecord = await stored(company, result);
    expect(callRecord).toMatchObject({ status: 'completed', buyer_id: buyers[0]!.id, buyer_converted: false, revenue: 0, answered_duration: 59 });
    expect(timelineOf(callRecord, 'buyer_conversion')).toMatchObject([{ buyer_id: buyers[0]!.id, converted: false, reason: 'too_short' }]);
    expect(await showBuyer(gateway, company, buyers[0]!.id)).toMatchObject({ connection_daily_used: 1, buyer_conversion_daily_used: 0, revenue_daily_used: 0 });
  });

  it('does not pay twice for a caller within the duplicate timeframe, pays another caller, and pays again after it', async () => {
    const { company, buyers, number } = await setup([{ current_conversion_revenue: 25, current_conversion_duration: 30, current_conversion_duplicate_timeframe: 3600 }]);
    const first = await stored(company, await simulate(number, [ANSWER(45)]));
    expect(first).toMatchObject({ buyer_converted: true, revenue: 25 });

    const repeat = await stored(company, await simulate(number, [ANSWER(45)]));
    expect(repeat).toMatchObject({ status: 'completed', buyer_converted: false, revenue: 0 });
    expect(timelineOf(repeat, 'buyer_conversion')).toMatchObject([{ converted: false, reason: 'duplicate' }]);

    const other = await stored(company, await simulate(number, [ANSWER(45)], OTHER_CALLER));
    expect(other).toMatchObject({ buyer_converted: true, revenue: 25 });

    // The timeframe is measured from the last payment for this caller: move it an hour and a second back.
    const paid = keys.lastConversion(company.id, `b${String(buyers[0]!.id)}`, CALLER);
    await db.send(new PutCommand({ TableName: tableName, Item: { ...paid, paid_at: new Date(clock().now().getTime() - 3601_000).toISOString() } }));
    const later = await stored(company, await simulate(number, [ANSWER(45)]));
    expect(later).toMatchObject({ buyer_converted: true, revenue: 25 });
    expect(await showBuyer(gateway, company, buyers[0]!.id)).toMatchObject({ attempt_daily_used: 4, buyer_conversion_daily_used: 3, revenue_daily_used: 75 });
  });

  it('converts on dial when the conversion duration is 0, even when the buyer never answers', async () => {
    const { company, buyers, number } = await setup([{ current_conversion_revenue: 15, current_conversion_duration: 0 }]);
    const result = await simulate(number, [NO_ANSWER]);
    expect(result.outcome).toBe('no_answer');
    const callRecord = await stored(company, result);
    expect(callRecord).toMatchObject({ status: 'no_answer', buyer_converted: true, converted_buyer_id: buyers[0]!.id, revenue: 15, answered_duration: 0 });
    expect(timelineOf(callRecord, 'buyer_conversion')).toMatchObject([{ buyer_id: buyers[0]!.id, converted: true, revenue: 15 }]);
    expect(await showBuyer(gateway, company, buyers[0]!.id)).toMatchObject({ connection_daily_used: 0, buyer_conversion_daily_used: 1, revenue_daily_used: 15, concurrency_cap_used: 0 });
  });
});

describe('routing', () => {
  it('falls through an unanswered buyer to the next one, counting each and freeing both', async () => {
    const { company, buyers, number } = await setup([{}, {}]);
    const result = await simulate(number, [NO_ANSWER, ANSWER(30)]);
    expect(result.outcome).toBe('completed');
    expect(result.dialed).toEqual([buyerNumber(0), buyerNumber(1)]);
    const callRecord = await stored(company, result);
    expect(callRecord).toMatchObject({ status: 'completed', buyer_id: buyers[1]!.id, answered_duration: 30 });
    expect(callRecord.attempts.map((attempt: any) => [attempt.buyer_id, attempt.status])).toEqual([
      [buyers[0]!.id, 'no-answer'],
      [buyers[1]!.id, 'completed'],
    ]);
    expect(await showBuyer(gateway, company, buyers[0]!.id)).toMatchObject({ attempt_daily_used: 1, connection_daily_used: 0, concurrency_cap_used: 0 });
    expect(await showBuyer(gateway, company, buyers[1]!.id)).toMatchObject({ attempt_daily_used: 1, connection_daily_used: 1, concurrency_cap_used: 0 });
  });

  it('ends as no_answer when no buyer answers', async () => {
    // (A buyer without a conversion duration converts on dial: these convert after a minute.)
    const { company, number } = await setup([{ current_conversion_duration: 60 }, { current_conversion_duration: 60 }]);
    const result = await simulate(number, [NO_ANSWER]);
    expect(result.outcome).toBe('no_answer');
    expect(result.dialed).toEqual([buyerNumber(0), buyerNumber(1)]);
    expect(await stored(company, result)).toMatchObject({ status: 'no_answer', in_progress: false, answered_duration: 0, buyer_converted: false });
  });

  it('hangs up with no_buyer when every buyer is capped, naming each cap', async () => {
    const { company, buyers, number } = await setup([{ attempt_daily_limit: 0 }, { concurrency_cap_limit: 1 }]);
    // A first call holds the second buyer's only concurrent call (it rings and is never ended here).
    const heldSid = newCallSid();
    const held = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(heldSid, OTHER_CALLER, number), CallStatus: 'ringing' });
    expect(dialOf(held.text)?.target).toBe(buyerNumber(1));
    expect(await showBuyer(gateway, company, buyers[1]!.id)).toMatchObject({ concurrency_cap_used: 1, maxed_out_by: 'concurrency_cap_limit' });

    const result = await simulate(number, [ANSWER(30)]);
    expect(result.outcome).toBe('no_buyer');
    expect(result.dialed).toEqual([]);
    expect(result.steps[0]!.response).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>');
    const callRecord = await callOfSid(company, result.callSid);
    expect(callRecord).toMatchObject({ status: 'no_buyer', in_progress: false, buyer_id: null, attempts: [] });
    expect(timelineOf(callRecord, 'routing')[0]!.excluded).toEqual(
      expect.arrayContaining([
        { buyer_id: buyers[0]!.id, reason: 'attempt_daily_limit' },
        { buyer_id: buyers[1]!.id, reason: 'concurrency_cap_limit' },
      ]),
    );

    // When the held call ends, its concurrent call is given back.
    await carrierPost(gateway, `${VOICE_BASE}/status`, { ...callFields(heldSid, OTHER_CALLER, number), CallStatus: 'completed', CallDuration: '20' });
    expect(await showBuyer(gateway, company, buyers[1]!.id)).toMatchObject({ concurrency_cap_used: 0, attempt_daily_used: 1 });
    expect(await showBuyer(gateway, company, buyers[0]!.id)).toMatchObject({ attempt_daily_used: 0 });
  });

  it('rejects a blacklisted caller without dialing anyone', async () => {
    const { company, buyers, number } = await setup([{}]);
    const blocked = await call(gateway, { method: 'POST', path: `/api/v1/contacts/${encodeURIComponent(CALLER)}/caller_block`, authorization: company.authorization });
    expect(blocked.status, blocked.text).toBe(200);
    const result = await simulate(number, [ANSWER(30)]);
    expect(result.outcome).toBe('rejected');
    expect(result.dialed).toEqual([]);
    expect(result.steps[0]!.response).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Reject reason="rejected"/></Response>');
    const callRecord = await callOfSid(company, result.callSid);
    expect(callRecord).toMatchObject({ status: 'blocked', in_progress: false, buyer_id: null, caller_number: CALLER });
    expect(await eventsOfCall(callRecord.id)).toEqual(['new_call', 'call_ended']);
    expect(await showBuyer(gateway, company, buyers[0]!.id)).toMatchObject({ attempt_daily_used: 0, concurrency_cap_used: 0 });
    // Another caller still gets through.
    expect((await simulate(number, [ANSWER(30)], OTHER_CALLER)).outcome).toBe('completed');
  });
});

describe('ping/post reservations', () => {
  async function withWebhook() {
    const base = await setup([{ current_conversion_revenue: 10 }, { current_conversion_revenue: 12 }]);
    const webhook = await createThrough(gateway, base.company, '/api/v1/inbound_webhooks', { vanity_uri: `paths-${randomUUID().slice(0, 8)}`, offer_id: base.offer.id });
    return { ...base, webhook };
  }

  it('sends the posted caller\'s call to the reserved buyer only, with the ping\'s tokens', async () => {
    const { company, buyers, webhook } = await withWebhook();
    const pinged = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${webhook.vanity_uri}?caller_id=${encodeURIComponent(CALLER)}&state=CA` });
    expect(pinged.status, pinged.text).toBe(200);
    const chosen = pinged.body.buyers.find((buyer: any) => buyer.buyer_id === buyers[1]!.id);
    const posted = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/post/${webhook.vanity_uri}`, json: { ping_id: chosen.ping_id, caller_id: CALLER } });
    expect(posted.status, posted.text).toBe(200);

    // The reserved buyer does not answer: the call is not offered to the offer's other buyer.
    const result = await simulate(posted.body.phone_number, [NO_ANSWER]);
    expect(result.dialed).toEqual([buyerNumber(1)]);
    const callRecord = await stored(company, result);
    expect(callRecord).toMatchObject({ status: 'no_answer', ping_id: String(chosen.ping_id), data: { state: 'CA' } });

    // The reservation is the posted caller's: anyone else calling that number is routed by the offer.
    const other = await simulate(posted.body.phone_number, [ANSWER(20)], OTHER_CALLER);
    expect(other.dialed).toEqual([buyerNumber(0)]);
    const otherRecord = await stored(company, other);
    expect(otherRecord.ping_id).toBeNull();
    expect(otherRecord.data).toEqual({});
  });

  it('ignores a reservation past reserved_until and routes by the offer', async () => {
    const { company, buyers, offer, number, webhook } = await withWebhook();
    await reserveNumber(company.id, {
      number,
      caller: CALLER,
      buyer_ids: [buyers[1]!.id],
      tokens: { state: 'CA' },
      ping_id: 'expired-ping',
      inbound_webhook_id: webhook.id,
      offer_id: offer.id,
      traffic_source_id: null,
      reserved_until: new Date(clock().now().getTime() - 1000).toISOString(),
    });
    const result = await simulate(number, [ANSWER(20)]);
    expect(result.dialed).toEqual([buyerNumber(0)]);
    const callRecord = await stored(company, result);
    expect(callRecord).toMatchObject({ status: 'completed', buyer_id: buyers[0]!.id, ping_id: null });
    expect(callRecord.data).toEqual({});
  });
});

describe('traffic source payouts', () => {
  async function withPayout(rule: Record<string, unknown>) {
    const company = await createTestCompany('payouts');
    const source = await createThrough(gateway, company, '/api/v1/traffic_sources', { name: 'Search ads' });
    const base = await setup([{ current_conversion_revenue: 40, current_conversion_duration: 60 }], { traffic_source_id: source.id }, company);
    const payout = await createThrough(gateway, company, '/api/v1/offer_conversions', { name: 'Paid call', offer_id: base.offer.id, duration: 30, duplicate_timeframe: 0, ...rule });
    return { ...base, source, payout };
  }

  it('pays a fixed usd amount, with profit = revenue - payout', async () => {
    const { company, source, payout, number } = await withPayout({ payout_type: 'usd', payout: 7.5 });
    const result = await simulate(number, [ANSWER(90)]);
    expect(await stored(company, result)).toMatchObject({
      traffic_source_id: source.id,
      traffic_source: 'Search ads',
      buyer_converted: true,
      revenue: 40,
      offer_converted: true,
      offer_conversion_id: payout.id,
      payout: 7.5,
      traffic_source_payout: 7.5,
      profit: 32.5,
    });
    // Too short for the payout rule: nothing paid, and too short for the buyer: no revenue.
    const short = await stored(company, await simulate(number, [ANSWER(20)], OTHER_CALLER));
    expect(short).toMatchObject({ offer_converted: false, payout: 0, buyer_converted: false, revenue: 0, profit: 0 });
  });

  it('pays a percentage of the buyer revenue (buyer_conversion_percent)', async () => {
    const { company, number } = await withPayout({ payout_type: 'buyer_conversion_percent', revenue_percentage: 25 });
    const paid = await stored(company, await simulate(number, [ANSWER(90)]));
    expect(paid).toMatchObject({ revenue: 40, offer_converted: true, payout: 10, traffic_source_payout: 10, profit: 30 });
    // Long enough for the payout (30 s) but not for the buyer (60 s): 25 % of nothing.
    const unconverted = await stored(company, await simulate(number, [ANSWER(45)], OTHER_CALLER));
    expect(unconverted).toMatchObject({ buyer_converted: false, revenue: 0, offer_converted: true, payout: 0, profit: 0 });
  });

  it('does not pay a caller twice by the same rule within its duplicate_timeframe, and pays again after it', async () => {
    // "Seconds during which a repeat is not paid again" (API reference, offer conversions). A second,
    // lower-priority rule without a timeframe shows the repeat is refused by that rule alone.
    const { company, offer, number, payout } = await withPayout({ payout_type: 'usd', payout: 7.5, duplicate_timeframe: 3600, sortable_order: 1 });
    const fallback = await createThrough(gateway, company, '/api/v1/offer_conversions', { name: 'Repeat call', offer_id: offer.id, duration: 30, duplicate_timeframe: 0, payout_type: 'usd', payout: 2, sortable_order: 2 });

    const first = await stored(company, await simulate(number, [ANSWER(90)]));
    expect(first).toMatchObject({ offer_converted: true, offer_conversion_id: payout.id, payout: 7.5 });

    const repeat = await stored(company, await simulate(number, [ANSWER(90)]));
    expect(repeat).toMatchObject({ offer_converted: true, offer_conversion_id: fallback.id, payout: 2, traffic_source_payout: 2 });

    // Another caller is not a repeat.
    const other = await stored(company, await simulate(number, [ANSWER(90)], OTHER_CALLER));
    expect(other).toMatchObject({ offer_conversion_id: payout.id, payout: 7.5 });

    // The timeframe runs from this caller's last payment by the rule: move it an hour and a second back.
    const paid = keys.lastConversion(company.id, `oc${String(payout.id)}`, CALLER);
    await db.send(new PutCommand({ TableName: tableName, Item: { ...paid, paid_at: new Date(Date.now() - 3601_000).toISOString() } }));
    const later = await stored(company, await simulate(number, [ANSWER(90)]));
    expect(later).toMatchObject({ offer_converted: true, offer_conversion_id: payout.id, payout: 7.5 });
  });

  it('pays nothing for a repeat inside the timeframe when the offer has no other rule', async () => {
    const { company, number, payout } = await withPayout({ payout_type: 'usd', payout: 5, duplicate_timeframe: 600 });
    expect(await stored(company, await simulate(number, [ANSWER(90)]))).toMatchObject({ offer_converted: true, offer_conversion_id: payout.id, payout: 5, profit: 35 });
    const repeat = await stored(company, await simulate(number, [ANSWER(90)]));
    expect(repeat).toMatchObject({ offer_converted: false, payout: 0, revenue: 40, profit: 40 });
    expect(timelineOf(repeat, 'traffic_source_payout')).toEqual([]);
  });

  it('moves a percentage payout with the revenue when the revenue is changed later, unless a payout is given', async () => {
    const { company, number } = await withPayout({ payout_type: 'buyer_conversion_percent', revenue_percentage: 25 });
    const result = await simulate(number, [ANSWER(90)]);
    await adjustCall(company.id, result.callId!, { revenue: 80 }, clock().now());
    expect(await stored(company, result)).toMatchObject({ revenue: 80, payout: 20, traffic_source_payout: 20, profit: 60 });
    await adjustCall(company.id, result.callId!, { revenue: 100, payout: 5 }, clock().now());
    expect(await stored(company, result)).toMatchObject({ revenue: 100, payout: 5, traffic_source_payout: 5, profit: 95 });
  });
});
