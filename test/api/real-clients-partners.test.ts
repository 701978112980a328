import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway, type ApiReply } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';

/**
 * Partner ping/post scripts and lead forms written for the hosted service, each request replayed
 * exactly as the client builds it (only the host changed), asserting only what the client reads.
 * The sources, and what each one sends and reads: docs/compatibility.md, "Real clients" (the ids
 * in the test names are its rows). One company for the whole file.
 */
const gateway = useGateway();
usePinnedClockForAll(midDayTomorrow);

interface World {
  company: TestCompany;
  /** A ping/post webhook on an offer with two buyers and two numbers; partner ids `1003` and `IW7834RON`. */
  vanity: string;
  /** A webhook whose offer has no buyer: every ping fails. */
  emptyVanity: string;
  numbers: string[];
  leadToken: string;
}

let world: World;

beforeAll(async () => {
  const company = await createTestCompany('real-clients-partners');
  const buyers = [];
  for (const [index, bid] of [25, 20].entries()) {
    buyers.push(await createThrough(gateway, company, '/api/v1/buyers', { name: `Buyer ${index}`, number: `+1212555710${index}`, current_conversion_revenue: bid }));
  }
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Final expense', buyer_ids: buyers.map((buyer) => buyer.id) });
  const empty = await createThrough(gateway, company, '/api/v1/offers', { name: 'Nobody' });
  // Partners keep the traffic source ids the hosted service gave them: numeric or not.
  await createThrough(gateway, company, '/api/v1/traffic_sources', { name: 'Numeric partner', user_traffic_source_id: '1003' });
  await createThrough(gateway, company, '/api/v1/traffic_sources', { name: 'Text partner', user_traffic_source_id: 'IW7834RON' });
  await createThrough(gateway, company, '/api/v1/traffic_sources', { name: 'Docs partner', user_traffic_source_id: 'source_abc' });
  const numbers = [];
  for (let i = 0; i < 2; i++) numbers.push(String((await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id })).number));
  const vanity = `check_fe_agents_${randomUUID().slice(0, 6)}`;
  await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: vanity, offer_id: offer.id });
  const emptyVanity = `check_aca_${randomUUID().slice(0, 6)}`;
  await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: emptyVanity, offer_id: empty.id });
  world = { company, vanity, emptyVanity, numbers, leadToken: String(offer.lead_token) };
});

const CALLER = '+14155552671';
const pingPath = (vanity: string) => `/api/v1/inbound_webhooks/ping/${vanity}`;
const postPath = (vanity: string) => `/api/v1/inbound_webhooks/post/${vanity}`;
const query = (fields: Record<string, string>) => `?${new URLSearchParams(fields).toString()}`;

/** What every failing partner script does with a refusal: `data.errors.join(", ")`. */
function joinedErrors(reply: ApiReply): string {
  expect(Array.isArray(reply.body.errors), reply.text).toBe(true);
  return (reply.body.errors as string[]).join(', ');
}

describe('partner ping/post scripts', () => {
  it('[P1] GET ping with trackdrive_number, traffic_source_id, caller_id in the query; reads success, buyers[0].ping_id / try_all_buyers_ping_id', async () => {
    const reply = await call(gateway, { path: `${pingPath(world.vanity)}${query({ trackdrive_number: world.numbers[0]!, traffic_source_id: '1003', caller_id: CALLER })}` });
    expect(reply.status).toBe(200);
    expect(reply.body.success).toBe(true);
    expect(reply.body.buyers[0].ping_id).toEqual(expect.any(String));
    expect(reply.body.try_all_buyers_ping_id).toEqual(expect.any(String));
  });

  it('[P2] POST post JSON {trackdrive_number, traffic_source_id, caller_id, ping_id, zip}; reads success', async () => {
    const pinged = await call(gateway, { path: `${pingPath(world.vanity)}${query({ trackdrive_number: world.numbers[0]!, traffic_source_id: '1003', caller_id: CALLER })}` });
    const reply = await call(gateway, {
      method: 'POST',
      path: postPath(world.vanity),
      json: { trackdrive_number: world.numbers[0], traffic_source_id: '1003', caller_id: CALLER, ping_id: pinged.body.buyers[0].ping_id, zip: '90210' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.success).toBe(true);
  });

  it('[P3] a failed ping and a failed post: the script shows data.errors.join(", ")', async () => {
    const ping = await call(gateway, { path: `${pingPath(world.emptyVanity)}${query({ trackdrive_number: world.numbers[0]!, traffic_source_id: '1003', caller_id: CALLER })}` });
    expect(ping.body.success).toBe(false);
    expect(joinedErrors(ping)).toBe('No buyers are assigned to this webhook or its offer');
    const post = await call(gateway, { method: 'POST', path: postPath(world.vanity), json: { trackdrive_number: world.numbers[0], traffic_source_id: '1003', caller_id: CALLER, ping_id: '123456789' } });
    expect(post.body.success).toBe(false);
    expect(joinedErrors(post)).toBe('ping_id is unknown');
  });

  it('[P4] POST ping JSON; reads ping_data["try_all_buyers"]["ping_id"], then posts the form fields with ping_id as JSON', async () => {
    const pinged = await call(gateway, { method: 'POST', path: pingPath(world.vanity), json: { trackdrive_number: world.numbers[1], traffic_source_id: '1003', caller_id: CALLER, first_name: 'Ann', state: 'CA' } });
    expect(pinged.body.success).toBe(true);
    const pingId = pinged.body.try_all_buyers.ping_id;
    const reply = await call(gateway, { method: 'POST', path: postPath(world.vanity), json: { trackdrive_number: world.numbers[1], traffic_source_id: '1003', caller_id: CALLER, first_name: 'Ann', state: 'CA', ping_id: pingId } });
    expect(reply.body.success).toBe(true);
  });

  it('[P5] GET ping with params; checks "ping_id" in try_all_buyers; posts the form as form fields', async () => {
    const pinged = await call(gateway, { path: `${pingPath(world.vanity)}${query({ trackdrive_number: world.numbers[0]!, traffic_source_id: '1003', caller_id: CALLER })}` });
    expect(pinged.body.success).toBe(true);
    expect(pinged.body.try_all_buyers).toHaveProperty('ping_id');
    const form = new URLSearchParams({ caller_id: CALLER, first_name: 'Bo', trackdrive_number: world.numbers[0]!, traffic_source_id: '1003', ping_id: pinged.body.try_all_buyers.ping_id }).toString();
    const reply = await call(gateway, { method: 'POST', path: postPath(world.vanity), form });
    expect(reply.status).toBe(200);
    expect(reply.body.success).toBe(true);
  });

  it('[P6] ping JSON; ping id from try_all_buyers_ping_id ?? try_all_buyers.ping_id ?? buyers[0].ping_id', async () => {
    const pinged = await call(gateway, { method: 'POST', path: pingPath(world.vanity), json: { caller_id: '4155552671', traffic_source_id: '1003', zip: '10001' } });
    const pingId = pinged.body.try_all_buyers_ping_id ?? pinged.body.try_all_buyers?.ping_id ?? pinged.body.buyers?.[0]?.ping_id;
    expect(pingId).toEqual(expect.any(String));
    const reply = await call(gateway, { method: 'POST', path: postPath(world.vanity), json: { caller_id: '4155552671', traffic_source_id: '1003', zip: '10001', ping_id: pingId } });
    expect(reply.body.success).toBe(true);
  });

  it('[P7] ping POSTed with the payload in the query string too; post with query and JSON body; reads success', async () => {
    const payload = { caller_id: CALLER, traffic_source_id: '1003', first_name: 'Cy', zip: '30301' };
    const pinged = await call(gateway, { method: 'POST', path: `${pingPath(world.vanity)}${query(payload)}`, json: payload });
    expect(pinged.body.success).toBe(true);
    const posted = { ...payload, ping_id: pinged.body.try_all_buyers_ping_id };
    const reply = await call(gateway, { method: 'POST', path: `${postPath(world.vanity)}${query(posted)}`, json: posted });
    expect(reply.status).toBe(200);
    expect(reply.body.success).toBe(true);
  });

  it('[P8] post JSON {trackdrive_number, traffic_source_id, caller_id, ping_id} through a CORS proxy; reads status 200', async () => {
    const pinged = await call(gateway, { method: 'POST', path: pingPath(world.vanity), json: { trackdrive_number: world.numbers[0], traffic_source_id: '1003', caller_id: CALLER } });
    const reply = await call(gateway, { method: 'POST', path: postPath(world.vanity), json: { trackdrive_number: world.numbers[0], traffic_source_id: '1003', caller_id: CALLER, ping_id: pinged.body.try_all_buyers_ping_id } });
    expect(reply.status).toBe(200);
  });

  it('[P9] post as a GET with everything in the query and a text traffic source id; reads response.ok', async () => {
    const pinged = await call(gateway, { path: `${pingPath(world.vanity)}${query({ caller_id: CALLER, traffic_source_id: 'IW7834RON', trackdrive_number: world.numbers[0]! })}` });
    expect(pinged.body.success).toBe(true);
    const fields = { trackdrive_number: world.numbers[0]!, traffic_source_id: 'IW7834RON', caller_id: CALLER, ping_id: pinged.body.try_all_buyers_ping_id, first_name: 'Di', dob: '1950-01-02', jornaya_leadid: 'abc' };
    const reply = await call(gateway, { path: `${postPath(world.vanity)}${query(fields)}` });
    expect(reply.status).toBe(200);
  });

  it('[P10] post-only: the form posted as JSON without a ping_id; reads response.json()', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: postPath(world.vanity),
      json: { first_name: 'Ed', caller_id: CALLER, trackdrive_number: world.numbers[0], traffic_source_id: '1003', ip_address: '127.0.0.1', original_lead_submit_date: '2026-11-28 09:15:00' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.success).toBe(true);
    expect(world.numbers).toContain(reply.body.forwarding_number);
  });

  it('[P11] ping then post, each JSON {trackdrive_number, traffic_source_id, caller_id}; the proxy relays the text', async () => {
    const pinged = await call(gateway, { method: 'POST', path: pingPath(world.vanity), json: { trackdrive_number: world.numbers[1], traffic_source_id: '1003', caller_id: CALLER } });
    expect(JSON.parse(pinged.text).success).toBe(true);
    const reply = await call(gateway, { method: 'POST', path: postPath(world.vanity), json: { trackdrive_number: world.numbers[1], traffic_source_id: '1003', caller_id: CALLER, ping_id: pinged.body.try_all_buyers_ping_id } });
    expect(JSON.parse(reply.text).success).toBe(true);
  });
});

describe('the hosted service\'s ping/post guide', () => {
  it('[G1] ping JSON {caller_id: "18005551234", traffic_source_id: "source_abc"}: try_all_buyers_ping_id and buyers with buyer_id, id, name, bid, bid_price, ping_id', async () => {
    const reply = await call(gateway, { method: 'POST', path: pingPath(world.vanity), json: { caller_id: '18005551234', traffic_source_id: 'source_abc' } });
    expect(reply.status).toBe(200);
    expect(reply.body.try_all_buyers_ping_id).toEqual(expect.any(String));
    const offered = reply.body.buyers.map((buyer: any) => [buyer.name, buyer.bid, buyer.bid_price]).sort();
    expect(offered).toEqual([
      ['Buyer 0', 25, 25],
      ['Buyer 1', 20, 20],
    ]);
    for (const buyer of reply.body.buyers) {
      expect(buyer.id).toBe(buyer.buyer_id);
      expect(buyer.ping_id).toEqual(expect.any(String));
    }
  });

  it('[G2] post a buyer\'s ping_id with buyer_id; [G3] post the try-all id: both read forwarding_number', async () => {
    const pinged = (await call(gateway, { method: 'POST', path: pingPath(world.vanity), json: { caller_id: '18005551234', traffic_source_id: 'source_abc' } })).body;
    const one = pinged.buyers[0];
    const chosen = await call(gateway, { method: 'POST', path: postPath(world.vanity), json: { ping_id: one.ping_id, caller_id: '18005551234', buyer_id: one.buyer_id } });
    expect(chosen.body).toMatchObject({ success: true, forwarding_number_status: 'accepted' });
    expect(world.numbers).toContain(chosen.body.forwarding_number);
    const all = await call(gateway, { method: 'POST', path: postPath(world.vanity), json: { ping_id: pinged.try_all_buyers_ping_id, caller_id: '18005551234' } });
    expect(world.numbers).toContain(all.body.forwarding_number);
    expect(all.body.trackdrive_number).toBe(all.body.forwarding_number);
  });

  it('[G4] the FULL endpoint: one request pings and posts; reads forwarding_number', async () => {
    const reply = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/full/${world.vanity}`, json: { caller_id: '18005551234', traffic_source_id: 'source_abc' } });
    expect(reply.status).toBe(200);
    expect(reply.body.success).toBe(true);
    expect(world.numbers).toContain(reply.body.forwarding_number);
    const nobody = await call(gateway, { path: `/api/v1/inbound_webhooks/full/${world.emptyVanity}?caller_id=18005551234` });
    expect(nobody.body.success).toBe(false);
    expect(nobody.body.forwarding_number).toBeUndefined();
  });
});

describe('lead forms and lead proxies', () => {
  const form = () => ({ lead_token: world.leadToken, traffic_source_id: '1006', caller_id: '+14155550123', first_name: 'Fay', last_name: 'Gee', email: 'fay@example.com', zip: '10001', jornaya_leadid: 'j-1' });

  it('[L1] POST /leads?<URLSearchParams(formData)> with no body; the page shows status 200 and the text', async () => {
    const reply = await call(gateway, { method: 'POST', path: `/api/v1/leads${query(form())}` });
    expect(reply.status).toBe(200);
    expect(reply.text.length).toBeGreaterThan(0);
  });

  it('[L2] POST /leads?params with Accept: application/json; reads the JSON answer', async () => {
    const reply = await call(gateway, { method: 'POST', path: `/api/v1/leads${query({ ...form(), caller_id: '4155550124' })}` });
    expect(reply.status).toBe(200);
    expect(reply.body.success).toBe(true);
  });

  it('[L3] a server proxy POSTs the form as JSON; reads res.ok', async () => {
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/leads', json: { ...form(), caller_id: '+14155550125' } });
    expect(reply.status).toBe(200);
  });

  it('[L4] jQuery $.post form-encoded; reads rsp.status', async () => {
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/leads', form: new URLSearchParams({ ...form(), caller_id: '+14155550126' }).toString() });
    expect(reply.body.status).toBe(200);
  });

  it('[L5] the lead capture path: POST /leads/capture?<params>; the page accepts 200 or 201', async () => {
    const reply = await call(gateway, { method: 'POST', path: `/api/v1/leads/capture${query({ lead_token: world.leadToken, traffic_source_id: '1002', caller_id: '+14155550127' })}` });
    expect([200, 201]).toContain(reply.status);
    expect(reply.body.success).toBe(true);
  });
});
