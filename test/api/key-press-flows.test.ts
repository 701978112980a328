import { describe, expect, it } from 'vitest';
import { eventQueue, telephonyPort } from '../../shared/adapters/index.js';
import type { CallControlRecorder } from '../../shared/adapters/local/call-control-recorder.js';
import type { TableQueue } from '../../shared/adapters/local/table-queue.js';
import { getCall } from '../../shared/calls/call-store.js';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect404, expect422, recordOf } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { workOfBodies } from '../fixtures/queue-messages.js';
import { callFields, carrierPost, dialOf, newCallSid, VOICE_BASE, VOICE_TOKEN } from '../fixtures/voice.js';

const gateway = useGateway();
// Buyer counters and rollups are per hour and day: pinned, so the file passes at any hour.
usePinnedClockForAll(midDayTomorrow);
const recorder = () => telephonyPort() as CallControlRecorder;
const send = (company: TestCompany, method: string, path: string, json?: Record<string, unknown>) => call(gateway, { method, path, authorization: company.authorization, json });

let suffix = 0;
async function world() {
  const company = await createTestCompany('key-press');
  const base = 6000 + (suffix++ % 900) * 2;
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Sales', number: `+1212555${base}` });
  const other = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Closer', number: `+1212555${base + 1}` });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  return { company, buyer, other, offer, number: number.number as string };
}

/** Binds `digits` to a new action on the offer's key press flow group. */
async function bind(w: Awaited<ReturnType<typeof world>>, digits: string, action: Record<string, unknown>) {
  const made = await createThrough(gateway, w.company, '/api/v1/call_control_actions', action);
  const flow = await createThrough(gateway, w.company, '/api/v1/key_press_flows', { digits, call_control_action_id: made.id });
  const groups = (await send(w.company, 'GET', `/api/v1/key_press_flow_groups?offer_id=${w.offer.id}`)).body.key_press_flow_groups as Array<Record<string, any>>;
  if (groups.length) await send(w.company, 'PUT', `/api/v1/key_press_flow_groups/${groups[0]!.id}`, { key_press_flow_ids: [...groups[0]!.key_press_flow_ids, flow.id] });
  else await createThrough(gateway, w.company, '/api/v1/key_press_flow_groups', { name: 'Offer keys', offer_id: w.offer.id, key_press_flow_ids: [flow.id] });
  return { action: made, flow };
}

/** A call answered by the offer's buyer and still bridged: its ids and carrier fields. */
async function liveCall(number: string) {
  const sid = newCallSid();
  const fields = callFields(sid, '+14155552671', number);
  const dial = dialOf((await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...fields, CallStatus: 'ringing' })).text)!;
  await carrierPost(gateway, dial.statusCallback!, { ...fields, CallSid: `${sid}-leg1`, CallStatus: 'in-progress' });
  const url = new URL(dial.action);
  return { sid, fields, companyId: Number(url.searchParams.get('company')), callId: Number(url.searchParams.get('call')) };
}

const press = (live: Awaited<ReturnType<typeof liveCall>>, digits: string) =>
  carrierPost(gateway, `${VOICE_BASE}/key_press?company=${live.companyId}&call=${live.callId}`, { ...live.fields, CallStatus: 'in-progress', Digits: digits });

const lastKeyPress = async (companyId: number, callId: number) => ((await getCall(companyId, callId))!.timeline as Array<Record<string, any>>).filter((entry) => entry.type === 'key_press').at(-1);

describe('key press resources', () => {
  it('creates, updates and deletes actions, flows and groups', async () => {
    const w = await world();
    const action = recordOf(await send(w.company, 'POST', '/api/v1/call_control_actions', { name: 'To closer', action_type: 'transfer', transfer_buyer_id: w.other.id }), 'call_control_action');
    expect(action).toMatchObject({ action_type: 'transfer', transfer_buyer_id: w.other.id, transfer_number: null });
    const flow = recordOf(await send(w.company, 'POST', '/api/v1/key_press_flows', { name: 'Nine', digits: 9, call_control_action_id: action.id }), 'key_press_flow');
    expect(flow).toMatchObject({ digits: '9', enabled: true });
    const group = recordOf(await send(w.company, 'POST', '/api/v1/key_press_flow_groups', { name: 'Keys', offer_id: w.offer.id, buyer_id: w.buyer.id, key_press_flow_ids: [flow.id] }), 'key_press_flow_group');
    expect(group).toMatchObject({ offer_id: w.offer.id, buyer_id: w.buyer.id, key_press_flow_ids: [flow.id] });
    expect(recordOf(await send(w.company, 'PUT', `/api/v1/call_control_actions/${action.id}`, { transfer_buyer_id: null, transfer_number: '+1 415 555 0100' }), 'call_control_action').transfer_number).toBe('+14155550100');
    expect(recordOf(await send(w.company, 'PUT', `/api/v1/key_press_flows/${flow.id}`, { digits: '*1' }), 'key_press_flow').digits).toBe('*1');
    expect((await send(w.company, 'DELETE', `/api/v1/key_press_flow_groups/${group.id}`)).status).toBe(200);
    expect404(await send(w.company, 'GET', `/api/v1/key_press_flow_groups/${group.id}`));
  });

  it('refuses actions without their fields, bad keys, a second group per offer, and another company\u2019s ids', async () => {
    const w = await world();
    const stranger = await world();
    const foreignBuyer = await createThrough(gateway, stranger.company, '/api/v1/buyers', { name: 'Theirs', number: '+12125559999' });
    expect422(await send(w.company, 'POST', '/api/v1/call_control_actions', { action_type: 'transfer' }), { transfer_number: ['set exactly one of transfer_number and transfer_buyer_id for a transfer'] });
    expect422(await send(w.company, 'POST', '/api/v1/call_control_actions', { action_type: 'transfer', transfer_number: '12' }), { transfer_number: ['is not a phone number in E.164 (+ and country code) or a sip: URI'] });
    expect422(await send(w.company, 'POST', '/api/v1/call_control_actions', { action_type: 'set_tokens' }), { token_values: ["can't be blank for a set_tokens action"] });
    expect422(await send(w.company, 'POST', '/api/v1/call_control_actions', { action_type: 'fire_webhook' }), { outgoing_webhook_id: ["can't be blank for a fire_webhook action"] });
    expect422(await send(w.company, 'POST', '/api/v1/call_control_actions', { action_type: 'dance' }), { action_type: ['is not included in the list (transfer, hangup, set_tokens, fire_webhook)'] });
    expect422(await send(w.company, 'POST', '/api/v1/call_control_actions', { action_type: 'transfer', transfer_buyer_id: foreignBuyer.id }), { transfer_buyer_id: [`does not exist: ${foreignBuyer.id}`] });
    const hangup = await createThrough(gateway, w.company, '/api/v1/call_control_actions', { action_type: 'hangup' });
    expect422(await send(w.company, 'POST', '/api/v1/key_press_flows', { digits: '123456789', call_control_action_id: hangup.id }), { digits: ['must be 1 to 8 of the keys 0-9, * and #'] });
    expect422(await send(w.company, 'POST', '/api/v1/key_press_flows', { digits: '1', call_control_action_id: hangup.id + 100 }), { call_control_action_id: [`does not exist: ${hangup.id + 100}`] });
    await createThrough(gateway, w.company, '/api/v1/key_press_flow_groups', { name: 'One', offer_id: w.offer.id });
    expect((await send(w.company, 'POST', '/api/v1/key_press_flow_groups', { name: 'Two', offer_id: w.offer.id })).status).toBe(409);
    expect422(await send(w.company, 'POST', '/api/v1/key_press_flow_groups', { name: 'Three', buyer_id: foreignBuyer.id }), { buyer_id: [`does not exist: ${foreignBuyer.id}`] });
  });
});

describe('keys pressed during a call', () => {
  it('transfers the caller: the telephony port redirects the caller\u2019s leg to dial the target', async () => {
    const w = await world();
    const { action, flow } = await bind(w, '9', { action_type: 'transfer', transfer_buyer_id: w.other.id });
    const sid = newCallSid();
    const result = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: '+14155552671', to: w.number, buyers: [{ answer: true, answerAfter: 2, talk: 20 }], keysDuringCall: '9', callSid: sid });
    const redirect = recorder().redirects.find((entry) => entry.carrierCallId === sid);
    expect(redirect?.twiml).toContain(`<Dial timeLimit="14400"><Number>${w.other.number}</Number></Dial>`);
    expect(await lastKeyPress(w.company.id, result.callId!)).toMatchObject({ digits: '9', source: 'carrier', key_press_flow_id: flow.id, call_control_action_id: action.id, action_type: 'transfer', transfer_to: w.other.number, result: 'done' });
  });

  it('sets tokens, hangs up, fires an outgoing webhook through the outbox, and records keys nothing is bound to', async () => {
    const w = await world();
    const url = await createThrough(gateway, w.company, '/api/v1/outgoing_webhook_urls', { name: 'CRM', url: 'https://crm.test/{{call_id}}' });
    const webhook = await createThrough(gateway, w.company, '/api/v1/outgoing_webhooks', { name: 'Pressed', trigger_type: 'manual', outgoing_url_ids: [url.id] });
    await bind(w, '1', { action_type: 'set_tokens', token_values: { interested: 'yes' } });
    await bind(w, '2', { action_type: 'fire_webhook', outgoing_webhook_id: webhook.id });
    await bind(w, '3', { action_type: 'hangup' });
    const live = await liveCall(w.number);

    expect((await press(live, '1')).status).toBe(200);
    expect((await getCall(w.company.id, live.callId))!.data).toMatchObject({ interested: 'yes' });

    await press(live, '2');
    const queued = workOfBodies(await (eventQueue() as TableQueue).peek());
    expect(queued.filter((message) => message.kind === 'webhook' && message.source.callId === live.callId)).toEqual([
      expect.objectContaining({ kind: 'webhook', companyId: w.company.id, outgoingWebhookId: webhook.id, urlId: url.id }),
    ]);
    expect(await lastKeyPress(w.company.id, live.callId)).toMatchObject({ action_type: 'fire_webhook', webhook_urls: 1, result: 'done' });

    await press(live, '5');
    expect(await lastKeyPress(w.company.id, live.callId)).toMatchObject({ digits: '5', result: 'no_flow' });

    await press(live, '3');
    expect(recorder().hungUp).toContain(live.sid);
  });

  it('lets the buyer\u2019s flows win over the offer\u2019s for the same keys', async () => {
    const w = await world();
    await bind(w, '7', { action_type: 'set_tokens', token_values: { by: 'offer' } });
    const buyerAction = await createThrough(gateway, w.company, '/api/v1/call_control_actions', { action_type: 'set_tokens', token_values: { by: 'buyer' } });
    const buyerFlow = await createThrough(gateway, w.company, '/api/v1/key_press_flows', { digits: '7', call_control_action_id: buyerAction.id });
    await createThrough(gateway, w.company, '/api/v1/key_press_flow_groups', { name: 'Buyer keys', buyer_id: w.buyer.id, key_press_flow_ids: [buyerFlow.id] });
    const live = await liveCall(w.number);
    await press(live, '7');
    expect((await getCall(w.company.id, live.callId))!.data).toMatchObject({ by: 'buyer' });
    expect(await lastKeyPress(w.company.id, live.callId)).toMatchObject({ key_press_flow_id: buyerFlow.id });
  });

  it('sends send_key_press digits to the carrier for a live call, records only for an ended one', async () => {
    const w = await world();
    const live = await liveCall(w.number);
    const uuid = (await getCall(w.company.id, live.callId))!.uuid;
    const reply = await send(w.company, 'POST', '/api/v1/calls/send_key_press', { id: uuid, digits: '12#' });
    expect(reply.status, reply.text).toBe(200);
    expect(recorder().digitsSent).toContainEqual({ carrierCallId: live.sid, digits: '12#' });
    expect(await lastKeyPress(w.company.id, live.callId)).toMatchObject({ digits: '12#', source: 'api', sent_to_carrier: true });

    await carrierPost(gateway, `${VOICE_BASE}/status`, { ...live.fields, CallStatus: 'completed', CallDuration: '30' });
    const before = recorder().digitsSent.length;
    expect((await send(w.company, 'POST', '/api/v1/calls/send_key_press', { id: uuid, digits: '4' })).status).toBe(200);
    expect(recorder().digitsSent).toHaveLength(before);
    expect(await lastKeyPress(w.company.id, live.callId)).toMatchObject({ digits: '4', sent_to_carrier: false });
  });
});
