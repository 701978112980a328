import { describe, expect, it } from 'vitest';
import { getCall } from '../../shared/calls/call-store.js';
import { midDayTomorrow, pinClock, restoreClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect422 } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { callFields, carrierPost, dialOf, idsOf, newCallSid, VOICE_BASE } from '../fixtures/voice.js';

const gateway = useGateway();

/** A company whose offer has one buyer that takes only calls with `region:bay`, and a tracking number. */
async function filteredOffer(label: string) {
  const company = await createTestCompany(label);
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Bay buyer', number: '+12125553000', record_token_filter_list: ['region:bay'] });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  return { company, buyer, offer, number };
}

/** The carrier's incoming webhook; the Dial's target and the call (undefined when nobody is dialed). */
async function ring(company: TestCompany, from: string, to: string) {
  const reply = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(newCallSid(), from, to), CallStatus: 'ringing' });
  expect(reply.status).toBe(200);
  const dial = dialOf(reply.text);
  return { dial, call: dial ? await getCall(company.id, idsOf(dial.action).callId) : undefined, twiml: reply.text };
}

const post = (company: TestCompany, path: string, json: unknown) => call(gateway, { method: 'POST', path, authorization: company.authorization, json });

describe('token_matchers', () => {
  it('validate their fields', async () => {
    const company = await createTestCompany('matchers-crud');
    expect422(await post(company, '/api/v1/token_matchers', { match_field: 'nowhere', match_value: 'x', set_tokens: 'a:b' }), { match_field: ['is not included in the list (called_number, caller_number, token)'] });
    expect422(await post(company, '/api/v1/token_matchers', { match_field: 'caller_number', match_type: 'regex', match_value: '(a+)+$', set_tokens: 'a:b' }), {
      match_value: ['may not repeat a group that repeats (nested quantifiers)'],
    });
    expect422(await post(company, '/api/v1/token_matchers', { match_field: 'token', match_value: 'x', set_tokens: 'a:b' }), { match_token: ["can't be blank when match_field is token"] });
    expect422(await post(company, '/api/v1/token_matchers', { match_field: 'caller_number', match_value: '+1' }), { set_tokens: ["can't be blank"] });
    const created = await createThrough(gateway, company, '/api/v1/token_matchers', { match_field: 'caller_number', match_type: 'prefix', match_value: '+1415', set_tokens: 'region:bay' });
    expect(created).toMatchObject({ match_field: 'caller_number', match_type: 'prefix', match_value: '+1415', set_tokens: 'region:bay', enabled: true, offer_id: null });
    const updated = await call(gateway, { method: 'PUT', path: `/api/v1/token_matchers/${created.id}`, authorization: company.authorization, json: { enabled: false } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.token_matcher.enabled).toBe(false);
  });

  it("set a token the buyer's filter requires: the matching caller reaches the buyer, another caller does not", async () => {
    const { company, buyer, number } = await filteredOffer('matchers-route');
    // Without a matcher, nobody has the token: no buyer.
    expect((await ring(company, '+14155550111', number.number)).dial).toBeUndefined();
    await createThrough(gateway, company, '/api/v1/token_matchers', { match_field: 'caller_number', match_type: 'prefix', match_value: '+1415', set_tokens: 'region:bay,matched:yes' });
    const bay = await ring(company, '+14155550112', number.number);
    expect(bay.dial?.target).toBe(buyer.number);
    expect(bay.call?.data).toMatchObject({ region: 'bay', matched: 'yes' });
    expect((await ring(company, '+13125550113', number.number)).dial).toBeUndefined();
  });

  it('match the called number and existing tokens (a later matcher sees an earlier one)', async () => {
    const { company, buyer, number } = await filteredOffer('matchers-chain');
    await createThrough(gateway, company, '/api/v1/token_matchers', { match_field: 'called_number', match_type: 'exact', match_value: number.number, set_tokens: 'line:main' });
    await createThrough(gateway, company, '/api/v1/token_matchers', { match_field: 'token', match_token: 'line', match_type: 'regex', match_value: '^ma', set_tokens: 'region:bay' });
    const reached = await ring(company, '+13125550114', number.number);
    expect(reached.dial?.target).toBe(buyer.number);
    expect(reached.call?.data).toMatchObject({ line: 'main', region: 'bay' });
  });
});

describe('visitor_token_matchers and the visitor number of a ring pool', () => {
  it("give a visitor a pool number whose call inherits the visitor's matched tokens", async () => {
    const { company, buyer, offer } = await filteredOffer('visitor-numbers');
    const pool = await createThrough(gateway, company, '/api/v1/ring_pools', { name: 'Landing pool', offer_id: offer.id });
    // A pool without numbers has none to give.
    expect422(await post(company, `/api/v1/ring_pools/${pool.id}/visitor_number`, { visitor: { utm_source: 'google' } }), { base: ['the ring pool has no numbers'] });
    const first = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id, ring_pool_id: pool.id });
    const second = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id, ring_pool_id: pool.id });
    expect422(await post(company, '/api/v1/visitor_token_matchers', { param_name: 'utm source', match_value: 'google', set_tokens: 'region:bay' }), { param_name: ['is not a valid parameter name'] });
    await createThrough(gateway, company, '/api/v1/visitor_token_matchers', { param_name: 'utm_source', match_value: 'google', set_tokens: 'region:bay,source:google', ring_pool_id: pool.id });

    const google = await post(company, `/api/v1/ring_pools/${pool.id}/visitor_number`, { visitor: { utm_source: 'google', utm_medium: 'cpc' } });
    expect(google.status, google.text).toBe(200);
    expect(google.body.visitor_number).toMatchObject({ ring_pool_id: pool.id, tokens: { region: 'bay', source: 'google' } });
    expect([first.number, second.number]).toContain(google.body.visitor_number.number);
    // A second visitor meanwhile gets the other number, with their own (no) tokens.
    const other = await post(company, `/api/v1/ring_pools/${pool.id}/visitor_number`, { visitor: { utm_source: 'bing' } });
    expect(other.status, other.text).toBe(200);
    expect(other.body.visitor_number.number).not.toBe(google.body.visitor_number.number);
    expect(other.body.visitor_number.tokens).toEqual({});

    const googleCall = await ring(company, '+13125550115', google.body.visitor_number.number);
    expect(googleCall.dial?.target).toBe(buyer.number);
    expect(googleCall.call?.data).toMatchObject({ region: 'bay', source: 'google' });
    expect((await ring(company, '+13125550116', other.body.visitor_number.number)).dial).toBeUndefined();
  });

  it('give a held number again to the next visitor only when every number is held, and let a passed hold lend nothing', async () => {
    const start = midDayTomorrow();
    pinClock(start);
    try {
      const { company, buyer, offer } = await filteredOffer('visitor-recycle');
      const pool = await createThrough(gateway, company, '/api/v1/ring_pools', { name: 'One-number pool', offer_id: offer.id });
      const only = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id, ring_pool_id: pool.id });
      await createThrough(gateway, company, '/api/v1/visitor_token_matchers', { param_name: 'utm_source', match_type: 'regex', match_value: '^(google|bing)$', set_tokens: 'region:bay' });
      await createThrough(gateway, company, '/api/v1/visitor_token_matchers', { param_name: 'utm_source', match_value: 'bing', set_tokens: 'engine:bing' });
      const first = await post(company, `/api/v1/ring_pools/${pool.id}/visitor_number`, { visitor: { utm_source: 'google' }, hold_seconds: 600 });
      expect(first.body.visitor_number).toMatchObject({ number: only.number, tokens: { region: 'bay' } });
      // The only number is held: the newer visitor gets it, with their tokens.
      const second = await post(company, `/api/v1/ring_pools/${pool.id}/visitor_number`, { visitor: { utm_source: 'bing' }, hold_seconds: 600 });
      expect(second.body.visitor_number).toMatchObject({ number: only.number, tokens: { region: 'bay', engine: 'bing' } });
      const during = await ring(company, '+13125550117', only.number);
      expect(during.dial?.target).toBe(buyer.number);
      expect(during.call?.data).toMatchObject({ region: 'bay', engine: 'bing' });
      // Eleven minutes later the hold has passed: a call to the number inherits nothing.
      pinClock(new Date(start.getTime() + 11 * 60_000));
      expect((await ring(company, '+13125550118', only.number)).dial).toBeUndefined();
    } finally {
      restoreClock();
    }
  });

  it("refuse another company's pool and bad visitor parameters", async () => {
    const { company, offer } = await filteredOffer('visitor-owner');
    const stranger = await createTestCompany('visitor-stranger');
    const pool = await createThrough(gateway, company, '/api/v1/ring_pools', { name: 'Pool', offer_id: offer.id });
    const foreign = await post(stranger, `/api/v1/ring_pools/${pool.id}/visitor_number`, { visitor: {} });
    expect(foreign.status, foreign.text).toBe(404);
    expect422(await post(company, `/api/v1/ring_pools/${pool.id}/visitor_number`, { visitor: { utm_source: 'x' }, hold_seconds: 5 }), { hold_seconds: ['must be between 60 and 86400'] });
  });
});
