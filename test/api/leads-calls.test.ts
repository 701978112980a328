import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getCall } from '../../shared/calls/call-store.js';
import { simulateCall, type BuyerBehaviour } from '../../shared/local/call-simulator.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { useGateway } from '../fixtures/gateway.js';
import { asCompany, eventsOfLead, submitted } from '../fixtures/leads.js';
import { createThrough, receiveEvents } from '../fixtures/records.js';
import { VOICE_TOKEN } from '../fixtures/voice.js';

/**
 * Offer leads lend their tokens to their caller's calls: a buyer's token filter and the
 * conversion see them; a converted call converts its lead.
 */
const gateway = useGateway();

let callers = 0;
const newCaller = () => `+1415557${String(1000 + ++callers)}`;

const ANSWER_AND_TALK: BuyerBehaviour[] = [{ answer: true, answerAfter: 2, talk: 90 }];

async function setup(): Promise<{ company: TestCompany; gold: Record<string, any>; anyone: Record<string, any>; offer: Record<string, any>; number: string }> {
  const company = await createTestCompany('leads-calls');
  await receiveEvents(gateway, company, 'new_lead');
  // The gold buyer comes first but takes only callers whose tokens say plan:gold.
  const gold = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Gold', number: '+12125559001', tier: 0, record_token_filter_list: ['plan:gold'], current_conversion_revenue: 40, current_conversion_duration: 60 });
  const anyone = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Anyone', number: '+12125559002', tier: 1, current_conversion_revenue: 10, current_conversion_duration: 60 });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [gold.id, anyone.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  return { company, gold, anyone, offer, number: number.number as string };
}

const callFrom = (from: string, to: string, buyers: BuyerBehaviour[] = ANSWER_AND_TALK) =>
  simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from, to, buyers, callSid: `CA${randomUUID().replace(/-/g, '')}` });

describe('a call picks up its caller offer lead', () => {
  it("takes the lead's tokens before routing, so a buyer's token filter chooses by them, and links call and lead", async () => {
    const { company, offer, number } = await setup();
    const caller = newCaller();
    // Without a lead the gold buyer's filter keeps it out.
    const before = await callFrom(newCaller(), number);
    expect(before.dialed).toEqual(['+12125559002']);

    const lead = await submitted(gateway, { query: { lead_token: offer.lead_token, caller_id: caller, plan: 'gold', first_name: 'Flo' } });
    const result = await callFrom(caller, number);
    expect(result.dialed).toEqual(['+12125559001']);
    const stored = (await getCall(company.id, result.callId!))!;
    expect(stored).toMatchObject({ lead_id: lead.id, data: { plan: 'gold', first_name: 'Flo' }, buyer_converted: true, revenue: 40 });
    const shown = (await asCompany(gateway, company, 'GET', `/api/v1/leads/${lead.id}`)).body.lead;
    expect(shown).toMatchObject({ call_ids: [result.callId], converted: true, status: 'active' });
    // An offer lead only carries data: it converts and stays active.
    expect(await eventsOfLead(lead.id)).toEqual(['new_lead', 'lead_converted']);
  });

  it('apply_to=calls copies new data onto the lead calls', async () => {
    const { company, offer, number } = await setup();
    const caller = newCaller();
    await submitted(gateway, { query: { lead_token: offer.lead_token, caller_id: caller, plan: 'silver' } });
    const result = await callFrom(caller, number, [{ answer: true, answerAfter: 1, talk: 5 }]);
    const updated = await submitted(gateway, { json: { lead_token: offer.lead_token, caller_id: caller, apply_to: 'calls', data: { sale_id: 'S-7' } } });
    expect(updated.data).toEqual({ plan: 'silver', sale_id: 'S-7' });
    const call = (await asCompany(gateway, company, 'GET', `/api/v1/calls/${result.callId}`)).body.call;
    expect(call.data).toMatchObject({ plan: 'silver', sale_id: 'S-7' });
  });

  it('a lead of another offer or an ended lead lends nothing', async () => {
    const { company, offer, number } = await setup();
    const other = await createThrough(gateway, company, '/api/v1/offers', { name: 'Other' });
    const caller = newCaller();
    await submitted(gateway, { query: { lead_token: other.lead_token, caller_id: caller, plan: 'gold' } });
    const removedCaller = newCaller();
    await submitted(gateway, { query: { lead_token: offer.lead_token, caller_id: removedCaller, plan: 'gold' } });
    await submitted(gateway, { query: { lead_token: offer.lead_token, caller_id: removedCaller, blocked: '0', expire_existing: '1', plan: 'bronze' } });
    for (const from of [caller]) {
      const result = await callFrom(from, number);
      expect(result.dialed).toEqual(['+12125559002']);
      expect((await getCall(company.id, result.callId!))!.lead_id).toBeNull();
    }
    // The live lead of that caller says bronze now; the expired gold one is not picked up.
    const result = await callFrom(removedCaller, number);
    expect(result.dialed).toEqual(['+12125559002']);
    expect((await getCall(company.id, result.callId!))!.data).toMatchObject({ plan: 'bronze' });
  });
});

describe("a schedule lead's assigned number", () => {
  it('routes the caller to the offer, belongs to the lead, and a converted call completes the schedule lead', async () => {
    const { company, offer } = await setup();
    const schedule = await createThrough(gateway, company, '/api/v1/schedules', { name: 'Callbacks', offer_id: offer.id });
    const caller = newCaller();
    const reply = await asCompany(gateway, company, 'GET', '/api/v1/leads/new');
    expect(reply.body.lead).toMatchObject({ id: null, status: 'active', data: {} });
    const lead = await submitted(gateway, { query: { lead_token: schedule.lead_token, caller_id: caller, plan: 'gold', assign_service_number: '1' } });
    const held = (await asCompany(gateway, company, 'GET', `/api/v1/phone_numbers?offer_id=${offer.id}`)).body.phone_numbers[0].number;
    const result = await callFrom(caller, held);
    expect(result.dialed).toEqual(['+12125559001']);
    expect((await getCall(company.id, result.callId!))!.lead_id).toBe(lead.id);
    const shown = (await asCompany(gateway, company, 'GET', `/api/v1/leads/${lead.uuid}`)).body.lead;
    expect(shown).toMatchObject({ status: 'completed', end_reason: 'converted', converted: true, next_action_at: null, phase: null, call_ids: [result.callId] });
    expect(await eventsOfLead(lead.id)).toEqual(['new_lead', 'lead_converted', 'lead_ended']);
  });
});
