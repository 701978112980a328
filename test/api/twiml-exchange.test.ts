import { describe, expect, it } from 'vitest';
import { findCallByCarrierId, getCall } from '../../shared/calls/call-store.js';
import { twilioSignature } from '../../shared/voice/twilio-signature.js';
import { receiveEvents } from '../fixtures/records.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { useGateway } from '../fixtures/gateway.js';
import { callFields, carrierPost, dialOf, eventsOfCall, newCallSid, offerWithBuyers, showBuyer, VOICE_BASE } from '../fixtures/voice.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';

const gateway = useGateway();
// Counters, caps, rollups and charges are per hour and UTC day: pinned mid-day, mid-minute so the
// file passes at any hour.
usePinnedClockForAll(midDayTomorrow);

const CALLER = '+14155552671';
const XML = '<?xml version="1.0" encoding="UTF-8"?>';
const HANGUP = `${XML}<Response><Hangup/></Response>`;
const EMPTY = `${XML}<Response/>`;

async function setup(buyerFields: Array<Record<string, unknown>>): Promise<{ company: TestCompany; buyers: Array<Record<string, any>>; number: string }> {
  const company = await createTestCompany('twiml');
  await receiveEvents(gateway, company);
  return { company, ...(await offerWithBuyers(gateway, company, buyerFields)) };
}

/** What the service should answer with to dial a buyer, built from the ids (escaped `&` included). */
function callbackUrl(step: string, companyId: number, callId: number, attempt: number): string {
  return `${gateway.baseUrl}${VOICE_BASE}/${step}?company=${companyId}&amp;call=${callId}&amp;attempt=${attempt}`;
}

describe('the TwiML exchange of a two-buyer fall-through', () => {
  it('dials each buyer with its settings, checks every signature and counts retried callbacks once', async () => {
    const { company, buyers, number } = await setup([
      { number: '+12125551000', timeout_seconds: 20, dtmf_tones: '1w2', press_one_to_accept: true, current_conversion_duration: 60 },
      { number: 'sip:buyer@sip.example.com', timeout_seconds: 30, display_caller_id_type: 'display_fake_caller_id', current_conversion_duration: 60 },
    ]);
    const sid = newCallSid();
    const fields = callFields(sid, CALLER, number);

    // incoming: the first buyer, by phone number, with its ring time, digits and the press-1 whisper.
    const incoming = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...fields, CallStatus: 'ringing' });
    expect(incoming.status).toBe(200);
    const found = await findCallByCarrierId('twilio', sid);
    expect(found?.companyId).toBe(company.id);
    const callId = found!.call.id;
    const url = (step: string, attempt: number) => callbackUrl(step, company.id, callId, attempt);
    expect(incoming.text).toBe(
      `${XML}<Response><Dial action="${url('dial_action', 1)}" method="POST" timeout="20" timeLimit="14400" answerOnBridge="true" callerId="${CALLER}">` +
        `<Number statusCallback="${url('dial_status', 1)}" statusCallbackEvent="answered" statusCallbackMethod="POST" sendDigits="1w2" url="${url('whisper', 1)}">+12125551000</Number>` +
        '</Dial></Response>',
    );
    const first = dialOf(incoming.text)!;

    // The whisper asks the buyer to press 1; anything else declines, 1 connects.
    const legFields = { ...fields, CallSid: `${sid}-leg1`, CallStatus: 'in-progress' };
    const whisper = await carrierPost(gateway, first.whisper!, legFields);
    expect(whisper.text).toBe(
      `${XML}<Response><Gather numDigits="1" timeout="8" action="${url('whisper_result', 1)}" method="POST"><Say>Press 1 to accept this call.</Say></Gather><Hangup/></Response>`,
    );
    const resultUrl = first.whisper!.replace('/whisper?', '/whisper_result?');
    expect((await carrierPost(gateway, resultUrl, { ...legFields, Digits: '1' })).text).toBe(EMPTY);
    expect((await carrierPost(gateway, resultUrl, { ...legFields, Digits: '2' })).text).toBe(HANGUP);

    // The first buyer declined: its dial ends unanswered and the second buyer, a SIP endpoint, is dialed.
    const noAnswer = { ...fields, CallStatus: 'in-progress', DialCallStatus: 'no-answer', DialCallDuration: '0' };
    const fallThrough = await carrierPost(gateway, first.action, noAnswer);
    const afterFallThrough = (await getCall(company.id, callId)) as Record<string, any>;
    expect(fallThrough.text).toBe(
      `${XML}<Response><Dial action="${url('dial_action', 2)}" method="POST" timeout="30" timeLimit="14400" answerOnBridge="true" callerId="${number}">` +
        `<Sip statusCallback="${url('dial_status', 2)}" statusCallbackEvent="answered" statusCallbackMethod="POST">` +
        `sip:buyer@sip.example.com?X-svc_secure_token=${afterFallThrough.secure_token}&amp;X-svc_uuid=${afterFallThrough.uuid}</Sip>` +
        '</Dial></Response>',
    );
    expect(afterFallThrough.secure_token).toMatch(/^[0-9a-f]{32}$/);
    const second = dialOf(fallThrough.text)!;
    expect(second.leg).toBe('Sip');

    const counters = async () => [await showBuyer(gateway, company, buyers[0]!.id), await showBuyer(gateway, company, buyers[1]!.id)];
    const pick = (buyer: Record<string, any>) => ({
      attempt: buyer.attempt_daily_used,
      connection: buyer.connection_daily_used,
      concurrency: buyer.concurrency_cap_used,
    });
    const afterDial = (await counters()).map(pick);
    expect(afterDial).toEqual([
      { attempt: 1, connection: 0, concurrency: 0 },
      { attempt: 1, connection: 0, concurrency: 1 },
    ]);
    const eventsAfterDial = await eventsOfCall(callId);
    expect(eventsAfterDial).toEqual(['new_call', 'call_ringing', 'call_ringing']);

    // Unsigned, wrongly signed, or signed for other fields: 403, and nothing changes.
    const completed = { ...fields, CallStatus: 'in-progress', DialCallStatus: 'completed', DialCallDuration: '50' };
    const forged = [
      null,
      'not-a-signature',
      twilioSignature('another-token', second.action, completed),
      twilioSignature(process.env.TWILIO_AUTH_TOKEN!, second.action, { ...completed, DialCallDuration: '5' }),
    ];
    for (const signature of forged) {
      const reply = await carrierPost(gateway, second.action, completed, signature);
      expect(reply.status, String(signature)).toBe(403);
      expect(JSON.parse(reply.text)).toMatchObject({ status: 403 });
    }
    const unsignedIncoming = newCallSid();
    expect((await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(unsignedIncoming, CALLER, number), CallStatus: 'ringing' }, null)).status).toBe(403);
    expect(await findCallByCarrierId('twilio', unsignedIncoming)).toBeUndefined();
    expect(((await getCall(company.id, callId)) as Record<string, any>).version).toBe(afterFallThrough.version);
    expect((await counters()).map(pick)).toEqual(afterDial);
    expect(await eventsOfCall(callId)).toEqual(eventsAfterDial);

    // The carrier retries the first dial's action: the same answer, nothing counted again.
    const retried = await carrierPost(gateway, first.action, noAnswer);
    expect(retried.text).toBe(fallThrough.text);
    expect((await counters()).map(pick)).toEqual(afterDial);
    expect(await eventsOfCall(callId)).toEqual(eventsAfterDial);
    expect(((await getCall(company.id, callId)) as Record<string, any>).attempts).toHaveLength(2);

    // The SIP buyer answers (reported twice), talks 50 s, and the dial's end is reported twice too.
    const answered = { ...fields, CallSid: `${sid}-leg2`, CallStatus: 'in-progress' };
    expect((await carrierPost(gateway, second.statusCallback!, answered)).text).toBe(EMPTY);
    expect((await carrierPost(gateway, second.statusCallback!, answered)).text).toBe(EMPTY);
    expect((await carrierPost(gateway, second.action, completed)).text).toBe(HANGUP);
    expect((await carrierPost(gateway, second.action, completed)).text).toBe(HANGUP);
    expect((await counters()).map(pick)).toEqual([
      { attempt: 1, connection: 0, concurrency: 0 },
      { attempt: 1, connection: 1, concurrency: 0 },
    ]);

    // The call ends (reported twice): one call_ended, one set of figures.
    const status = { ...fields, CallStatus: 'completed', CallDuration: '75' };
    expect((await carrierPost(gateway, `${VOICE_BASE}/status`, status)).text).toBe(EMPTY);
    const ended = (await getCall(company.id, callId)) as Record<string, any>;
    expect((await carrierPost(gateway, `${VOICE_BASE}/status`, status)).text).toBe(EMPTY);
    expect(((await getCall(company.id, callId)) as Record<string, any>).version).toBe(ended.version);
    expect(ended).toMatchObject({ status: 'completed', in_progress: false, buyer_id: buyers[1]!.id, answered_duration: 50, total_duration: 75, buyer_converted: false });
    expect(ended.attempts.map((attempt: any) => attempt.status)).toEqual(['no-answer', 'completed']);
    expect(await eventsOfCall(callId)).toEqual(['new_call', 'call_ringing', 'call_ringing', 'call_forwarded', 'call_ended']);
  });
});

describe('concurrency at the cap', () => {
  it('dials a buyer capped at 3 concurrent calls for exactly 3 of 12 simultaneous calls, and frees them when they end', async () => {
    const { company, buyers, number } = await setup([
      { number: '+12125552000', concurrency_cap_limit: 3 },
      { number: '+12125552001' },
    ]);
    const calls = Array.from({ length: 12 }, (_, index) => ({ sid: newCallSid(), from: `+1415555${String(3000 + index)}` }));
    // Every call comes in at once; none is ended until all were routed, so answered calls stay up.
    const answers = await Promise.all(calls.map((c) => carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(c.sid, c.from, number), CallStatus: 'ringing' })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    const dials = answers.map((answer) => dialOf(answer.text));
    const toCapped = dials.filter((dial) => dial?.target === '+12125552000');
    const toNext = dials.filter((dial) => dial?.target === '+12125552001');
    expect(toCapped).toHaveLength(3);
    expect(toNext).toHaveLength(9);
    expect(await showBuyer(gateway, company, buyers[0]!.id)).toMatchObject({ concurrency_cap_used: 3, attempt_daily_used: 3, maxed_out_by: 'concurrency_cap_limit' });
    expect(await showBuyer(gateway, company, buyers[1]!.id)).toMatchObject({ concurrency_cap_used: 9, attempt_daily_used: 9 });

    // The calls that fell through say why.
    for (const [index, dial] of dials.entries()) {
      if (dial?.target !== '+12125552001') continue;
      const found = await findCallByCarrierId('twilio', calls[index]!.sid);
      const routing = (found!.call.timeline as Array<Record<string, any>>).find((entry) => entry.type === 'routing');
      expect(routing!.excluded).toContainEqual({ buyer_id: buyers[0]!.id, reason: 'concurrency_cap_limit' });
    }

    // The capped buyer's three answer and stay up: a 13th call still goes to the next buyer.
    for (const [index, dial] of dials.entries()) {
      if (dial?.target === '+12125552000') await carrierPost(gateway, dial.statusCallback!, { ...callFields(`${calls[index]!.sid}-leg1`, calls[index]!.from, number), CallStatus: 'in-progress' });
    }
    const extra = { sid: newCallSid(), from: '+14155553999' };
    const extraAnswer = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(extra.sid, extra.from, number), CallStatus: 'ringing' });
    expect(dialOf(extraAnswer.text)?.target).toBe('+12125552001');

    // Every caller hangs up: both buyers are free again.
    await Promise.all(
      [...calls, extra].map((c) => carrierPost(gateway, `${VOICE_BASE}/status`, { ...callFields(c.sid, c.from, number), CallStatus: 'completed', CallDuration: '40' })),
    );
    expect(await showBuyer(gateway, company, buyers[0]!.id)).toMatchObject({ concurrency_cap_used: 0, connection_daily_used: 3, maxed_out_by: null });
    expect(await showBuyer(gateway, company, buyers[1]!.id)).toMatchObject({ concurrency_cap_used: 0, connection_daily_used: 0 });
    const statuses = await Promise.all([...calls, extra].map(async (c) => (await findCallByCarrierId('twilio', c.sid))!.call.status));
    expect(statuses.filter((s) => s === 'completed')).toHaveLength(3);
    expect(statuses.filter((s) => s === 'canceled')).toHaveLength(10);
  });
});
