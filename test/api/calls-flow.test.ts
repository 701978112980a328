import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getCall } from '../../shared/calls/call-store.js';
import { simulateCall, type BuyerBehaviour } from '../../shared/local/call-simulator.js';
import { createTestCompany } from '../fixtures/company.js';
import { call as httpCall, useGateway } from '../fixtures/gateway.js';
import { createThrough, receiveEvents } from '../fixtures/records.js';
import { eventsOfCall, offerWithBuyers } from '../fixtures/voice.js';

const gateway = useGateway();

const TOKEN = process.env.TWILIO_AUTH_TOKEN!;

async function setup(buyerFields: Record<string, unknown>[]) {
  const company = await createTestCompany('calls');
  await receiveEvents(gateway, company);
  return { company, ...(await offerWithBuyers(gateway, company, buyerFields, { buyerNumber: (index) => `+1212555${String(1000 + index)}` })) };
}

const call = (to: string, buyers: BuyerBehaviour[], from = '+14155552671') =>
  simulateCall({ baseUrl: gateway.baseUrl, authToken: TOKEN, from, to, buyers, callSid: `CA${randomUUID().replace(/-/g, '')}` });

describe('a simulated call', () => {
  it('falls through an unanswered buyer to the next, converts it and ends with events for each step', async () => {
    const { company, buyers, number } = await setup([
      { current_conversion_revenue: 40, current_conversion_duration: 60 },
      { current_conversion_revenue: 25, current_conversion_duration: 60 },
    ]);
    const result = await call(number, [
      { answer: false, answerAfter: 30, talk: 0 },
      { answer: true, answerAfter: 4, talk: 90 },
    ]);
    expect(result.outcome).toBe('completed');
    expect(result.dialed).toEqual(['+12125551000', '+12125551001']);
    const stored = await getCall(company.id, result.callId!);
    expect(stored).toMatchObject({ status: 'completed', in_progress: false, buyer_id: buyers[1]!.id, answered_duration: 90, total_duration: 124, buyer_converted: true, revenue: 25 });
    const names = await eventsOfCall(result.callId!);
    expect(names).toEqual(['new_call', 'call_ringing', 'call_ringing', 'call_forwarded', 'call_ended']);
  });

  it('shows the buyer the caller id its display type asks for', async () => {
    const { company, buyers, offer, number } = await setup([{ current_conversion_revenue: 10 }]);
    const service = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
    const callerIdOf = async () => {
      const result = await call(number, [{ answer: true, answerAfter: 1, talk: 5 }]);
      return /<Dial [^>]*callerId="([^"]+)"/.exec(result.steps[0]!.response)?.[1];
    };
    expect(await callerIdOf()).toBe('+14155552671');
    await updateBuyer(company, buyers[0]!.id, { display_caller_id_type: 'display_service_number_id', display_service_number_id: service.id });
    expect(await callerIdOf()).toBe(service.number);
    await updateBuyer(company, buyers[0]!.id, { display_caller_id_type: 'display_fake_caller_id' });
    expect(await callerIdOf()).toBe(number);
  });
});

async function updateBuyer(company: Awaited<ReturnType<typeof createTestCompany>>, id: number, json: Record<string, unknown>) {
  const reply = await httpCall(gateway, { method: 'PUT', path: `/api/v1/buyers/${id}`, authorization: company.authorization, json });
  expect(reply.status, reply.text).toBe(200);
}
