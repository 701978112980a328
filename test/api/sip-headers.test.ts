import { describe, expect, it } from 'vitest';
import { getCall } from '../../shared/calls/call-store.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect422 } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { callFields, carrierPost, dialOf, idsOf, newCallSid, VOICE_BASE, VOICE_TOKEN } from '../fixtures/voice.js';

const gateway = useGateway();

const post = (company: TestCompany, path: string, json: unknown) => call(gateway, { method: 'POST', path, authorization: company.authorization, json });

async function sipOffer(label: string) {
  const company = await createTestCompany(label);
  const sipBuyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'SIP buyer', number: 'sip:desk@pbx.example.com' });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [sipBuyer.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  return { company, sipBuyer, offer, number };
}

async function ring(company: TestCompany, fields: Record<string, string>) {
  const reply = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...fields, CallStatus: 'ringing' });
  expect(reply.status).toBe(200);
  const dial = dialOf(reply.text);
  return { dial, call: dial ? await getCall(company.id, idsOf(dial.action).callId) : undefined };
}

describe('sip_headers', () => {
  it('validate names (the secure-token names are reserved) and foreign keys', async () => {
    const { company } = await sipOffer('sip-headers-crud');
    expect422(await post(company, '/api/v1/sip_headers', { name: 'X-svc_uuid', value: 'x' }), { name: ['is reserved for the secure call endpoints'] });
    expect422(await post(company, '/api/v1/sip_headers', { name: 'bad name', value: 'x' }), { name: ['is not a valid header name (letters, digits, - and _, at most 64)'] });
    const created = await createThrough(gateway, company, '/api/v1/sip_headers', { name: 'Campaign', value: '{{campaign}}' });
    expect(created).toMatchObject({ name: 'Campaign', value: '{{campaign}}', buyer_id: null, offer_id: null, enabled: true });
  });

  it("go on a SIP buyer's Dial with token values filled in and escaped, beside the secure-token headers", async () => {
    const { company, sipBuyer, offer, number } = await sipOffer('sip-headers-dial');
    await createThrough(gateway, company, '/api/v1/token_matchers', { match_field: 'called_number', match_value: number.number, set_tokens: 'campaign:spring sale&more' });
    await createThrough(gateway, company, '/api/v1/sip_headers', { name: 'Campaign', value: '{{campaign}}', buyer_id: sipBuyer.id });
    await createThrough(gateway, company, '/api/v1/sip_headers', { name: 'X-Caller', value: 'from {{caller_number}}', offer_id: offer.id });
    const other = await createThrough(gateway, company, '/api/v1/offers', { name: 'Other offer' });
    await createThrough(gateway, company, '/api/v1/sip_headers', { name: 'X-Elsewhere', value: 'no', offer_id: other.id });
    const { dial, call: stored } = await ring(company, callFields(newCallSid(), '+14155550121', number.number));
    expect(dial?.leg).toBe('Sip');
    const uri = new URL(dial!.target.replace(/^sip:/, 'sip://'));
    expect(uri.searchParams.get('X-svc_secure_token')).toBe(stored!.secure_token);
    expect(uri.searchParams.get('X-svc_uuid')).toBe(stored!.uuid);
    expect(uri.searchParams.get('X-Campaign')).toBe('spring sale&more');
    expect(uri.searchParams.get('X-Caller')).toBe('from +14155550121');
    expect(uri.searchParams.has('X-Elsewhere')).toBe(false);
    expect(dial!.target).toContain('X-Campaign=spring+sale%26more');
  });
});

describe('sip_header_parsers', () => {
  it('validate the group attachment and refuse unsafe patterns', async () => {
    const { company } = await sipOffer('sip-parsers-crud');
    expect422(await post(company, '/api/v1/sip_header_parser_groups', { name: 'Nowhere' }), { base: ['must be attached to an offer or a tracking number (offer_id or phone_number_id)'] });
    // Ids are per company: the other company's second offer has an id this company does not use.
    const { company: stranger } = await sipOffer('sip-parsers-crud-2');
    const offer = await createThrough(gateway, stranger, '/api/v1/offers', { name: 'Second' });
    const foreign = await post(company, '/api/v1/sip_header_parser_groups', { name: 'Foreign', offer_id: offer.id });
    expect(foreign.status, foreign.text).toBe(422);
    expect(Object.keys(foreign.body.errors)).toEqual(['offer_id']);
    const ownOffer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Own' });
    const group = await createThrough(gateway, company, '/api/v1/sip_header_parser_groups', { name: 'Parsers', offer_id: ownOffer.id });
    expect422(await post(company, '/api/v1/sip_header_parsers', { sip_header_parser_group_id: group.id, header_name: 'X-Id', token_name: 'id', pattern: '(\\d+)*x' }), {
      pattern: ['may not repeat a group that repeats (nested quantifiers)'],
    });
    expect422(await post(company, '/api/v1/sip_header_parsers', { sip_header_parser_group_id: group.id, header_name: 'X-Id', token_name: 'id', pattern: '(' }), { pattern: ['is not a valid regular expression'] });
  });

  it("read an incoming SIP call's header into a token that routing sees", async () => {
    const company = await createTestCompany('sip-parsers-route');
    const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Gold buyer', number: '+12125554000', record_token_filter_list: ['tier:gold'] });
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
    const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
    const group = await createThrough(gateway, company, '/api/v1/sip_header_parser_groups', { name: 'Trunk headers', phone_number_id: number.id });
    await createThrough(gateway, company, '/api/v1/sip_header_parsers', { sip_header_parser_group_id: group.id, header_name: 'X-Customer', token_name: 'tier', pattern: 'tier=(\\w+)' });
    await createThrough(gateway, company, '/api/v1/sip_header_parsers', { sip_header_parser_group_id: group.id, header_name: 'X-Account', token_name: 'account' });
    const fields = { ...callFields(newCallSid(), 'sip:caller@trunk.example.com', number.number), 'SipHeader_X-Customer': 'id=7;tier=gold', 'SipHeader_X-Account': 'A-17' };
    const { dial, call: stored } = await ring(company, fields);
    expect(dial?.target).toBe(buyer.number);
    expect(stored!.data).toMatchObject({ tier: 'gold', account: 'A-17' });
    // The simulator sends headers as the carrier does.
    const simulated = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: '+13125550122', to: number.number, sipHeaders: { 'X-Customer': 'tier=gold' }, buyers: [{ answer: true, answerAfter: 1, talk: 10 }] });
    expect(simulated.dialed).toEqual([buyer.number]);
    expect((await getCall(company.id, simulated.callId!))!.data).toMatchObject({ tier: 'gold' });
    // Without the header the token is missing and the buyer's filter keeps the call away.
    expect((await ring(company, callFields(newCallSid(), 'sip:caller@trunk.example.com', number.number))).dial).toBeUndefined();
  });
});
