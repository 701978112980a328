import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { simulateCall, type BuyerBehaviour } from '../../shared/local/call-simulator.js';
import { startBidder, type BidderResponse, type RunningBidder } from '../../shared/local/bidder.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { midDayTomorrow, pinClock, restoreClock } from '../fixtures/clock.js';
import { dialLead, NO_CONDITIONS } from '../../shared/leads/outbound-dial.js';
import { getCall } from '../../shared/calls/call-store.js';
import { clock } from '../../shared/adapters/clock.js';
import { storeLead } from '../fixtures/stored-leads.js';
import { placedCall, playOutboundCall } from '../fixtures/voice.js';

/**
 * Real-time bidding end to end (docs/rtb.md): bidders on loopback started here, asked by inbound
 * calls (through the voice webhooks) and by partners' pings. No assertion depends on timing: the
 * bidder that times out never answers at all.
 */
const gateway = useGateway();
const TOKEN = process.env.TWILIO_AUTH_TOKEN!;

const bidders: RunningBidder[] = [];
async function bidder(options: Parameters<typeof startBidder>[0]): Promise<RunningBidder> {
  const started = await startBidder(options);
  bidders.push(started);
  return started;
}

// Bidders listen on loopback, which the address guard refuses unless the operator allows it.
const allowLoopback = () => (process.env.WEBHOOK_ALLOWED_CIDRS = '127.0.0.0/8');
let now = midDayTomorrow();
beforeAll(() => allowLoopback());
afterAll(async () => {
  delete process.env.WEBHOOK_ALLOWED_CIDRS;
  restoreClock();
  await Promise.all(bidders.map((running) => running.close()));
});
afterEach(() => allowLoopback());

let lines = 0;
/** A caller number of its own per test, so bid caches and counters never meet. */
const caller = () => `+1415555${String(3000 + lines++).padStart(4, '0')}`;

function pin(at: Date): void {
  now = at;
  pinClock(at);
}

async function api(company: TestCompany, method: string, path: string, json?: Record<string, unknown>) {
  return call(gateway, { method, path, authorization: company.authorization, json });
}

/** An offer of these buyers (fixed ones get numbers), its tracking number and a ping webhook. */
async function offerOf(company: TestCompany, buyerFields: Array<Record<string, unknown>>, webhookFields: Record<string, unknown> = {}) {
  const buyers = [];
  for (const [index, fields] of buyerFields.entries()) buyers.push(await createThrough(gateway, company, '/api/v1/buyers', { name: `B${index + 1}`, tier: index, ...fields }));
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'RTB offer', buyer_ids: buyers.map((buyer) => buyer.id) });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  const webhook = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: `rtb-${randomUUID().slice(0, 8)}`, offer_id: offer.id, include_dynamic_buyers: true, ...webhookFields });
  return { buyers, offer, number: number.number as string, webhook };
}

const rtb = (running: RunningBidder, fields: Record<string, unknown> = {}) => ({ buyer_type: 'rtb', rtb_url: running.url, current_conversion_duration: 30, ...fields });

const placeCall = (from: string, to: string, buyers: BuyerBehaviour[]) =>
  simulateCall({ baseUrl: gateway.baseUrl, authToken: TOKEN, from, to, buyers, callSid: `CA${randomUUID().replace(/-/g, '')}` });

async function eventsOf(company: TestCompany, callId: number): Promise<Array<Record<string, any>>> {
  const reply = await api(company, 'GET', `/api/v1/calls/${callId}/events?root=false`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

async function bidsOf(company: TestCompany, buyerId: number): Promise<Array<Record<string, any>>> {
  const reply = await api(company, 'GET', `/api/v1/buyers/${buyerId}/bids`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.bids;
}

const ping = (vanity: string, from: string, extra = '') => call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${vanity}?caller_id=${encodeURIComponent(from)}${extra}` });

let company: TestCompany;
beforeAll(async () => {
  company = await createTestCompany('rtb');
  pin(midDayTomorrow());
});

describe('an inbound call on an offer with bidding buyers', () => {
  it('dials the highest bid at its returned number, pays the bid and reports it', async () => {
    const high = await bidder({ bid: 42.5, number: '+14155550142' });
    const low = await bidder({ bid: 30, number: '+14155550143' });
    const { buyers, number } = await offerOf(company, [{ number: '+12125551000', current_conversion_revenue: 20, current_conversion_duration: 30 }, rtb(high), rtb(low)]);
    const result = await placeCall(caller(), number, [{ answer: true, answerAfter: 2, talk: 90 }]);
    expect(result.outcome).toBe('completed');
    expect(result.dialed).toEqual(['+14155550142']);
    expect(high.requests).toHaveLength(1);
    // The default body: the caller and the tokens as JSON.
    expect(JSON.parse(high.requests[0]!.body)).toMatchObject({ caller_id: expect.stringMatching(/^\+1415555/), offer_id: expect.any(Number) });

    const shown = await api(company, 'GET', `/api/v1/calls/${result.callId}`);
    expect(shown.body.call).toMatchObject({ buyer_id: buyers[1]!.id, buyer_converted: true, revenue: 42.5 });
    const pings = (await eventsOf(company, result.callId!)).filter((event) => event.type === 'buyer_ping');
    expect(pings.map((event) => [event.buyer_id, event.bid, event.number, event.reason])).toEqual([
      [buyers[1]!.id, 42.5, '+14155550142', null],
      [buyers[2]!.id, 30, '+14155550143', null],
    ]);
    const logged = await bidsOf(company, buyers[1]!.id);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ source: 'call', call_id: result.callId, bid: 42.5, number: '+14155550142', status_code: 200, reason: null, request_url: high.url });

    const report = await api(company, 'GET', '/api/v1/calls/reports?category=buyer&root=false');
    expect(report.status, report.text).toBe(200);
    const row = (report.body as Array<Record<string, any>>).find((candidate) => candidate.value === buyers[1]!.id);
    expect(row).toMatchObject({ revenue: 42.5, pings: 1, bids: 1, wins: 1, win_rate: 1 });
    const loser = (report.body as Array<Record<string, any>>).find((candidate) => candidate.value === buyers[2]!.id);
    expect(loser).toMatchObject({ pings: 1, bids: 1, wins: 0, win_rate: 0 });
  });

  it('falls through to the second bid when the first does not answer', async () => {
    const first = await bidder({ bid: 50, number: '+14155550152' });
    const second = await bidder({ bid: 45, sip: 'sip:queue@pbx.example.com' });
    const { buyers, number } = await offerOf(company, [{ number: '+12125551001', current_conversion_revenue: 5 }, rtb(first), rtb(second)]);
    const result = await placeCall(caller(), number, [
      { answer: false, answerAfter: 30, talk: 0 },
      { answer: true, answerAfter: 2, talk: 60 },
    ]);
    expect(result.dialed).toEqual(['+14155550152', expect.stringMatching(/^sip:queue@pbx\.example\.com\?/)]);
    // The fall-through dials the bid kept on the call: nobody is asked again.
    expect(first.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(1);
    // Each bidder dialed at its bid won it, the fall-through's too; the one that took the call is paid its bid.
    const shown = await api(company, 'GET', `/api/v1/calls/${result.callId}`);
    expect(shown.body.call).toMatchObject({ buyer_id: buyers[2]!.id, revenue: 45 });
    const report = await api(company, 'GET', '/api/v1/calls/reports?category=buyer&root=false');
    const rowOf = (id: number) => (report.body as Array<Record<string, any>>).find((candidate) => candidate.value === id);
    expect(rowOf(buyers[1]!.id)).toMatchObject({ pings: 1, bids: 1, wins: 1 });
    expect(rowOf(buyers[2]!.id)).toMatchObject({ pings: 1, bids: 1, wins: 1, revenue: 45 });
  });

  it('asks the bidders of the offer an IVR menu answer routes to, and dials the best bid', async () => {
    const own = await createTestCompany('rtb-ivr');
    const high = await bidder({ bid: 33, number: '+14155550172' });
    const low = await bidder({ bid: 21, number: '+14155550173' });
    const { buyers, offer, number } = await offerOf(own, [{ number: '+12125551002', current_conversion_revenue: 5 }, rtb(high), rtb(low)]);
    const tracking = (await api(own, 'GET', '/api/v1/phone_numbers')).body.phone_numbers.find((candidate: Record<string, any>) => candidate.number === number);
    const sales = await createThrough(gateway, own, '/api/v1/call_router_answers', { name: 'Sales', digits: '1', destination_type: 'offer', offer_id: offer.id, token_values: { menu: 'sales' } });
    await createThrough(gateway, own, '/api/v1/call_routers', { name: 'Menu', prompt_text: 'Press 1 for sales.', phone_number_id: tracking.id, call_router_answer_ids: [sales.id] });
    const result = await simulateCall({ baseUrl: gateway.baseUrl, authToken: TOKEN, from: caller(), to: number, buyers: [{ answer: true, answerAfter: 2, talk: 60 }], keys: ['1'], callSid: `CA${randomUUID().replace(/-/g, '')}` });
    expect(result.outcome).toBe('completed');
    expect(result.dialed).toEqual(['+14155550172']);
    // Asked once, after the menu: with the menu's tokens.
    expect(high.requests).toHaveLength(1);
    expect(JSON.parse(high.requests[0]!.body)).toMatchObject({ menu: 'sales' });
    const types = ((await getCall(own.id, result.callId!))!.timeline as Array<Record<string, any>>).map((entry) => entry.type);
    expect(types.indexOf('buyer_ping')).toBeGreaterThan(types.indexOf('router_answer'));
    const shown = await api(own, 'GET', `/api/v1/calls/${result.callId}`);
    expect(shown.body.call).toMatchObject({ buyer_id: buyers[1]!.id, buyer_converted: true, revenue: 33 });
    const pings = (await eventsOf(own, result.callId!)).filter((event) => event.type === 'buyer_ping');
    expect(pings.map((event) => [event.buyer_id, event.bid])).toEqual([
      [buyers[1]!.id, 33],
      [buyers[2]!.id, 21],
    ]);
    expect((await bidsOf(own, buyers[1]!.id))[0]).toMatchObject({ source: 'call', call_id: result.callId, bid: 33 });
    const report = await api(own, 'GET', '/api/v1/calls/reports?category=buyer&root=false');
    expect((report.body as Array<Record<string, any>>).find((candidate) => candidate.value === buyers[1]!.id)).toMatchObject({ pings: 1, bids: 1, wins: 1, revenue: 33 });
  });

  it('asks the bidders when the callee of an outbound call answers, and dials the best bid', async () => {
    const own = await createTestCompany('rtb-outbound');
    const best = await bidder({ bid: 28, number: '+14155550182' });
    const { buyers, offer } = await offerOf(own, [{ number: '+12125551003', current_conversion_revenue: 5 }, rtb(best)]);
    const schedule = await createThrough(gateway, own, '/api/v1/schedules', { name: 'Follow-up', offer_id: offer.id });
    const lead = await storeLead(own.id, clock().now(), { schedule_id: schedule.id, caller_id: '+14155552671', lead_token: schedule.lead_token, phase: 'actions', data: { first_name: 'Ada', state: 'CA' } });
    const placed = await dialLead(own.id, lead, NO_CONDITIONS, clock().now());
    if (!placed.placed) throw new Error(`not placed: ${placed.reason}`);
    const stored = (await getCall(own.id, placed.callId))!;
    // Nobody is asked before the callee answers.
    expect(best.requests).toHaveLength(0);
    const played = await playOutboundCall(gateway, placedCall(String(stored.carrier_call_id)), true);
    expect(played.outcome).toBe('completed');
    expect(played.dialed).toEqual(['+14155550182']);
    expect(best.requests).toHaveLength(1);
    expect(JSON.parse(best.requests[0]!.body)).toMatchObject({ first_name: 'Ada', state: 'CA' });
    const shown = await api(own, 'GET', `/api/v1/calls/${placed.callId}`);
    expect(shown.body.call).toMatchObject({ direction: 'outbound', buyer_id: buyers[1]!.id, revenue: 28 });
    expect((await eventsOf(own, placed.callId)).filter((event) => event.type === 'buyer_ping').map((event) => event.bid)).toEqual([28]);
  });

  it('leaves out each failing bidder with its reason and still routes the call', async () => {
    const never = await bidder({ respond: (): BidderResponse => 'never' });
    const failing = await bidder({ respond: () => ({ status: 503, body: '{"error":"busy"}' }) });
    const html = await bidder({ respond: () => ({ status: 200, body: '<html><body>Bad gateway</body></html>', contentType: 'text/html' }) });
    const cheap = await bidder({ bid: 10 });
    const numberless = await bidder({ respond: () => ({ status: 200, body: '{"bidAmount":12}' }) });
    const declining = await bidder({ reject: true });
    const good = await bidder({ bid: 20, number: '+14155550162' });
    const { buyers, number } = await offerOf(company, [
      rtb(never, { rtb_timeout_ms: 100 }),
      rtb(failing),
      rtb(html),
      rtb(cheap, { rtb_min_bid: 15 }),
      rtb(numberless),
      rtb(declining),
      rtb(good),
    ]);
    const result = await placeCall(caller(), number, [{ answer: true, answerAfter: 1, talk: 40 }]);
    expect(result.dialed).toEqual(['+14155550162']);
    const reasons = Object.fromEntries((await eventsOf(company, result.callId!)).filter((event) => event.type === 'buyer_ping').map((event) => [event.buyer_id, event.reason]));
    expect(reasons).toEqual({
      [buyers[0]!.id]: 'timeout',
      [buyers[1]!.id]: 'error_status',
      [buyers[2]!.id]: 'invalid_answer',
      [buyers[3]!.id]: 'below_minimum',
      [buyers[4]!.id]: 'no_number',
      [buyers[5]!.id]: 'rejected',
      [buyers[6]!.id]: null,
    });
    expect((await bidsOf(company, buyers[3]!.id))[0]).toMatchObject({ reason: 'below_minimum', bid: 10 });
  });
});

describe('pings with include_dynamic_buyers', () => {
  it('lists the bid, and its post leads to a call dialed to the bidder without asking again', async () => {
    const running = await bidder({ bid: 42.5, number: '+14155550172' });
    const { buyers, webhook, number } = await offerOf(company, [{ number: '+12125551002', current_conversion_revenue: 20 }, rtb(running)]);
    const from = caller();
    const answered = await ping(webhook.vanity_uri, from, '&state=CA');
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body.buyers.map((buyer: Record<string, unknown>) => [buyer.buyer_id, buyer.bid])).toEqual([
      [buyers[1]!.id, 42.5],
      [buyers[0]!.id, 20],
    ]);
    expect(answered.body.best_bid).toBe(42.5);
    const logs = await api(company, 'GET', `/api/v1/inbound_webhook_logs?inbound_webhook_id=${webhook.id}&root=false`);
    expect(logs.body[0].buyer_pings).toEqual([expect.objectContaining({ buyer_id: buyers[1]!.id, bid: 42.5, reason: null, source: 'ping' })]);

    const posted = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/post/${webhook.vanity_uri}`, json: { ping_id: answered.body.buyers[0].ping_id, caller_id: from } });
    expect(posted.status, posted.text).toBe(200);
    expect(posted.body.phone_number).toBe(number);
    const result = await placeCall(from, number, [{ answer: true, answerAfter: 1, talk: 45 }]);
    expect(result.dialed).toEqual(['+14155550172']);
    expect(running.requests).toHaveLength(1);
    const shown = await api(company, 'GET', `/api/v1/calls/${result.callId}`);
    expect(shown.body.call).toMatchObject({ buyer_id: buyers[1]!.id, revenue: 42.5 });
  });

  it('reuses a bid for the same caller and tokens until it lapses, then asks again', async () => {
    const running = await bidder({ bid: 25, expireInSeconds: 60 });
    const { webhook } = await offerOf(company, [rtb(running)]);
    const from = caller();
    const start = now;
    expect((await ping(webhook.vanity_uri, from, '&zip=94105')).body.best_bid).toBe(25);
    pin(new Date(start.getTime() + 30_000));
    expect((await ping(webhook.vanity_uri, from, '&zip=94105')).body.best_bid).toBe(25);
    expect(running.requests).toHaveLength(1);
    // Other tokens are another call.
    await ping(webhook.vanity_uri, from, '&zip=10001');
    expect(running.requests).toHaveLength(2);
    pin(new Date(start.getTime() + 61_000));
    expect((await ping(webhook.vanity_uri, from, '&zip=94105')).body.best_bid).toBe(25);
    expect(running.requests).toHaveLength(3);
    // Asked over one kept-alive connection.
    expect(running.connections()).toBe(1);
  });

  it('never asks a buyer at a cap or paused, and leaves bidders out of webhooks without include_dynamic_buyers', async () => {
    const capped = await bidder({ bid: 99 });
    const paused = await bidder({ bid: 98 });
    const { buyers, webhook } = await offerOf(company, [{ number: '+12125551003', current_conversion_revenue: 5 }, rtb(capped, { attempt_daily_limit: 0 }), rtb(paused, { paused: true })]);
    const answered = await ping(webhook.vanity_uri, caller());
    expect(answered.body.buyers.map((buyer: Record<string, unknown>) => buyer.buyer_id)).toEqual([buyers[0]!.id]);
    expect(capped.requests).toHaveLength(0);
    expect(paused.requests).toHaveLength(0);

    const open = await bidder({ bid: 97 });
    const other = await offerOf(company, [{ number: '+12125551004', current_conversion_revenue: 5 }, rtb(open)], { include_dynamic_buyers: false });
    const without = await ping(other.webhook.vanity_uri, caller());
    expect(without.body.buyers.map((buyer: Record<string, unknown>) => buyer.buyer_id)).toEqual([other.buyers[0]!.id]);
    expect(open.requests).toHaveLength(0);
    const logs = await api(company, 'GET', `/api/v1/inbound_webhook_logs?inbound_webhook_id=${other.webhook.id}&root=false`);
    expect(logs.body[0].excluded_buyers).toEqual([expect.objectContaining({ buyer_id: other.buyers[1]!.id, reason: 'dynamic_buyers_not_included' })]);
  });
});

describe('rate limits of a ping with bidders', () => {
  it('counts the ping before any bidder is asked: a ping over its limit gets a 429 and asks nobody', async () => {
    const running = await bidder({ bid: 31 });
    const { webhook } = await offerOf(company, [rtb(running)], { rate_limit_per_minute: 1 });
    const first = await ping(webhook.vanity_uri, caller());
    expect(first.status, first.text).toBe(200);
    expect(first.body.best_bid).toBe(31);
    expect(running.requests).toHaveLength(1);
    const refused = await ping(webhook.vanity_uri, caller());
    expect(refused.status, refused.text).toBe(429);
    expect(refused.body).toMatchObject({ success: false, status: 429 });
    expect(refused.body.errors[0]).toContain('rate_limit_per_minute 1');
    expect(running.requests).toHaveLength(1);
    const logs = await api(company, 'GET', `/api/v1/inbound_webhook_logs?inbound_webhook_id=${webhook.id}&root=false`);
    expect(logs.body).toHaveLength(1);
  });
});

describe('secrets, the address guard and tenants', () => {
  it('sends a secret item in a header and never shows it in a log or answer', async () => {
    const secret = `sk_live_${randomUUID().replace(/-/g, '')}`;
    await createThrough(gateway, company, '/api/v1/secret_items', { name: `bidder-key-${lines}`, value: secret });
    const running = await bidder({ bid: 33, number: '+14155550182' });
    const { buyers, webhook, number } = await offerOf(company, [
      rtb(running, { rtb_url: `${running.url}?key={{secret:bidder-key-${lines}}}`, rtb_headers: { Authorization: `Bearer {{secret:bidder-key-${lines}}}` } }),
    ]);
    const from = caller();
    const answered = await ping(webhook.vanity_uri, from);
    const result = await placeCall(caller(), number, [{ answer: true, answerAfter: 1, talk: 10 }]);
    expect(running.requests[0]!.headers.authorization).toBe(`Bearer ${secret}`);
    expect(running.requests[0]!.url).toContain(secret);
    const seen = [
      answered.text,
      (await api(company, 'GET', `/api/v1/buyers/${buyers[0]!.id}/bids`)).text,
      (await api(company, 'GET', `/api/v1/inbound_webhook_logs?inbound_webhook_id=${webhook.id}`)).text,
      (await api(company, 'GET', `/api/v1/calls/${result.callId}/events`)).text,
      (await api(company, 'GET', `/api/v1/buyers/${buyers[0]!.id}`)).text,
    ];
    for (const text of seen) expect(text).not.toContain(secret);
    const [logged] = await bidsOf(company, buyers[0]!.id);
    expect(logged!.request_headers.Authorization).toBe('Bearer [REDACTED]');
    expect(logged!.request_url).toContain('key=%5BREDACTED%5D');
  });

  it('refuses a bidder on a private address unless WEBHOOK_ALLOWED_CIDRS allows it', async () => {
    const running = await bidder({ bid: 40 });
    delete process.env.WEBHOOK_ALLOWED_CIDRS;
    const refused = await api(company, 'POST', '/api/v1/buyers', { name: 'Loopback', ...rtb(running) });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.rtb_url[0]).toContain('127.0.0.1');
    allowLoopback();
    const { buyers, webhook } = await offerOf(company, [{ number: '+12125551005', current_conversion_revenue: 5 }, rtb(running)]);
    // Allowed when it was saved, not when it is asked: the connection is refused and the bidder left out.
    delete process.env.WEBHOOK_ALLOWED_CIDRS;
    const answered = await ping(webhook.vanity_uri, caller());
    expect(answered.body.buyers.map((buyer: Record<string, unknown>) => buyer.buyer_id)).toEqual([buyers[0]!.id]);
    expect(running.requests).toHaveLength(0);
    expect((await bidsOf(company, buyers[1]!.id))[0]).toMatchObject({ reason: 'refused', status_code: null });
  });

  it("keeps a buyer's bids from another company", async () => {
    const running = await bidder({ bid: 12 });
    const { buyers, webhook } = await offerOf(company, [rtb(running)]);
    await ping(webhook.vanity_uri, caller());
    const other = await createTestCompany('rtb-other');
    const reply = await call(gateway, { path: `/api/v1/buyers/${buyers[0]!.id}/bids`, authorization: other.authorization });
    expect(reply.status).toBe(404);
    expect(await bidsOf(company, buyers[0]!.id)).toHaveLength(1);
  });
});
