import { describe, expect, it } from 'vitest';
import { findCallByCarrierId, getCall } from '../../shared/calls/call-store.js';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { callFields, carrierPost, dialOf, newCallSid, VOICE_BASE, VOICE_TOKEN } from '../fixtures/voice.js';

// Numbers are unique across the deployment: this file buys from a range no other file uses.

const gateway = useGateway();

const CALLER = '+14155552671';
const XML = '<?xml version="1.0" encoding="UTF-8"?>';
const HANGUP = `${XML}<Response><Hangup/></Response>`;
const EMPTY = `${XML}<Response/>`;

async function setup(buyerFields: Record<string, unknown> = {}): Promise<{ company: TestCompany; number: string }> {
  const company = await createTestCompany('voice-webhooks');
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'B1', number: '+12125551000', ...buyerFields });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  return { company, number: number.number as string };
}

/** Every callback that carries ids in its URL, with the fields that would make it act. */
const STEPS: Array<{ step: string; fields: Record<string, string>; neutral: string }> = [
  { step: 'dial_action', fields: { DialCallStatus: 'completed', DialCallDuration: '30' }, neutral: HANGUP },
  { step: 'dial_status', fields: { CallStatus: 'in-progress' }, neutral: EMPTY },
  { step: 'whisper', fields: { CallStatus: 'in-progress' }, neutral: HANGUP },
  { step: 'whisper_result', fields: { Digits: '1' }, neutral: HANGUP },
];

/** The query string of a callback URL (none at all without ids, as the signature covers the URL). */
const query = (ids: Record<string, string>) => (Object.keys(ids).length ? `?${new URLSearchParams(ids).toString()}` : '');

describe('voice callbacks that name no live call', () => {
  it.each([
    ['a zero call id', { company: '1', call: '0', attempt: '1' }],
    ['an unknown call id', { company: '1', call: '123456789', attempt: '1' }],
    ['garbage ids', { company: 'x', call: 'abc', attempt: '-1' }],
    ['an oversized id', { company: '1', call: '9'.repeat(400), attempt: '1' }],
    ['a fractional id', { company: '1', call: '1.5', attempt: '1' }],
    ['no ids at all', {}],
  ])('answer neutral TwiML with 200 for %s', async (_label, ids) => {
    for (const { step, fields, neutral } of STEPS) {
      const reply = await carrierPost(gateway, `${VOICE_BASE}/${step}${query(ids)}`, { ...callFields(newCallSid(), CALLER, '+13125550100'), ...fields });
      expect(reply, step).toEqual({ status: 200, text: neutral });
    }
  });

  it('answer neutral TwiML for another company\'s call and leave that call as it was', async () => {
    const { company, number } = await setup({ press_one_to_accept: true });
    const other = await createTestCompany('voice-webhooks-other');
    const sid = newCallSid();
    const incoming = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(sid, CALLER, number), CallStatus: 'ringing' });
    expect(dialOf(incoming.text)).toBeDefined();
    const callId = (await findCallByCarrierId('twilio', sid))!.call.id;
    const before = await getCall(company.id, callId);
    for (const { step, fields, neutral } of STEPS) {
      const reply = await carrierPost(gateway, `${VOICE_BASE}/${step}${query({ company: String(other.id), call: String(callId), attempt: '1' })}`, {
        ...callFields(sid, CALLER, number),
        ...fields,
      });
      expect(reply, step).toEqual({ status: 200, text: neutral });
    }
    expect(await getCall(company.id, callId)).toEqual(before);
  });

  it('answer neutral TwiML for an ended call and change nothing on it', async () => {
    const { company, number } = await setup({ press_one_to_accept: true });
    const result = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: CALLER, to: number, buyers: [{ answer: true, answerAfter: 2, talk: 30, keys: '1' }], callSid: newCallSid() });
    expect(result.outcome).toBe('completed');
    const ended = await getCall(company.id, result.callId!);
    expect(ended).toMatchObject({ in_progress: false, status: 'completed' });
    const ids = { company: String(company.id), call: String(result.callId), attempt: '1' };
    for (const { step, fields, neutral } of [...STEPS, { step: 'dial_action', fields: { DialCallStatus: 'no-answer' }, neutral: HANGUP }]) {
      const reply = await carrierPost(gateway, `${VOICE_BASE}/${step}${query(ids)}`, { ...callFields(result.callSid, CALLER, number), ...fields });
      expect(reply, step).toEqual({ status: 200, text: neutral });
    }
    // A replayed final status is answered and ends nothing twice.
    const replayed = await carrierPost(gateway, `${VOICE_BASE}/status`, { ...callFields(result.callSid, CALLER, number), CallStatus: 'completed', CallDuration: '999' });
    expect(replayed).toEqual({ status: 200, text: EMPTY });
    expect(await getCall(company.id, result.callId!)).toEqual(ended);
  });

  it('answer the status and incoming webhooks neutrally for unusable CallSids', async () => {
    const { number } = await setup();
    for (const callSid of ['', 'CA'.padEnd(300, 'f'), 'has space', 'CAunknown0000']) {
      const status = await carrierPost(gateway, `${VOICE_BASE}/status`, { ...callFields(callSid, CALLER, number), CallStatus: 'completed', CallDuration: '10' });
      expect(status, callSid).toEqual({ status: 200, text: EMPTY });
    }
    for (const callSid of ['', 'CA'.padEnd(300, 'f')]) {
      const incoming = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(callSid, CALLER, number), CallStatus: 'ringing' });
      expect(incoming, callSid).toEqual({ status: 200, text: HANGUP });
      expect(await findCallByCarrierId('twilio', callSid || 'x')).toBeUndefined();
    }
  });

  it('answer an oversized To and From without failing', async () => {
    await setup();
    const incoming = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(newCallSid(), '+1'.padEnd(5000, '4'), '+1'.padEnd(5000, '3')), CallStatus: 'ringing' });
    expect(incoming.status).toBe(200);
    expect(incoming.text).toMatch(/<Response><(Reject reason="rejected"\/|Hangup\/)><\/Response>$/);
  });
});
