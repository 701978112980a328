import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getCall } from '../../shared/calls/call-store.js';
import { sweepStaleCalls } from '../../shared/calls/stale-call-sweeper.js';
import { STALE_AFTER_SECONDS } from '../../shared/calls/stale-calls.js';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { deliverQueued, useReceiver } from '../fixtures/events.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { useRecordedMetrics } from '../fixtures/metrics.js';
import { createThrough } from '../fixtures/records.js';
import { callFields, carrierPost, dialOf, idsOf, newCallSid, VOICE_BASE, VOICE_TOKEN } from '../fixtures/voice.js';

// Numbers are unique across the deployment: this file buys from a range no other file uses.
// Deliveries may reach the receiver on this machine.
process.env.WEBHOOK_ALLOWED_CIDRS = '127.0.0.0/8';

const gateway = useGateway();
const receiver = useReceiver();
const metrics = useRecordedMetrics();

const CALLER = '+14155552671';

/** A company whose offer routes to one buyer that converts after 10 s of talk, and its tracking number. */
async function setup(label: string, buyerIds?: number[]): Promise<{ company: TestCompany; number: string; offerId: number }> {
  const company = await createTestCompany(label);
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'B', number: '+12125551000', current_conversion_revenue: 20, current_conversion_duration: 10 });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: buyerIds ?? [buyer.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  return { company, number: number.number as string, offerId: offer.id };
}

type Totals = ReturnType<typeof metrics.current.published>;

/** What the setup's API requests counted is not the test's business: publish it before `before`. */
const freshMetrics = () => metrics.current.publish();

/** The totals that changed since `before` (published ones, or everything counted). */
const since = (before: Totals, totals: Totals = metrics.current.published()) =>
  Object.fromEntries(Object.entries(totals).filter(([name, value]) => value !== before[name as keyof Totals]).map(([name, value]) => [name, value! - (before[name as keyof Totals] ?? 0)]));

describe('business metrics of calls', () => {
  it('count a call through the carrier\'s webhooks once started, once ended and its conversion, published by the requests', async () => {
    const { number } = await setup('metrics-call');
    freshMetrics();
    const before = metrics.current.published();
    const result = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: CALLER, to: number, buyers: [{ answer: true, answerAfter: 2, talk: 30 }], callSid: newCallSid() });
    expect(result.outcome).toBe('completed');
    expect(since(before)).toEqual({ CallsStarted: 1, CallsEnded: 1, Conversions: 1 });
    // The carrier repeats its final status: the call ended once.
    const repeated = await carrierPost(gateway, `${VOICE_BASE}/status`, { ...callFields(result.callSid, CALLER, number), CallStatus: 'completed', CallDuration: '32' });
    expect(repeated.status).toBe(200);
    expect(since(before)).toEqual({ CallsStarted: 1, CallsEnded: 1, Conversions: 1 });
  });

  it('count a retried incoming webhook as one call, and no conversion for a call too short to convert', async () => {
    const { number } = await setup('metrics-retry');
    freshMetrics();
    const before = metrics.current.published();
    const sid = newCallSid();
    const fields = { ...callFields(sid, CALLER, number), CallStatus: 'ringing' };
    const first = await carrierPost(gateway, `${VOICE_BASE}/incoming`, fields);
    const retried = await carrierPost(gateway, `${VOICE_BASE}/incoming`, fields);
    expect(retried.text).toBe(first.text);
    expect(since(before)).toEqual({ CallsStarted: 1 });
    const dial = dialOf(first.text)!;
    await carrierPost(gateway, dial.action, { ...callFields(sid, CALLER, number), DialCallStatus: 'completed', DialCallDuration: '5' });
    await carrierPost(gateway, `${VOICE_BASE}/status`, { ...callFields(sid, CALLER, number), CallStatus: 'completed', CallDuration: '7' });
    expect(since(before)).toEqual({ CallsStarted: 1, CallsEnded: 1 });
  });

  it('count a call nobody can take as started and ended at once', async () => {
    const { number } = await setup('metrics-nobody', []);
    freshMetrics();
    const before = metrics.current.published();
    const result = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: CALLER, to: number, buyers: [{ answer: true, answerAfter: 1, talk: 30 }], callSid: newCallSid() });
    expect(result.outcome).toBe('no_buyer');
    expect(since(before)).toEqual({ CallsStarted: 1, CallsEnded: 1 });
  });

  it('count the calls the stale-call sweeper ends, zero included, and those calls as ended', async () => {
    const { company, number } = await setup('metrics-sweeper');
    const dial = dialOf((await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(newCallSid(), CALLER, number), CallStatus: 'ringing' })).text)!;
    const { callId } = idsOf(dial.action);
    const created = Date.parse(String((await getCall(company.id, callId))!.created_at));
    freshMetrics();
    const before = metrics.current.counted();
    // The sweeper's function publishes (functions/sweeper/handler.ts); here the counts are read as counted.
    expect((await sweepStaleCalls(new Date(created + 1000), [company.id])).ended).toEqual([]);
    expect(since(before, metrics.current.counted())).toEqual({ StaleCallsEnded: 0 });
    expect((await sweepStaleCalls(new Date(created + (STALE_AFTER_SECONDS + 1) * 1000), [company.id])).ended).toHaveLength(1);
    expect(since(before, metrics.current.counted())).toEqual({ StaleCallsEnded: 1, CallsEnded: 1 });
  });
});

describe('business metrics of partners\' pings and posts', () => {
  it('count every ping and post answered, accepted or refused', async () => {
    const { company, offerId } = await setup('metrics-ping');
    const vanity = `metrics-${randomUUID().slice(0, 8)}`;
    await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: vanity, offer_id: offerId });
    freshMetrics();
    const before = metrics.current.published();
    const pinged = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${vanity}?caller_id=${encodeURIComponent(CALLER)}` });
    expect(pinged.body.success).toBe(true);
    expect(since(before)).toEqual({ Pings: 1 });
    const refused = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/no-such-${vanity}` });
    expect(refused.status).toBe(404);
    expect(since(before)).toEqual({ Pings: 2 });
    const posted = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/post/${vanity}`, json: { ping_id: pinged.body.try_all_buyers_ping_id, caller_id: CALLER } });
    expect(posted.body.success).toBe(true);
    expect(since(before)).toEqual({ Pings: 2, Posts: 1 });
  });
});

describe('business metrics of event deliveries', () => {
  it('count each delivery attempt as succeeded or failed, published by the delivery function', async () => {
    const { company, number } = await setup('metrics-delivery');
    const target = `${receiver.url}?sub=${randomUUID()}`;
    const subscribed = await call(gateway, { method: 'POST', path: '/api/v1/subscriptions', authorization: company.authorization, json: { target_url: target, event: 'call_ended' } });
    expect(subscribed.status, subscribed.text).toBe(200);
    // What earlier tests left in this file's queue goes out first, to nobody.
    await deliverQueued();

    await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: CALLER, to: number, buyers: [{ answer: true, answerAfter: 1, talk: 30 }], callSid: newCallSid() });
    freshMetrics();
    let before = metrics.current.published();
    await deliverQueued();
    expect(since(before)).toEqual({ DeliveriesSucceeded: 1 });

    receiver.answer(500);
    try {
      await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: CALLER, to: number, buyers: [{ answer: true, answerAfter: 1, talk: 30 }], callSid: newCallSid() });
      freshMetrics();
      before = metrics.current.published();
      await deliverQueued();
      expect(since(before)).toEqual({ DeliveriesFailed: 1 });
    } finally {
      receiver.answer(200);
    }
  });
});
