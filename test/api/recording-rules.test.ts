import { describe, expect, it, vi } from 'vitest';
import { getCall } from '../../shared/calls/call-store.js';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect422 } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { callFields, carrierPost, dialOf, idsOf, newCallSid, VOICE_BASE, VOICE_TOKEN } from '../fixtures/voice.js';
import { xmlAttribute } from '../fixtures/voice.js';

// What follows a stored recording (transcription) is another module's: here only whether it is told, and how often.
const stored = vi.hoisted(() => ({ calls: [] as Array<[number, number, string]> }));
vi.mock('../../shared/call-config/recording-effects.js', () => ({
  recordingStored: async (companyId: number, callId: number, url: string) => {
    stored.calls.push([companyId, callId, url]);
  },
}));

const gateway = useGateway();

const post = (company: TestCompany, path: string, json: unknown) => call(gateway, { method: 'POST', path, authorization: company.authorization, json });
const showCall = async (company: TestCompany, id: number) => {
  const reply = await call(gateway, { path: `/api/v1/calls/${id}`, authorization: company.authorization });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.call as Record<string, any>;
};

async function offerWithBuyers(label: string) {
  const company = await createTestCompany(label);
  const recorded = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Recorded', number: '+12125555000' });
  const plain = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Plain', number: '+12125555001' });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [recorded.id] });
  const plainOffer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Plain offer', buyer_ids: [plain.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  const plainNumber = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: plainOffer.id });
  return { company, recorded, plain, offer, number, plainNumber };
}

describe('call_recording_rules', () => {
  it('validate their fields', async () => {
    const company = await createTestCompany('recording-crud');
    expect422(await post(company, '/api/v1/call_recording_rules', { recording_channels: 'stereo' }), { recording_channels: ['is not included in the list (dual, mono)'] });
    const rule = await createThrough(gateway, company, '/api/v1/call_recording_rules', { name: 'All', record_token_filter_list: ['age:>=21'] });
    expect(rule).toMatchObject({ enabled: true, recording_channels: 'dual', offer_id: null, buyer_id: null, traffic_source_id: null, record_token_filter_list: ['age:>=21'] });
  });

  it('record the matching calls: the Dial asks for a dual recording and the simulated carrier stores its URL on the call', async () => {
    const { company, offer, number, plainNumber } = await offerWithBuyers('recording-calls');
    await createThrough(gateway, company, '/api/v1/call_recording_rules', { name: 'Offer calls', offer_id: offer.id });

    const first = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(newCallSid(), '+14155550131', number.number), CallStatus: 'ringing' });
    const dialTag = /<Dial\b[^>]*>/.exec(first.text)![0];
    expect(xmlAttribute(dialTag, 'record')).toBe('record-from-answer-dual');
    expect(xmlAttribute(dialTag, 'recordingStatusCallback')).toContain('/api/v1/voice/twilio/recording?');

    const recorded = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: '+14155550132', to: number.number, buyers: [{ answer: true, answerAfter: 2, talk: 40 }] });
    expect(recorded.outcome).toBe('completed');
    const shown = await showCall(company, recorded.callId!);
    expect(shown.has_recording).toBe(true);
    expect(shown.recording_url).toMatch(/^http:\/\/.+\/local\/recordings\/RE[0-9a-f]{32}\.wav$/);

    // Another offer's call is not recorded.
    const plain = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: '+14155550133', to: plainNumber.number, buyers: [{ answer: true, answerAfter: 2, talk: 40 }] });
    expect(plain.steps.some((step) => step.request.includes('/recording'))).toBe(false);
    expect(await showCall(company, plain.callId!)).toMatchObject({ has_recording: false, recording_url: null });
  });

  it('take a retried recording callback once and ignore callbacks naming no call or no URL', async () => {
    const { company, number } = await offerWithBuyers('recording-retry');
    await createThrough(gateway, company, '/api/v1/call_recording_rules', { name: 'Mono', recording_channels: 'mono' });
    const reply = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(newCallSid(), '+14155550134', number.number), CallStatus: 'ringing' });
    expect(xmlAttribute(/<Dial\b[^>]*>/.exec(reply.text)![0], 'record')).toBe('record-from-answer');
    const dial = dialOf(reply.text)!;
    const ids = idsOf(dial.action);
    const callback = `${VOICE_BASE}/recording?company=${ids.companyId}&call=${ids.callId}&attempt=${ids.attempt}`;
    const fields = { CallSid: 'CAx', RecordingSid: 'RE1', RecordingUrl: 'https://recordings.example.com/RE1', RecordingStatus: 'completed' };
    for (let n = 0; n < 2; n++) expect((await carrierPost(gateway, callback, fields)).status).toBe(200);
    const saved = (await getCall(company.id, ids.callId))!;
    expect(saved).toMatchObject({ has_recording: true, recording_url: 'https://recordings.example.com/RE1' });
    expect((saved.timeline as Array<{ type: string }>).filter((entry) => entry.type === 'recording')).toHaveLength(1);
    expect(stored.calls.filter(([, callId]) => callId === ids.callId)).toEqual([[company.id, ids.callId, 'https://recordings.example.com/RE1']]);
    // No usable URL, or a call of nobody: a neutral answer, nothing changes.
    expect((await carrierPost(gateway, callback, { ...fields, RecordingUrl: 'javascript:alert(1)' })).status).toBe(200);
    expect((await carrierPost(gateway, `${VOICE_BASE}/recording?company=${ids.companyId}&call=999999&attempt=1`, fields)).status).toBe(200);
    expect((await getCall(company.id, ids.callId))!.recording_url).toBe('https://recordings.example.com/RE1');
    // Unsigned: refused like every carrier route.
    expect((await carrierPost(gateway, callback, fields, null)).status).not.toBe(200);
  });

  it('match by buyer and by token filter', async () => {
    const { company, recorded, number } = await offerWithBuyers('recording-filters');
    await createThrough(gateway, company, '/api/v1/call_recording_rules', { name: 'Adults', buyer_id: recorded.id, record_token_filter_list: ['age:>=21'] });
    const ringWith = async (caller: string) => {
      const reply = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(newCallSid(), caller, number.number), CallStatus: 'ringing' });
      return xmlAttribute(/<Dial\b[^>]*>/.exec(reply.text)![0], 'record');
    };
    expect(await ringWith('+14155550135')).toBeUndefined();
    await createThrough(gateway, company, '/api/v1/token_matchers', { match_field: 'caller_number', match_value: '+14155550136', set_tokens: 'age:30' });
    expect(await ringWith('+14155550136')).toBe('record-from-answer-dual');
  });
});
