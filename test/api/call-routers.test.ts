import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getCall } from '../../shared/calls/call-store.js';
import { simulateCall, type BuyerBehaviour } from '../../shared/local/call-simulator.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect404, expect422, recordOf } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough, receiveEvents } from '../fixtures/records.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { callFields, carrierPost, eventsOfCall, newCallSid, VOICE_BASE, VOICE_TOKEN, xmlAttribute } from '../fixtures/voice.js';

const gateway = useGateway();
// Buyer counters and rollups are per hour and day: pinned, so the file passes at any hour.
usePinnedClockForAll(midDayTomorrow);

const send = (company: TestCompany, method: string, path: string, json?: Record<string, unknown>) => call(gateway, { method, path, authorization: company.authorization, json });

let phoneSuffix = 0;
/** Two offers with a buyer each, and the tracking number of the first. */
async function world() {
  const company = await createTestCompany('ivr');
  await receiveEvents(gateway, company);
  const base = 3000 + (phoneSuffix++ % 900) * 2;
  const buyerA = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Sales', number: `+1212555${base}` });
  const buyerB = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Support', number: `+1212555${base + 1}`, record_token_filter_list: 'plan:gold' });
  const offerA = await createThrough(gateway, company, '/api/v1/offers', { name: 'Sales offer', buyer_ids: [buyerA.id] });
  const offerB = await createThrough(gateway, company, '/api/v1/offers', { name: 'Support offer', buyer_ids: [buyerB.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offerA.id });
  return { company, buyerA, buyerB, offerA, offerB, number };
}

const answered: BuyerBehaviour[] = [{ answer: true, answerAfter: 2, talk: 30 }];
const simulate = (to: string, keys: string[]) =>
  simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: '+14155552671', to, buyers: answered, keys, callSid: newCallSid() });

describe('call router resources', () => {
  it('creates, shows, lists, updates and deletes routers, answers and answer groups', async () => {
    const { company, offerA, offerB, number } = await world();
    const answer = recordOf(await send(company, 'POST', '/api/v1/call_router_answers', { name: 'Support', digits: '2', speech_keywords: 'Support, Help', destination_type: 'offer', offer_id: offerB.id, token_values: { plan: 'gold' } }), 'call_router_answer');
    expect(answer).toMatchObject({ digits: '2', speech_keywords: ['support', 'help'], destination_type: 'offer', offer_id: offerB.id, token_values: { plan: 'gold' }, enabled: true });
    const group = recordOf(await send(company, 'POST', '/api/v1/call_router_answer_groups', { name: 'Main menu', call_router_answer_ids: [answer.id] }), 'call_router_answer_group');
    const router = recordOf(
      await send(company, 'POST', '/api/v1/call_routers', { name: 'Main', prompt_text: 'Press 1 for sales, 2 for support', offer_id: offerA.id, phone_number_id: number.id, call_router_answer_group_ids: [group.id], default_call_router_answer_id: answer.id }),
      'call_router',
    );
    expect(router).toMatchObject({ max_digits: 1, timeout_seconds: 5, max_repeats: 2, speech_enabled: false, enabled: true, offer: { id: offerA.id, name: 'Sales offer' } });
    expect(recordOf(await send(company, 'GET', `/api/v1/call_routers/${router.id}`), 'call_router').call_router_answer_group_ids).toEqual([group.id]);
    const listed = await send(company, 'GET', `/api/v1/call_routers?offer_id=${offerA.id}`);
    expect(listed.body.call_routers.map((r: any) => r.id)).toEqual([router.id]);
    expect(recordOf(await send(company, 'PUT', `/api/v1/call_routers/${router.id}`, { max_repeats: 0, speech_enabled: true }), 'call_router')).toMatchObject({ max_repeats: 0, speech_enabled: true });
    expect(recordOf(await send(company, 'PUT', `/api/v1/call_router_answers/${answer.id}`, { destination_type: 'hangup' }), 'call_router_answer').destination_type).toBe('hangup');
    expect((await send(company, 'DELETE', `/api/v1/call_routers/${router.id}`)).status).toBe(200);
    expect404(await send(company, 'GET', `/api/v1/call_routers/${router.id}`));
    // The offer's router slot is free again.
    recordOf(await send(company, 'POST', '/api/v1/call_routers', { name: 'Again', offer_id: offerA.id }), 'call_router');
  });

  it('refuses bad fields, missing destinations, a second router for an offer, and another company\u2019s ids', async () => {
    const { company, offerA } = await world();
    const other = await world();
    // Ids are per company: records the other company has beyond this one's.
    const foreignOffer = await createThrough(gateway, other.company, '/api/v1/offers', { name: 'Theirs' });
    const foreignNumber = await createThrough(gateway, other.company, '/api/v1/phone_numbers', { offer_id: foreignOffer.id });
    expect422(await send(company, 'POST', '/api/v1/call_routers', { name: '', max_digits: 40, timeout_seconds: 0, max_repeats: 11 }), {
      name: ["can't be blank"],
      max_digits: ['must be between 1 and 32'],
      timeout_seconds: ['must be between 1 and 60'],
      max_repeats: ['must be between 0 and 10'],
    });
    expect422(await send(company, 'POST', '/api/v1/call_router_answers', { destination_type: 'elsewhere', digits: '1a' }), {
      destination_type: ['is not included in the list (offer, buyer_group, router, hangup)'],
      digits: ['must be 1 to 32 of the keys 0-9, * and #'],
    });
    expect422(await send(company, 'POST', '/api/v1/call_router_answers', { destination_type: 'buyer_group' }), { buyer_group_id: ["can't be blank when destination_type is buyer_group"] });
    const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, n) => [`t${n}`, 'x']));
    expect422(await send(company, 'POST', '/api/v1/call_router_answers', { destination_type: 'hangup', token_values: tooMany }), { token_values: ['has more than 20 tokens'] });
    expect422(await send(company, 'POST', '/api/v1/call_router_answers', { destination_type: 'offer', offer_id: foreignOffer.id }), { offer_id: [`does not exist: ${foreignOffer.id}`] });
    expect422(await send(company, 'POST', '/api/v1/call_routers', { name: 'X', phone_number_id: foreignNumber.id }), { phone_number_id: [`does not exist: ${foreignNumber.id}`] });
    recordOf(await send(company, 'POST', '/api/v1/call_routers', { name: 'First', offer_id: offerA.id }), 'call_router');
    expect((await send(company, 'POST', '/api/v1/call_routers', { name: 'Second', offer_id: offerA.id })).status).toBe(409);
    // Another company may attach its own router to its own offer with the same id space.
    recordOf(await send(other.company, 'POST', '/api/v1/call_routers', { name: 'Theirs', offer_id: other.offerA.id }), 'call_router');
  });
});

/** A menu on the number: 1 → offer A, 2 → offer B with plan=gold; default → offer A with menu=default. */
async function menu(w: Awaited<ReturnType<typeof world>>, routerFields: Record<string, unknown> = {}) {
  const sales = await createThrough(gateway, w.company, '/api/v1/call_router_answers', { name: 'Sales', digits: '1', destination_type: 'offer', offer_id: w.offerA.id });
  const support = await createThrough(gateway, w.company, '/api/v1/call_router_answers', { name: 'Support', digits: '2', speech_keywords: ['support'], destination_type: 'offer', offer_id: w.offerB.id, token_values: { plan: 'gold', menu: 'support' } });
  const fallback = await createThrough(gateway, w.company, '/api/v1/call_router_answers', { name: 'Default', destination_type: 'offer', offer_id: w.offerA.id, token_values: { menu: 'default' } });
  const group = await createThrough(gateway, w.company, '/api/v1/call_router_answer_groups', { name: 'Main', call_router_answer_ids: [support.id] });
  const router = await createThrough(gateway, w.company, '/api/v1/call_routers', {
    name: 'Main',
    prompt_text: 'Press 1 for sales, 2 for support.',
    invalid_input_text: 'Sorry, that is not an option.',
    phone_number_id: w.number.id,
    call_router_answer_ids: [sales.id],
    call_router_answer_group_ids: [group.id],
    default_call_router_answer_id: fallback.id,
    max_repeats: 1,
    ...routerFields,
  });
  return { router, sales, support, fallback };
}

describe('an IVR menu on a call', () => {
  it('gathers first, then routes answer 2 to offer B\u2019s buyer with the answer\u2019s tokens', async () => {
    const w = await world();
    const { router } = await menu(w);
    const result = await simulate(w.number.number, ['2']);
    const gather = result.steps[0]!.response;
    expect(gather).toContain('<Gather input="dtmf" numDigits="1" timeout="5"');
    expect(gather).toContain('<Say>Press 1 for sales, 2 for support.</Say>');
    expect(xmlAttribute(/<Gather\b[^>]*>/.exec(gather)![0], 'action')).toContain(`/router_answer?company=${w.company.id}&call=${result.callId}&step=1`);
    expect(result.dialed).toEqual([w.buyerB.number]);
    expect(result.outcome).toBe('completed');
    const stored = await getCall(w.company.id, result.callId!);
    expect(stored).toMatchObject({ status: 'completed', offer_id: w.offerB.id, offer: 'Support offer', buyer_id: w.buyerB.id, data: { plan: 'gold', menu: 'support' } });
    const types = (stored!.timeline as Array<Record<string, unknown>>).map((entry) => entry.type);
    expect(types.slice(0, 5)).toEqual(['incoming', 'router', 'router_answer', 'routing', 'dial']);
    expect((stored!.timeline as Array<Record<string, unknown>>)[2]).toMatchObject({ router_id: router.id, digits: '2', result: 'route', by: 'input', offer_id: w.offerB.id });
    // Not ringing while in the menu: call_ringing comes with the dial.
    expect(await eventsOfCall(result.callId!)).toEqual(['new_call', 'call_ringing', 'call_forwarded', 'call_ended']);
  });

  it("plays the tracking number's router when both the number and its offer have one", async () => {
    const w = await world();
    const { router } = await menu(w);
    const offerMenu = await createThrough(gateway, w.company, '/api/v1/call_routers', { name: 'Offer menu', prompt_text: 'The offer menu.', offer_id: w.offerA.id, call_router_answer_ids: [] });
    const result = await simulate(w.number.number, ['2']);
    expect(result.steps[0]!.response).toContain('<Say>Press 1 for sales, 2 for support.</Say>');
    expect(result.steps[0]!.response).not.toContain('The offer menu.');
    const stored = await getCall(w.company.id, result.callId!);
    const routerEntry = (stored!.timeline as Array<Record<string, unknown>>).find((entry) => entry.type === 'router');
    expect(routerEntry).toMatchObject({ router_id: router.id });
    expect(routerEntry!.router_id).not.toBe(offerMenu.id);
  });

  it('matches a spoken keyword when speech is on', async () => {
    const w = await world();
    await menu(w, { speech_enabled: true });
    const sid = newCallSid();
    const fields = callFields(sid, '+14155552671', w.number.number);
    const first = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...fields, CallStatus: 'ringing' });
    expect(first.text).toContain('input="dtmf speech"');
    const action = xmlAttribute(/<Gather\b[^>]*>/.exec(first.text)![0], 'action')!;
    const next = await carrierPost(gateway, action, { ...fields, CallStatus: 'in-progress', SpeechResult: 'I need Support, please.' });
    expect(next.text).toContain(`<Number`);
    expect(next.text).toContain(w.buyerB.number);
  });

  it('repeats the menu on invalid and missing input up to max_repeats, then takes the default answer', async () => {
    const w = await world();
    await menu(w);
    const result = await simulate(w.number.number, ['7']);
    // Menu, invalid 7 → menu again with the apology, no input → default (offer A, menu=default).
    expect(result.steps[1]!.response).toContain('<Say>Sorry, that is not an option.</Say><Say>Press 1 for sales, 2 for support.</Say>');
    expect(result.steps[1]!.response).toContain('step=2');
    expect(result.dialed).toEqual([w.buyerA.number]);
    const stored = await getCall(w.company.id, result.callId!);
    expect(stored).toMatchObject({ offer_id: w.offerA.id, data: { menu: 'default' } });
    const answers = (stored!.timeline as Array<Record<string, any>>).filter((entry) => entry.type === 'router_answer');
    expect(answers.map((entry) => [entry.result, entry.reason ?? entry.by])).toEqual([
      ['repeat', 'invalid_input'],
      ['route', 'default'],
    ]);
  });

  it('hangs up without a default answer, and a caller hanging up in the menu ends the call canceled', async () => {
    const w = await world();
    const { router } = await menu(w);
    await send(w.company, 'PUT', `/api/v1/call_routers/${router.id}`, { default_call_router_answer_id: null, max_repeats: 0 });
    const result = await simulate(w.number.number, []);
    expect(result.dialed).toEqual([]);
    expect(result.steps[1]!.response).toContain('<Hangup/>');
    expect(await getCall(w.company.id, result.callId ?? Number(new URL(result.steps[1]!.request).searchParams.get('call')))).toMatchObject({ status: 'canceled', in_progress: false });

    const sid = newCallSid();
    const fields = callFields(sid, '+14155552671', w.number.number);
    const first = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...fields, CallStatus: 'ringing' });
    const callId = Number(new URL(xmlAttribute(/<Gather\b[^>]*>/.exec(first.text)![0], 'action')!).searchParams.get('call'));
    expect(await getCall(w.company.id, callId)).toMatchObject({ status: 'ivr', in_progress: true });
    await carrierPost(gateway, `${VOICE_BASE}/status`, { ...fields, CallStatus: 'completed', CallDuration: '4' });
    expect(await getCall(w.company.id, callId)).toMatchObject({ status: 'canceled', in_progress: false, total_duration: 4, rolled_up: true });
  });

  it('goes on to another router, and a retried answer does not route twice', async () => {
    const w = await world();
    const second = await createThrough(gateway, w.company, '/api/v1/call_routers', { name: 'Second', prompt_text: 'Press 3 for billing.' });
    const billing = await createThrough(gateway, w.company, '/api/v1/call_router_answers', { digits: '3', destination_type: 'offer', offer_id: w.offerB.id, token_values: { plan: 'gold' } });
    await send(w.company, 'PUT', `/api/v1/call_routers/${second.id}`, { call_router_answer_ids: [billing.id] });
    const toSecond = await createThrough(gateway, w.company, '/api/v1/call_router_answers', { digits: '9', destination_type: 'router', next_call_router_id: second.id });
    await createThrough(gateway, w.company, '/api/v1/call_routers', { name: 'Main', prompt_text: 'Press 9 for more.', offer_id: w.offerA.id, call_router_answer_ids: [toSecond.id] });

    const sid = newCallSid();
    const fields = callFields(sid, '+14155552671', w.number.number);
    const first = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...fields, CallStatus: 'ringing' });
    const step1 = xmlAttribute(/<Gather\b[^>]*>/.exec(first.text)![0], 'action')!;
    const menu2 = await carrierPost(gateway, step1, { ...fields, Digits: '9' });
    expect(menu2.text).toContain('<Say>Press 3 for billing.</Say>');
    const step2 = xmlAttribute(/<Gather\b[^>]*>/.exec(menu2.text)![0], 'action')!;
    const dial = await carrierPost(gateway, step2, { ...fields, Digits: '3' });
    expect(dial.text).toContain(w.buyerB.number);
    // The carrier retries both answers: the same dial, nothing claimed again.
    expect((await carrierPost(gateway, step2, { ...fields, Digits: '3' })).text).toBe(dial.text);
    expect((await carrierPost(gateway, step1, { ...fields, Digits: '9' })).text).toBe(dial.text);
    const callId = Number(new URL(step1).searchParams.get('call'));
    const stored = await getCall(w.company.id, callId);
    expect(stored!.attempts).toHaveLength(1);
    expect((stored!.timeline as Array<Record<string, any>>).filter((entry) => entry.type === 'routing')).toHaveLength(1);
    // One claim of the buyer's concurrency, not three.
    expect(recordOf(await send(w.company, 'GET', `/api/v1/buyers/${w.buyerB.id}`), 'buyer').concurrency_cap_used).toBe(1);
  });

  it('routes an answer to a buyer group\u2019s buyers, and a hangup answer ends the call', async () => {
    const w = await world();
    const group = await createThrough(gateway, w.company, '/api/v1/buyer_groups/0', { name: 'Support team', buyer_ids: [w.buyerB.id] });
    const toGroup = await createThrough(gateway, w.company, '/api/v1/call_router_answers', { digits: '4', destination_type: 'buyer_group', buyer_group_id: group.id, token_values: { plan: 'gold' } });
    const bye = await createThrough(gateway, w.company, '/api/v1/call_router_answers', { digits: '0', destination_type: 'hangup', token_values: { opted_out: true } });
    await createThrough(gateway, w.company, '/api/v1/call_routers', { name: 'Main', prompt_text: 'Press 4 for the team, 0 to leave.', offer_id: w.offerA.id, call_router_answer_ids: [toGroup.id, bye.id] });
    const toTeam = await simulate(w.number.number, ['4']);
    expect(toTeam.dialed).toEqual([w.buyerB.number]);
    expect(await getCall(w.company.id, toTeam.callId!)).toMatchObject({ offer_id: w.offerA.id, buyer_id: w.buyerB.id, data: { plan: 'gold' } });
    const leaving = await simulate(w.number.number, ['0']);
    expect(leaving.dialed).toEqual([]);
    expect(leaving.steps[1]!.response).toContain('<Hangup/>');
    const callId = Number(new URL(leaving.steps[1]!.request).searchParams.get('call'));
    expect(await getCall(w.company.id, callId)).toMatchObject({ status: 'canceled', in_progress: false, data: { opted_out: true } });
  });

  it('answers a router_answer naming another company\u2019s call or garbage with a hang-up', async () => {
    const w = await world();
    const stranger = await createTestCompany('ivr-stranger');
    await menu(w);
    const sid = newCallSid();
    const fields = callFields(sid, '+14155552671', w.number.number);
    const first = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...fields, CallStatus: 'ringing' });
    const callId = Number(new URL(xmlAttribute(/<Gather\b[^>]*>/.exec(first.text)![0], 'action')!).searchParams.get('call'));
    const foreign = await carrierPost(gateway, `${VOICE_BASE}/router_answer?company=${stranger.id}&call=${callId}&step=1`, { ...fields, Digits: '2' });
    expect(foreign.status).toBe(200);
    expect(foreign.text).toContain('<Hangup/>');
    expect((await carrierPost(gateway, `${VOICE_BASE}/router_answer?company=x&call=${randomUUID()}&step=1`, { ...fields, Digits: '2' })).text).toContain('<Hangup/>');
    expect(await getCall(w.company.id, callId)).toMatchObject({ status: 'ivr', in_progress: true });
  });
});
