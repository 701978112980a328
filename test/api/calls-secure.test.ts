import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telephonyPort } from '../../shared/adapters/index.js';
import type { CallControlRecorder } from '../../shared/adapters/local/call-control-recorder.js';
import { getCall } from '../../shared/calls/call-store.js';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { twilioSignature } from '../../shared/voice/twilio-signature.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect422 } from '../fixtures/envelope.js';
import { call as send, startTestGateway, type ApiReply, type TestGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';

const TOKEN = process.env.TWILIO_AUTH_TOKEN!;
const sid = () => `CA${randomUUID().replace(/-/g, '')}`;

let gateway: TestGateway;
let company: TestCompany;
let buyer: Record<string, any>;
let number: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  company = await createTestCompany('calls-secure');
  buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'SIP buyer', number: 'sip:buyer@example.com', current_conversion_revenue: 30, current_conversion_duration: 0 });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Secure offer', buyer_ids: [buyer.id] });
  number = (await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id })).number;
});

afterAll(async () => gateway.close());

/** The carrier's first webhook only: the call rings the buyer; its uuid and secure token as the buyer's SIP headers carry them. */
async function liveCall(): Promise<{ callSid: string; callId: number; uuid: string; secureToken: string; twiml: string }> {
  const callSid = sid();
  const url = `${gateway.baseUrl}/api/v1/voice/twilio/incoming`;
  const fields = { CallSid: callSid, AccountSid: 'ACtest', From: '+14155550123', To: number, Direction: 'inbound', CallStatus: 'ringing' };
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(TOKEN, url, fields) },
    body: new URLSearchParams(fields).toString(),
  });
  const twiml = await response.text();
  expect(response.status, twiml).toBe(200);
  const action = /<Dial\b[^>]*action="([^"]*)"/.exec(twiml)?.[1]?.replace(/&amp;/g, '&');
  const callId = Number(new URL(action!, gateway.baseUrl).searchParams.get('call'));
  const stored = (await getCall(company.id, callId))!;
  return { callSid, callId, uuid: stored.uuid, secureToken: String(stored.secure_token), twiml };
}

const securePath = (token: string, uuid: string, tail = '') => `/api/v1/secure/${token}/calls/${uuid}${tail}`;

/** No credentials: the path authorises. */
function secure(method: string, path: string, json?: Record<string, unknown>): Promise<ApiReply> {
  return send(gateway, { method, path, json });
}

describe('the secure call endpoints', () => {
  it('hand the buyer a uuid and token that the SIP headers carry', async () => {
    const live = await liveCall();
    expect(live.twiml).toContain(`svc_uuid=${live.uuid}`);
    expect(live.twiml).toContain(`svc_secure_token=${live.secureToken}`);
  });

  it('GET .../data answers the uuid and data of the call', async () => {
    const live = await liveCall();
    const reply = await secure('GET', securePath(live.secureToken, live.uuid, '/data'));
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.call).toEqual({ uuid: live.uuid, data: {} });
  });

  it('PUT updates the call like POST /calls/:id and answers the buyer side of it only', async () => {
    const live = await liveCall();
    const reply = await secure('PUT', securePath(live.secureToken, live.uuid), { first_name: 'Grace', revenue: 45, data: { plan: 'gold' } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.call).toMatchObject({ uuid: live.uuid, first_name: 'Grace', revenue: 45, data: { plan: 'gold' } });
    for (const hidden of ['payout', 'traffic_source_payout', 'profit', 'secure_token']) expect(reply.body.call).not.toHaveProperty(hidden);
    const stored = (await getCall(company.id, live.callId))!;
    expect(stored).toMatchObject({ first_name: 'Grace', revenue: 45, data: { plan: 'gold' } });
    const data = await secure('GET', securePath(live.secureToken, live.uuid, '/data'));
    expect(data.body.call).toEqual({ uuid: live.uuid, data: { plan: 'gold' } });
    expect422(await secure('PUT', securePath(live.secureToken, live.uuid), { revenue: 'x' }), { revenue: ['is not a number'] });
  });

  it('DELETE hangs the call up through the carrier; 422 for a call that is over', async () => {
    const recorder = telephonyPort() as CallControlRecorder;
    const live = await liveCall();
    const reply = await secure('DELETE', securePath(live.secureToken, live.uuid));
    expect(reply.status, reply.text).toBe(200);
    expect(recorder.hungUp).toContain(live.callSid);
    const timeline = (await getCall(company.id, live.callId))!.timeline as Array<Record<string, unknown>>;
    expect(timeline.at(-1)).toMatchObject({ type: 'hangup_requested', source: 'secure' });

    const done = await simulateCall({ baseUrl: gateway.baseUrl, authToken: TOKEN, from: '+14155550124', to: number, buyers: [{ answer: true, answerAfter: 1, talk: 5 }], callSid: sid() });
    const finished = (await getCall(company.id, done.callId!))!;
    expect422(await secure('DELETE', securePath(String(finished.secure_token), finished.uuid)), { base: ['call is not in progress'] });
  });

  it('answer 404 to a wrong token, an unknown uuid, or a token of another call, changing nothing', async () => {
    const live = await liveCall();
    const otherLive = await liveCall();
    const wrong = [
      securePath(randomBytes(16).toString('hex'), live.uuid),
      securePath(`${live.secureToken}0`, live.uuid),
      securePath(live.secureToken.slice(0, -1), live.uuid),
      securePath(otherLive.secureToken, live.uuid),
      securePath(live.secureToken, randomUUID()),
      securePath(live.secureToken, String(live.callId)),
    ];
    const hungUp = (telephonyPort() as CallControlRecorder).hungUp.length;
    for (const path of wrong) {
      expect((await secure('GET', `${path}/data`)).status, path).toBe(404);
      expect((await secure('PUT', path, { revenue: 99 })).status, path).toBe(404);
      expect((await secure('DELETE', path)).status, path).toBe(404);
    }
    expect((await getCall(company.id, live.callId))!.revenue).not.toBe(99);
    expect((telephonyPort() as CallControlRecorder).hungUp).toHaveLength(hungUp);
  });
});
