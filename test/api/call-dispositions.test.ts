import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect404, expect422, recordOf } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { asCompany, submitted } from '../fixtures/leads.js';
import { createThrough, listThrough } from '../fixtures/records.js';
import { VOICE_TOKEN } from '../fixtures/voice.js';

/**
 * Call dispositions and the agent call dispositions recorded on calls (docs/call-configuration.md,
 * "Dispositions and transcription"): CRUD with their validations, and the effects of a recorded
 * disposition on the call, the caller's next call and the call's schedule lead.
 */
const gateway = useGateway();

let callers = 0;
const newCaller = () => `+1415558${String(1000 + ++callers)}`;

async function world(): Promise<{ company: TestCompany; offer: Record<string, any>; number: string }> {
  const company = await createTestCompany('dispositions');
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Agent desk', number: '+12125557001' });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  return { company, offer, number: number.number as string };
}

const callFrom = (from: string, to: string) =>
  simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from, to, buyers: [{ answer: true, answerAfter: 1, talk: 20 }], callSid: `CA${randomUUID().replace(/-/g, '')}` });

const as = (company: TestCompany, method: string, path: string, json?: unknown) => asCompany(gateway, company, method, path, json);

describe('call_dispositions', () => {
  it('are created with their flags and colours, validated, listed, updated and deleted', async () => {
    const { company, offer } = await world();
    const created = await createThrough(gateway, company, '/api/v1/call_dispositions', {
      name: 'Sale',
      short_name: 'S',
      key: 'sale',
      text_color: '#ffffff',
      background_color: '#0a0',
      qualified: true,
      call_answered: '1',
      offer_id: offer.id,
    });
    expect(created).toMatchObject({ type: 'CallDisposition', name: 'Sale', key: 'sale', qualified: true, call_answered: true, block_caller: false, end_of_schedule: false, offer_id: offer.id });

    const fresh = recordOf(await as(company, 'GET', '/api/v1/call_dispositions/new'), 'call_disposition');
    expect(fresh).toMatchObject({ id: null, block_caller: false, qualified: false, name: null });

    expect422(await as(company, 'POST', '/api/v1/call_dispositions', { name: '', key: 'Not A Key', text_color: 'red', offer_id: 999999 }), {
      name: ["can't be blank"],
      key: ['must be lower-case letters, digits and underscores'],
      text_color: ['is not a colour like #1a2b3c'],
    });
    const unknownOffer = await as(company, 'POST', '/api/v1/call_dispositions', { name: 'X', key: 'x', offer_id: 999999 });
    expect422(unknownOffer, { offer_id: ['does not exist: 999999'] });
    // Keys are unique in the company.
    expect((await as(company, 'POST', '/api/v1/call_dispositions', { name: 'Sale again', key: 'sale' })).status).not.toBe(200);

    const updated = recordOf(await as(company, 'PUT', `/api/v1/call_dispositions/${created.id}`, { block_caller: true, short_name: '' }), 'call_disposition');
    expect(updated).toMatchObject({ block_caller: true, short_name: null, qualified: true });
    expect((await listThrough(gateway, company, `/api/v1/call_dispositions?offer_id=${offer.id}`, 'call_dispositions')).map((row) => row.id)).toEqual([created.id]);

    const other = await createTestCompany('dispositions-other');
    expect404(await asCompany(gateway, other, 'GET', `/api/v1/call_dispositions/${created.id}`));
    expect((await as(company, 'DELETE', `/api/v1/call_dispositions/${created.id}`)).status).toBe(200);
    expect404(await as(company, 'GET', `/api/v1/call_dispositions/${created.id}`));
  });
});

describe('agent_call_dispositions', () => {
  it("copy their disposition onto the record and show it on the call; another company's call or disposition is refused", async () => {
    const { company, number } = await world();
    const placed = await callFrom(newCaller(), number);
    const callId = placed.callId!;
    const sale = await createThrough(gateway, company, '/api/v1/call_dispositions', { name: 'Sale', short_name: 'S', key: 'sale', text_color: '#fff', qualified: true, agent_handled: true });
    const recorded = await createThrough(gateway, company, '/api/v1/agent_call_dispositions', { call_id: callId, call_disposition_id: sale.id, notes: 'bought the gold plan' });
    expect(recorded).toMatchObject({
      type: 'AgentCallDisposition',
      call_id: callId,
      call_disposition_id: sale.id,
      key: 'sale',
      name: 'Sale',
      short_name: 'S',
      text_color: '#fff',
      background_color: null,
      has_disposition: true,
      qualified: true,
      agent_handled: true,
      block_caller: false,
      notes: 'bought the gold plan',
    });
    const shownCall = (await as(company, 'GET', `/api/v1/calls/${callId}`)).body.call;
    expect(shownCall.call_disposition_id).toBe(sale.id);
    expect(shownCall.disposition).toMatchObject({ id: sale.id, agent_call_disposition_id: recorded.id, key: 'sale', name: 'Sale', qualified: true, notes: 'bought the gold plan' });

    // Another outcome later: the record and the call follow it.
    const callback = await createThrough(gateway, company, '/api/v1/call_dispositions', { name: 'Call back', key: 'call_back' });
    const changed = recordOf(await as(company, 'PUT', `/api/v1/agent_call_dispositions/${recorded.id}`, { call_disposition_id: callback.id }), 'agent_call_disposition');
    expect(changed).toMatchObject({ key: 'call_back', name: 'Call back', qualified: false, notes: 'bought the gold plan' });
    expect((await as(company, 'GET', `/api/v1/calls/${callId}`)).body.call.disposition).toMatchObject({ id: callback.id, key: 'call_back' });
    expect((await listThrough(gateway, company, `/api/v1/agent_call_dispositions?call_id=${callId}`, 'agent_call_dispositions')).map((row) => row.id)).toEqual([recorded.id]);

    expect422(await as(company, 'POST', '/api/v1/agent_call_dispositions', { call_disposition_id: 'x' }), { call_id: ['is required'], call_disposition_id: ['is not an integer'] });
    const other = await world();
    const theirPlaced = await callFrom(newCaller(), other.number);
    expect(theirPlaced.companyId).toBe(other.company.id);
    const theirCall = theirPlaced.callId!;
    // Their third disposition: an id this company does not have (ids are per company).
    for (const key of ['theirs_1', 'theirs_2']) await createThrough(gateway, other.company, '/api/v1/call_dispositions', { name: key, key });
    const theirs = await createThrough(gateway, other.company, '/api/v1/call_dispositions', { name: 'Theirs', key: 'theirs' });
    expect422(await as(company, 'POST', '/api/v1/agent_call_dispositions', { call_id: theirCall, call_disposition_id: sale.id }), { call_id: ['does not exist'] });
    expect422(await as(company, 'POST', '/api/v1/agent_call_dispositions', { call_id: callId, call_disposition_id: theirs.id }), { call_disposition_id: [`does not exist: ${theirs.id}`] });
    expect404(await asCompany(gateway, other.company, 'GET', `/api/v1/agent_call_dispositions/${recorded.id}`));
    // The other company's call was not touched.
    expect((await asCompany(gateway, other.company, 'GET', `/api/v1/calls/${theirCall}`)).body.call.disposition).toBeNull();

    // A disposition of another offer does not fit the call.
    const otherOffer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Other offer' });
    const scoped = await createThrough(gateway, company, '/api/v1/call_dispositions', { name: 'Scoped', key: 'scoped', offer_id: otherOffer.id });
    expect422(await as(company, 'POST', '/api/v1/agent_call_dispositions', { call_id: callId, call_disposition_id: scoped.id }), { call_disposition_id: ["is not one of the call's offer"] });

    expect((await as(company, 'DELETE', `/api/v1/agent_call_dispositions/${recorded.id}`)).status).toBe(200);
    expect404(await as(company, 'GET', `/api/v1/agent_call_dispositions/${recorded.id}`));
  });

  it("with block_caller blacklists the caller: the caller's next call is blocked, another caller's is not", async () => {
    const { company, number } = await world();
    const caller = newCaller();
    const first = await callFrom(caller, number);
    expect(first.outcome).toBe('completed');
    const block = await createThrough(gateway, company, '/api/v1/call_dispositions', { name: 'Abusive', key: 'abusive', block_caller: true });
    await createThrough(gateway, company, '/api/v1/agent_call_dispositions', { call_id: first.callId, call_disposition_id: block.id });
    // Idempotent: recording it twice blocks once, and answers the same.
    await createThrough(gateway, company, '/api/v1/agent_call_dispositions', { call_id: first.callId, call_disposition_id: block.id });
    expect((await as(company, 'GET', `/api/v1/contacts/${encodeURIComponent(caller)}`)).body.contact.blocked).toBe(true);

    const next = await callFrom(caller, number);
    expect(next.outcome).toBe('rejected');
    expect(next.dialed).toEqual([]);
    expect((await callFrom(newCaller(), number)).outcome).toBe('completed');
  });

  it("with end_of_schedule moves the call's schedule lead to its end-of-schedule actions", async () => {
    const { company, offer } = await world();
    const schedule = await createThrough(gateway, company, '/api/v1/schedules', { name: 'Follow-up', offer_id: offer.id });
    await createThrough(gateway, company, '/api/v1/schedule_actions', { name: 'Wait', schedule_id: schedule.id, owner_relation: 'actions', action_type: 'wait', action_wait_type: 'days', wait_days: 1 });
    const caller = newCaller();
    const lead = await submitted(gateway, { query: { lead_token: schedule.lead_token, caller_id: caller, assign_service_number: '1' } });
    // The offer's number, held for the lead: the caller's call is the lead's.
    const held = (await as(company, 'GET', `/api/v1/phone_numbers?offer_id=${offer.id}`)).body.phone_numbers[0].number;
    const placed = await callFrom(caller, held);
    const before = (await as(company, 'GET', `/api/v1/leads/${lead.uuid}`)).body.lead;
    expect(before).toMatchObject({ status: 'active', phase: 'actions', call_ids: [placed.callId] });

    const done = await createThrough(gateway, company, '/api/v1/call_dispositions', { name: 'Done', key: 'done', end_of_schedule: true });
    await createThrough(gateway, company, '/api/v1/agent_call_dispositions', { call_id: placed.callId, call_disposition_id: done.id });
    const after = (await as(company, 'GET', `/api/v1/leads/${lead.uuid}`)).body.lead;
    // No end-of-schedule actions here: the lead runs through them at once and its schedule ends.
    expect(after.phase, JSON.stringify(after)).not.toBe('actions');
  });
});

describe('call disposition routes', () => {
  it('answer 401 without credentials', async () => {
    expect((await call(gateway, { path: '/api/v1/call_dispositions' })).status).toBe(401);
  });
});
