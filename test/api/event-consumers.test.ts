import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findCallByCarrierId } from '../../shared/calls/call-store.js';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { useDynamoRequests } from '../fixtures/dynamo-requests.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { useRecordedEventQueue, workOf } from '../fixtures/queue-messages.js';
import { createThrough, receiveEvents } from '../fixtures/records.js';
import { callFields, carrierPost, dialOf, newCallSid, offerWithBuyers, VOICE_BASE } from '../fixtures/voice.js';

/**
 * A change stages its events in the outbox only when the company has something that receives
 * them: a subscription or an outgoing webhook (shared/events/event-consumers.ts). Without one a
 * call writes no outbox item (2 write units per event in its transactions) and sends nothing to
 * the queue; the first consumer created makes the very next change stage its events, and the
 * last one deleted stops it.
 */
const gateway = useGateway();
const log = useDynamoRequests();

const sent = useRecordedEventQueue();

const TOKEN = process.env.TWILIO_AUTH_TOKEN!;
const CALL_EVENTS = ['new_call', 'call_ringing', 'call_forwarded', 'call_ended'];

/** Outbox items the logged transactions put (an event's only way to the queue). */
function outboxPuts(companyId: number): number {
  return log.requests
    .filter((request) => request.command === 'TransactWriteItemsCommand')
    .flatMap((request) => request.input.TransactItems as Array<{ Put?: { Item: { pk: string } } }>)
    .filter((item) => item.Put?.Item.pk === `C#${companyId}#outbox`).length;
}

/** The names of the events sent for one call (or record id), in order. */
function eventsOf(id: number): string[] {
  return sent.flatMap(workOf).flatMap((message) => (message.kind === 'event' && message.event.data.id === id ? [message.event.name] : []));
}

/** One answered call from a new caller; its id and the outbox items its webhooks put. */
async function answeredCall(company: TestCompany, number: string): Promise<{ callId: number; outbox: number }> {
  log.reset();
  const result = await simulateCall({ baseUrl: gateway.baseUrl, authToken: TOKEN, from: '+14155552671', to: number, buyers: [{ answer: true, answerAfter: 2, talk: 45 }], callSid: `CA${randomUUID().replace(/-/g, '')}` });
  expect(result.outcome).toBe('completed');
  return { callId: result.callId!, outbox: outboxPuts(company.id) };
}

async function remove(company: TestCompany, path: string): Promise<void> {
  const reply = await call(gateway, { method: 'DELETE', path, authorization: company.authorization });
  expect(reply.status, reply.text).toBe(200);
}

describe('events are staged only where something receives them', () => {
  it('a call of a company without subscriptions or outgoing webhooks stages none; an outgoing webhook or a subscription makes the next call stage all', async () => {
    const company = await createTestCompany('event-consumers');
    const { number } = await offerWithBuyers(gateway, company, [{ current_conversion_revenue: 20, current_conversion_duration: 10 }]);

    const quiet = await answeredCall(company, number);
    expect(quiet.outbox).toBe(0);
    expect(eventsOf(quiet.callId)).toEqual([]);
    // The call itself is whole: the API shows it ended, converted.
    const shown = await call(gateway, { path: `/api/v1/calls/${quiet.callId}`, authorization: company.authorization });
    expect(shown.body.call).toMatchObject({ status: 'completed', buyer_converted: true, revenue: 20 });

    // An outgoing webhook alone is a consumer: every event of the next call is staged and sent.
    const url = await createThrough(gateway, company, '/api/v1/outgoing_webhook_urls', { url: 'https://crm.example.com/{{call_id}}' });
    const webhook = await createThrough(gateway, company, '/api/v1/outgoing_webhooks', { name: 'CRM', trigger_type: 'call_ended', outgoing_url_ids: [url.id] });
    const watched = await answeredCall(company, number);
    expect(watched.outbox).toBe(3);
    expect(eventsOf(watched.callId)).toEqual(CALL_EVENTS);

    // Deleted again: nothing receives the company's events, and the next call stages none.
    await remove(company, `/api/v1/outgoing_webhooks/${webhook.id}`);
    const quietAgain = await answeredCall(company, number);
    expect(quietAgain.outbox).toBe(0);
    expect(eventsOf(quietAgain.callId)).toEqual([]);

    // A subscription (to any one event) stages them all; the fan-out picks what goes where.
    const subscription = await receiveEvents(gateway, company, 'call_ended');
    const subscribed = await answeredCall(company, number);
    expect(subscribed.outbox).toBe(3);
    expect(eventsOf(subscribed.callId)).toEqual(CALL_EVENTS);
    await remove(company, `/api/v1/subscriptions/${subscription.id}`);
    expect((await answeredCall(company, number)).outbox).toBe(0);
  });

  it('a lead posted with a lead_token stages new_lead only with a consumer, whether or not the instance knows the token', async () => {
    const company = await createTestCompany('event-consumers-leads');
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Leads' });
    const post = async (caller: string) => {
      log.reset();
      const reply = await call(gateway, { method: 'POST', path: `/api/v1/leads?lead_token=${offer.lead_token}&caller_id=${encodeURIComponent(caller)}&first_name=Ada` });
      expect(reply.status, reply.text).toBe(200);
      return { id: reply.body.lead.id as number, outbox: outboxPuts(company.id) };
    };
    // The token's first post in this instance (counts read beside the contact's Query), then a known token (in the token's read).
    for (const caller of ['+14155557101', '+14155557102']) {
      const lead = await post(caller);
      expect(lead.outbox).toBe(0);
      expect(eventsOf(lead.id)).toEqual([]);
    }
    await receiveEvents(gateway, company, 'new_lead');
    const lead = await post('+14155557103');
    expect(lead.outbox).toBe(1);
    expect(eventsOf(lead.id)).toEqual(['new_lead']);
  });

  it('a change through the API (call_changed) stages its event only with a consumer, and a consumer created mid-call gets the rest of that call', async () => {
    const company = await createTestCompany('event-consumers-change');
    const { number } = await offerWithBuyers(gateway, company, [{ current_conversion_revenue: 20, current_conversion_duration: 10 }]);
    const { callId } = await answeredCall(company, number);
    const change = async (revenue: number) => {
      log.reset();
      const reply = await call(gateway, { method: 'POST', path: `/api/v1/calls/${callId}`, authorization: company.authorization, json: { revenue } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.call.revenue).toBe(revenue);
      return outboxPuts(company.id);
    };
    expect(await change(30)).toBe(0);
    expect(eventsOf(callId)).toEqual([]);
    await receiveEvents(gateway, company, 'call_changed');
    expect(await change(35)).toBe(1);
    expect(eventsOf(callId)).toEqual(['call_changed']);

    // A call under way when the first consumer is created: its later webhooks read the consumer and stage their events.
    const other = await createTestCompany('event-consumers-midcall');
    const route = await offerWithBuyers(gateway, other, [{ current_conversion_revenue: 20, current_conversion_duration: 10 }]);
    const sid = newCallSid();
    const fields = callFields(sid, '+14155552671', route.number);
    const dial = dialOf((await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...fields, CallStatus: 'ringing' })).text)!;
    await receiveEvents(gateway, other, 'call_ended');
    expect((await carrierPost(gateway, dial.statusCallback!, { ...fields, CallStatus: 'in-progress' })).status).toBe(200);
    expect((await carrierPost(gateway, dial.action, { ...fields, DialCallStatus: 'completed', DialCallDuration: '30' })).status).toBe(200);
    expect((await carrierPost(gateway, `${VOICE_BASE}/status`, { ...fields, CallStatus: 'completed', CallDuration: '40' })).status).toBe(200);
    const midCall = (await findCallByCarrierId('twilio', sid))!.call.id;
    expect(eventsOf(midCall)).toEqual(['call_forwarded', 'call_ended']);
  });
});
