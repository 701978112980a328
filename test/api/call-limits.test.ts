import { describe, expect, it } from 'vitest';
import { getCall } from '../../shared/calls/call-store.js';
import { DATA_LIMITS, TIMELINE_LIMITS, TIMELINE_TRIMMED } from '../../shared/calls/call-limits.js';
import { createTestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { callFields, carrierPost, dialOf, idsOf, newCallSid, VOICE_BASE } from '../fixtures/voice.js';

// Numbers are unique across the deployment: this file buys from a range no other file uses.

const gateway = useGateway();

const CALLER = '+14155552671';
const XML = '<?xml version="1.0" encoding="UTF-8"?>';

/** `count` keys of `length`-character values: data that is close to the byte budget for 16 x 1000. */
const dataOf = (prefix: string, count: number, length: number) => Object.fromEntries(Array.from({ length: count }, (_, n) => [`${prefix}${n}`, 'v'.repeat(length)]));

describe('a call whose data and timeline are at their limits', () => {
  it('refuses over-limit changes with a 422 naming data, trims its timeline, and still takes every carrier callback', async () => {
    const company = await createTestCompany('call-limits');
    const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'B1', number: '+12125551000', current_conversion_revenue: 10, current_conversion_duration: 30 });
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
    const number = (await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id })).number as string;

    const sid = newCallSid();
    const fields = callFields(sid, CALLER, number);
    const dial = dialOf((await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...fields, CallStatus: 'ringing' })).text)!;
    const { callId } = idsOf(dial.action);
    const ringing = (await getCall(company.id, callId)) as Record<string, any>;
    const post = (json: unknown) => call(gateway, { method: 'POST', path: `/api/v1/calls/${callId}`, authorization: company.authorization, json });
    const securePut = (json: unknown) => call(gateway, { method: 'PUT', path: `/api/v1/secure/${ringing.secure_token}/calls/${ringing.uuid}`, json });

    // Fill data to just under its byte budget through the API (16 values of 1000 characters).
    const full = dataOf('k', 16, DATA_LIMITS.valueLength);
    expect(Buffer.byteLength(JSON.stringify(full))).toBeGreaterThan(DATA_LIMITS.bytes - 300);
    const filled = await post({ data: full });
    expect(filled.status, filled.text).toBe(200);

    // Over the limit, alone or merged with what the call holds: 422 naming data, nothing written.
    const before = await getCall(company.id, callId);
    const refusals = [
      [await post({ data: { extra: 'v'.repeat(DATA_LIMITS.valueLength) } }), `is larger than ${DATA_LIMITS.bytes} bytes as JSON with the call's existing data`],
      [await post({ data: { long: 'v'.repeat(DATA_LIMITS.valueLength + 1) } }), `has a value longer than ${DATA_LIMITS.valueLength} characters`],
      [await securePut({ data: dataOf('s', DATA_LIMITS.keys + 1, 1) }), `has more than ${DATA_LIMITS.keys} keys`],
      [await securePut({ data: { ['k'.repeat(DATA_LIMITS.keyLength + 1)]: 1 } }), `has a key longer than ${DATA_LIMITS.keyLength} characters`],
      [await securePut({ data: dataOf('w', 20, DATA_LIMITS.valueLength) }), `is larger than ${DATA_LIMITS.bytes} bytes as JSON`],
    ] as const;
    for (const [reply, message] of refusals) {
      expect(reply.status, reply.text).toBe(422);
      expect(reply.body.errors).toEqual({ data: [message] });
    }
    expect(await getCall(company.id, callId)).toEqual(before);

    // Many accepted changes through all three update paths: each appends to the timeline.
    for (let n = 0; n < 50; n++) expect((await post({ revenue: n, data: { k0: `round ${n}` } })).status).toBe(200);
    for (let n = 0; n < 50; n++) expect((await securePut({ first_name: `Name ${n}` })).status).toBe(200);
    for (let n = 0; n < 20; n++) {
      const reply = await call(gateway, {
        method: 'POST',
        path: `/api/v1/calls/update_by_caller_id/${encodeURIComponent(CALLER)}`,
        authorization: company.authorization,
        json: { offer_token: offer.offer_token, revenue: n },
      });
      expect(reply.status, reply.text).toBe(200);
    }
    const busy = (await getCall(company.id, callId)) as Record<string, any>;
    expect(busy.timeline).toHaveLength(TIMELINE_LIMITS.entries);
    expect(busy.timeline[0].type).toBe('incoming');
    expect(busy.timeline[TIMELINE_LIMITS.head]).toMatchObject({ type: TIMELINE_TRIMMED, dropped: expect.any(Number) });

    // The rest of the call, as the carrier drives it: every callback is taken.
    const answered = await carrierPost(gateway, dial.statusCallback!, { ...fields, CallSid: `${sid}-leg1`, CallStatus: 'in-progress' });
    expect(answered).toEqual({ status: 200, text: `${XML}<Response/>` });
    const action = await carrierPost(gateway, dial.action, { ...fields, CallStatus: 'in-progress', DialCallStatus: 'completed', DialCallDuration: '45' });
    expect(action).toEqual({ status: 200, text: `${XML}<Response><Hangup/></Response>` });
    const status = await carrierPost(gateway, `${VOICE_BASE}/status`, { ...fields, CallStatus: 'completed', CallDuration: '50' });
    expect(status).toEqual({ status: 200, text: `${XML}<Response/>` });

    const ended = (await getCall(company.id, callId)) as Record<string, any>;
    expect(ended).toMatchObject({ status: 'completed', in_progress: false, answered_duration: 45, total_duration: 50, buyer_converted: true, first_name: 'Name 49' });
    expect(ended.data).toEqual({ ...full, k0: 'round 49' });
    expect(ended.timeline).toHaveLength(TIMELINE_LIMITS.entries);
    expect(ended.timeline.at(-1)).toMatchObject({ type: 'ended', status: 'completed' });
    expect(ended.timeline[TIMELINE_LIMITS.head].dropped).toBeGreaterThan(busy.timeline[TIMELINE_LIMITS.head].dropped);
    // Far below DynamoDB's 400 KB item limit.
    expect(Buffer.byteLength(JSON.stringify(ended))).toBeLessThan(100 * 1024);
  });
});
