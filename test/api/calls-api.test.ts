import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telephonyPort } from '../../shared/adapters/index.js';
import type { CallControlRecorder } from '../../shared/adapters/local/call-control-recorder.js';
import { createCall, getCall, type CallRecord } from '../../shared/calls/call-store.js';
import { simulateCall, type BuyerBehaviour } from '../../shared/local/call-simulator.js';
import { twilioSignature } from '../../shared/voice/twilio-signature.js';
import { callRecordAt } from '../fixtures/call-records.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect422 } from '../fixtures/envelope.js';
import { call as send, startTestGateway, type ApiReply, type TestGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { clock } from '../../shared/adapters/clock.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';

const TOKEN = process.env.TWILIO_AUTH_TOKEN!;
const DAY_MS = 24 * 60 * 60 * 1000;
const CALLER_1 = '+14155550001';
const CALLER_2 = '+14155550002';
const CALLER_3 = '+14155550003';

let gateway: TestGateway;

const sid = () => `CA${randomUUID().replace(/-/g, '')}`;

function get(company: TestCompany, path: string): Promise<ApiReply> {
  return send(gateway, { path, authorization: company.authorization });
}

function post(company: TestCompany, path: string, json: Record<string, unknown>): Promise<ApiReply> {
  return send(gateway, { method: 'POST', path, authorization: company.authorization, json });
}

/** A whole call through the carrier simulator; its id. */
async function simulate(to: string, from: string, buyers: BuyerBehaviour[]): Promise<number> {
  const result = await simulateCall({ baseUrl: gateway.baseUrl, authToken: TOKEN, from, to, buyers, callSid: sid() });
  expect(result.callId).toBeGreaterThan(0);
  return result.callId!;
}

/** Only the carrier's first webhook: the call is ringing its first buyer, in progress. */
async function startLiveCall(to: string, from: string): Promise<{ callSid: string; callId: number }> {
  const callSid = sid();
  const url = `${gateway.baseUrl}/api/v1/voice/twilio/incoming`;
  const fields = { CallSid: callSid, AccountSid: 'ACtest', From: from, To: to, Direction: 'inbound', CallStatus: 'ringing' };
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(TOKEN, url, fields) },
    body: new URLSearchParams(fields).toString(),
  });
  const twiml = await response.text();
  expect(response.status, twiml).toBe(200);
  const action = /<Dial\b[^>]*action="([^"]*)"/.exec(twiml)?.[1]?.replace(/&amp;/g, '&');
  expect(action, twiml).toBeDefined();
  return { callSid, callId: Number(new URL(action!, gateway.baseUrl).searchParams.get('call')) };
}

/** The carrier's final status callback: the call ends. */
async function endCall(callSid: string, to: string, from: string): Promise<void> {
  const url = `${gateway.baseUrl}/api/v1/voice/twilio/status`;
  const fields = { CallSid: callSid, AccountSid: 'ACtest', From: from, To: to, Direction: 'inbound', CallStatus: 'completed', CallDuration: '20' };
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(TOKEN, url, fields) },
    body: new URLSearchParams(fields).toString(),
  });
  expect(response.status).toBe(200);
}

/** Noon (UTC) `daysAgo` days before today: far from any day boundary. */
function noonDaysAgo(daysAgo: number): Date {
  return new Date(Date.parse(`${clock().now().toISOString().slice(0, 10)}T12:00:00Z`) - daysAgo * DAY_MS);
}

/** A finished call written straight to the table, made at noon `daysAgo` days ago. */
async function seedOldCall(companyId: number, daysAgo: number, fields: Partial<CallRecord> & Record<string, unknown> = {}): Promise<number> {
  const record = callRecordAt(noonDaysAgo(daysAgo).getTime(), fields);
  expect(await createCall(companyId, record)).toBe(true);
  return record.id;
}

const idsOf = (rows: Array<Record<string, any>>): number[] => rows.map((row) => row.id as number);

interface World {
  company: TestCompany;
  other: TestCompany;
  buyer1: Record<string, any>;
  buyer2: Record<string, any>;
  trafficSource: Record<string, any>;
  offer1: Record<string, any>;
  offer2: Record<string, any>;
  number1: Record<string, any>;
  number2: Record<string, any>;
  /** Caller 1 to offer 1: answered 90 s, converted for buyer 1 (25) and paid out (5). */
  converted: number;
  /** Caller 2 to offer 2: answered 10 s, too short for buyer 2's conversion. */
  short: number;
  /** Caller 1 to offer 2: not answered. */
  missed: number;
  /** Caller 3 to offer 1: ringing buyer 1 (in progress). */
  live: { callSid: string; callId: number };
  /** Made 10 days ago (in the default window) and 40 days ago (before it). */
  tenDaysAgo: number;
  tenDaysAgoDay: string;
  fortyDaysAgo: number;
  otherCall: number;
}

let world: World;

// Counters, caps, rollups and charges are per hour and UTC day: pinned mid-day, mid-minute so the
// file passes at any hour.
usePinnedClockForAll(midDayTomorrow);

/**
 * A company with the calls the list tests read (and another company with one call). Tests that
 * change calls build a world of their own, so the list tests see the same world in any order.
 */
async function buildWorld(): Promise<World> {
  const company = await createTestCompany('calls-api');
  const other = await createTestCompany('calls-api-other');
  const buyer1 = await createThrough(gateway, company, '/api/v1/buyers', { name: 'B1', number: '+12125557001', current_conversion_revenue: 25, current_conversion_duration: 30 });
  const buyer2 = await createThrough(gateway, company, '/api/v1/buyers', { name: 'B2', number: '+12125557002', current_conversion_revenue: 10, current_conversion_duration: 60 });
  const trafficSource = await createThrough(gateway, company, '/api/v1/traffic_sources', { name: 'Search' });
  const offer1 = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer 1', buyer_ids: [buyer1.id] });
  const offer2 = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer 2', buyer_ids: [buyer2.id] });
  await createThrough(gateway, company, '/api/v1/offer_conversions', { name: 'Paid call', offer_id: offer1.id, duration: 30, duplicate_timeframe: 0, payout: 5 });
  const number1 = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer1.id, traffic_source_id: trafficSource.id });
  const number2 = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer2.id });

  const converted = await simulate(number1.number, CALLER_1, [{ answer: true, answerAfter: 3, talk: 90 }]);
  const short = await simulate(number2.number, CALLER_2, [{ answer: true, answerAfter: 3, talk: 10 }]);
  const missed = await simulate(number2.number, CALLER_1, [{ answer: false, answerAfter: 30, talk: 0 }]);
  const live = await startLiveCall(number1.number, CALLER_3);
  const tenDaysAgo = await seedOldCall(company.id, 10, { caller_number: CALLER_2 });
  const fortyDaysAgo = await seedOldCall(company.id, 40, { caller_number: CALLER_2 });

  // Another company with a call from the same caller.
  const otherBuyer = await createThrough(gateway, other, '/api/v1/buyers', { name: 'OB', number: '+12125557009' });
  const otherOffer = await createThrough(gateway, other, '/api/v1/offers', { name: 'Other offer', buyer_ids: [otherBuyer.id] });
  const otherNumber = await createThrough(gateway, other, '/api/v1/phone_numbers', { offer_id: otherOffer.id });
  const otherCall = await simulate(otherNumber.number, CALLER_1, [{ answer: true, answerAfter: 2, talk: 40 }]);

  const tenDaysAgoDay = noonDaysAgo(10).toISOString().slice(0, 10);
  return { company, other, buyer1, buyer2, trafficSource, offer1, offer2, number1, number2, converted, short, missed, live, tenDaysAgo, tenDaysAgoDay, fortyDaysAgo, otherCall };
}

beforeAll(async () => {
  gateway = await startTestGateway();
  world = await buildWorld();
});

afterAll(async () => gateway.close());

async function listAll(company: TestCompany, query = ''): Promise<Record<string, any>[]> {
  const reply = await get(company, `/api/v1/calls?per_page=100${query}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.calls;
}

describe('GET /api/v1/calls/:id', () => {
  it('shows a call by id and by uuid, as the call flow left it', async () => {
    const byId = await get(world.company, `/api/v1/calls/${world.converted}`);
    expect(byId.status, byId.text).toBe(200);
    expect(byId.body.metadata).toEqual({ root: 'call' });
    expect(byId.body.call).toMatchObject({
      id: world.converted,
      type: 'Call',
      status: 'completed',
      in_progress: false,
      buyer_id: world.buyer1.id,
      offer_id: world.offer1.id,
      traffic_source_id: world.trafficSource.id,
      number_id: world.number1.id,
      caller_number: CALLER_1,
      buyer_converted: true,
      revenue: 25,
      offer_converted: true,
      payout: 5,
      profit: 20,
      routes_show_path: `/api/v1/calls/${world.converted}`,
    });
    expect(byId.body.call).not.toHaveProperty('secure_token');
    const byUuid = await get(world.company, `/api/v1/calls/${byId.body.call.uuid}`);
    expect(byUuid.status).toBe(200);
    expect(byUuid.body.call).toEqual(byId.body.call);
  });

  it('answers 404 for unknown ids, malformed ids and unknown uuids', async () => {
    for (const id of ['999', 'abc', randomUUID(), '1.5']) {
      expect((await get(world.company, `/api/v1/calls/${id}`)).status, id).toBe(404);
    }
  });

  it('shows times in time_zone and only the columns asked for', async () => {
    const reply = await get(world.company, `/api/v1/calls/${world.converted}?time_zone=America/New_York&columns=id,created_at,revenue`);
    expect(reply.status, reply.text).toBe(200);
    expect(Object.keys(reply.body.call)).toEqual(['id', 'created_at', 'revenue']);
    expect(reply.body.call.created_at).toMatch(/-0[45]:00$/);
  });
});

describe('GET /api/v1/calls/live_calls', () => {
  it('wins over /calls/{id} and lists only the calls in progress', async () => {
    const reply = await get(world.company, '/api/v1/calls/live_calls');
    expect(reply.status, reply.text).toBe(200);
    expect(idsOf(reply.body.calls)).toEqual([world.live.callId]);
    expect(reply.body.calls[0]).toMatchObject({ in_progress: true, status: 'ringing', caller_number: CALLER_3 });
    expect(reply.body.metadata.next_cursor).toBe(0);
  });
});

describe('GET /api/v1/calls', () => {
  it('lists the calls of the last 30 days, newest first, and none of another company', async () => {
    const reply = await get(world.company, '/api/v1/calls');
    expect(reply.status, reply.text).toBe(200);
    expect(idsOf(reply.body.calls)).toEqual([world.live.callId, world.missed, world.short, world.converted, world.tenDaysAgo]);
    expect(reply.body.metadata).toMatchObject({ root: 'calls', per_page: 25, cursor: '-1', next_cursor: 0 });
    const others = await listAll(world.other);
    expect(idsOf(others)).toEqual([world.otherCall]);
  });

  it('reads further back with created_at_from and narrows with created_at_to', async () => {
    const from = new Date(clock().now().getTime() - 45 * DAY_MS).toISOString();
    const all = await listAll(world.company, `&created_at_from=${encodeURIComponent(from)}`);
    expect(idsOf(all)).toContain(world.fortyDaysAgo);
    expect(all).toHaveLength(6);
    const to = new Date(clock().now().getTime() - 5 * DAY_MS).toISOString();
    const old = await listAll(world.company, `&created_at_from=${encodeURIComponent(from)}&created_at_to=${encodeURIComponent(to)}`);
    expect(idsOf(old)).toEqual([world.tenDaysAgo, world.fortyDaysAgo]);
    // The same bounds read as wall-clock times of a zone.
    const day = world.tenDaysAgoDay;
    const zoned = await listAll(world.company, `&created_at_from=${day} 00:00:00&created_at_to=${day} 23:59:59&time_zone=UTC`);
    expect(idsOf(zoned)).toEqual([world.tenDaysAgo]);
  });

  it('filters by ended_at', async () => {
    const to = new Date(clock().now().getTime() - 5 * DAY_MS).toISOString();
    expect(idsOf(await listAll(world.company, `&ended_at_to=${encodeURIComponent(to)}`))).toEqual([world.tenDaysAgo]);
    const from = new Date(clock().now().getTime() - 5 * DAY_MS).toISOString();
    // The live call has not ended: it passes no ended_at bound.
    expect(idsOf(await listAll(world.company, `&ended_at_from=${encodeURIComponent(from)}`))).toEqual([world.missed, world.short, world.converted]);
  });

  it('narrows with each filter', async () => {
    const all = await listAll(world.company);
    expect(all).toHaveLength(5);
    const cases: Array<[string, (call: Record<string, any>) => boolean]> = [
      ['buyer_converted=true', (c) => c.buyer_converted === true],
      ['buyer_converted=no', (c) => c.buyer_converted === false],
      ['offer_converted=1', (c) => c.offer_converted === true],
      ['offer_converted=off', (c) => c.offer_converted === false],
      ['in_progress=yes', (c) => c.in_progress === true],
      ['in_progress=false', (c) => c.in_progress === false],
      [`traffic_source_id=${world.trafficSource.id}`, (c) => c.traffic_source_id === world.trafficSource.id],
      [`offer_id=${world.offer2.id}`, (c) => c.offer_id === world.offer2.id],
      [`buyer_id=${world.buyer1.id}`, (c) => c.buyer_id === world.buyer1.id],
      [`number_id=${world.number2.id}`, (c) => c.number_id === world.number2.id],
      [`caller_number=${encodeURIComponent('(415) 555-0001')}`, (c) => c.caller_number === CALLER_1],
      [`caller_number=4155550002&buyer_converted=false`, (c) => c.caller_number === CALLER_2 && c.buyer_converted === false],
      [`offer_id=${world.offer1.id}&in_progress=true`, (c) => c.offer_id === world.offer1.id && c.in_progress === true],
      ['status=completed', (c) => c.status === 'completed'],
      ['status=ringing&in_progress=true', (c) => c.status === 'ringing'],
    ];
    for (const [query, keep] of cases) {
      const expected = idsOf(all.filter(keep));
      expect(expected.length, query).toBeGreaterThan(0);
      expect(expected.length, query).toBeLessThan(all.length);
      expect(idsOf(await listAll(world.company, `&${query}`)), query).toEqual(expected);
    }
  });

  it('lists named ids only', async () => {
    const reply = await listAll(world.company, `&ids=${world.converted},${world.short},${world.otherCall},${world.fortyDaysAgo}`);
    // Another company's call is not found; an explicit id is not held to the 30-day window.
    expect(idsOf(reply)).toEqual([world.short, world.converted, world.fortyDaysAgo]);
  });

  it('refuses bad filters, unknown columns and oversized pages with 422', async () => {
    expect422(await get(world.company, '/api/v1/calls?buyer_converted=maybe'), {
      buyer_converted: ['is not a valid boolean (use 1, true, yes, on, 0, false, no or off)'],
    });
    expect422(await get(world.company, '/api/v1/calls?columns=id,secure_token'), { columns: ['unknown column secure_token'] });
    expect422(await get(world.company, '/api/v1/calls?caller_number=12'), { caller_number: ['is not a phone number'] });
    expect422(await get(world.company, '/api/v1/calls?offer_id=x'), { offer_id: ['is not an integer'] });
    expect422(await get(world.company, '/api/v1/calls?status=done'), { status: ['is not included in the list (ringing, dialing, ivr, in_progress, completed, no_answer, no_buyer, blocked, canceled, busy, failed)'] });
    expect422(await get(world.company, '/api/v1/calls?per_page=501'), { per_page: ['must be at most 500'] });
    expect422(await get(world.company, '/api/v1/calls?ended_at_from=yesterday'), { ended_at_from: ['is not a valid time (use YYYY-MM-DD HH:MM:SS +ZZZZ)'] });
    expect422(await get(world.company, '/api/v1/calls?cursor=not-a-cursor'), { cursor: ['is not a valid cursor'] });
  });

  it('pages by cursor, every call once, and refuses a cursor of another company', async () => {
    const seen: number[] = [];
    let cursor: string | number = '-1';
    let pages = 0;
    while (cursor !== 0) {
      const reply = await get(world.company, `/api/v1/calls?per_page=2&cursor=${encodeURIComponent(String(cursor))}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get('x-next-cursor')).toBe(String(reply.body.metadata.next_cursor));
      seen.push(...idsOf(reply.body.calls));
      cursor = reply.body.metadata.next_cursor;
      pages += 1;
      if (cursor !== 0) {
        const stolen = await get(world.other, `/api/v1/calls?cursor=${encodeURIComponent(String(cursor))}`);
        expect422(stolen, { cursor: ['is not a valid cursor'] });
      }
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(idsOf(await listAll(world.company)));
  });

  it('pages by page number too', async () => {
    const all = idsOf(await listAll(world.company));
    const second = await get(world.company, '/api/v1/calls?per_page=2&page=2');
    expect(second.status, second.text).toBe(200);
    expect(idsOf(second.body.calls)).toEqual(all.slice(2, 4));
    expect(second.body.metadata).toMatchObject({ page: 2, per_page: 2 });
    // The page's cursor goes on from there.
    const next = await get(world.company, `/api/v1/calls?per_page=2&cursor=${encodeURIComponent(second.body.metadata.next_cursor)}`);
    expect(idsOf(next.body.calls)).toEqual(all.slice(4, 6));
  });

  it('answers the bare array with root=false and only the asked columns', async () => {
    const reply = await get(world.company, '/api/v1/calls?root=false&columns=id,caller_number,revenue');
    expect(reply.status, reply.text).toBe(200);
    expect(Array.isArray(reply.body)).toBe(true);
    expect(reply.body).toHaveLength(5);
    for (const row of reply.body) expect(Object.keys(row)).toEqual(['id', 'caller_number', 'revenue']);
    expect(reply.headers.get('x-next-cursor')).toBe('0');
  });

  it('serves CSV that parses back to the JSON list (format=csv and .csv)', async () => {
    const json = await listAll(world.company);
    const asText = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
    for (const path of ['/api/v1/calls?per_page=100&format=csv', '/api/v1/calls.csv?per_page=100']) {
      const reply = await get(world.company, path);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get('content-type')).toContain('text/csv');
      const rows = parse(reply.text, { columns: true }) as Record<string, string>[];
      expect(rows).toEqual(json.map((call) => Object.fromEntries(Object.entries(call).map(([key, value]) => [key, asText(value)]))));
      expect(Object.keys(rows[0]!)).toContain('data');
    }
    const narrow = await get(world.company, `/api/v1/calls.csv?columns=id,revenue&buyer_converted=true`);
    expect(parse(narrow.text, { columns: true })).toEqual([{ id: String(world.converted), revenue: '25' }]);
  });
});

describe('GET /api/v1/calls/:caller_number/by_caller_number', () => {
  it("lists a caller's calls newest first, whatever their age, in the number's shapes", async () => {
    const reply = await get(world.company, `/api/v1/calls/${encodeURIComponent('(415) 555-0002')}/by_caller_number`);
    expect(reply.status, reply.text).toBe(200);
    expect(idsOf(reply.body.calls)).toEqual([world.short, world.tenDaysAgo, world.fortyDaysAgo]);
    expect(reply.body.metadata.caller_number).toBe(CALLER_2);
    const ofCaller1 = await get(world.company, `/api/v1/calls/${encodeURIComponent(CALLER_1)}/by_caller_number?per_page=1`);
    expect(idsOf(ofCaller1.body.calls)).toEqual([world.missed]);
    const next = await get(world.company, `/api/v1/calls/${encodeURIComponent(CALLER_1)}/by_caller_number?per_page=1&cursor=${encodeURIComponent(ofCaller1.body.metadata.next_cursor)}`);
    expect(idsOf(next.body.calls)).toEqual([world.converted]);
    expect(next.body.metadata.next_cursor).toBe(0);
  });

  it("shows another company only its own calls of that caller; refuses a non-number", async () => {
    const reply = await get(world.other, `/api/v1/calls/${encodeURIComponent(CALLER_1)}/by_caller_number`);
    expect(idsOf(reply.body.calls)).toEqual([world.otherCall]);
    expect422(await get(world.company, '/api/v1/calls/abc/by_caller_number'), { caller_number: ['is not a phone number'] });
  });
});

describe('GET /api/v1/calls/:id/events and GET /api/v1/charge_rollups', () => {
  async function rollupsOf(company: TestCompany, query = ''): Promise<Record<string, any>[]> {
    const reply = await get(company, `/api/v1/charge_rollups${query}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.charge_rollups;
  }

  async function totalCharged(company: TestCompany): Promise<{ count: number; amount: number }> {
    const rollups = await rollupsOf(company);
    return rollups.reduce<{ count: number; amount: number }>((sum, rollup) => ({ count: sum.count + rollup.count, amount: sum.amount + rollup.amount }), { count: 0, amount: 0 });
  }

  it('answers the call timeline as events and charges each request', async () => {
    const company = world.company;
    const before = await totalCharged(company);
    const reply = await get(company, `/api/v1/calls/${world.converted}/events`);
    expect(reply.status, reply.text).toBe(200);
    const types = reply.body.events.map((event: Record<string, any>) => event.type);
    expect(types.slice(0, 3)).toEqual(['incoming', 'routing', 'dial']);
    expect(types).toContain('buyer_conversion');
    expect(types).toContain('traffic_source_payout');
    expect(types.at(-1)).toBe('ended');
    expect(reply.body.events[1]).toMatchObject({ position: 2, type: 'routing', chosen: world.buyer1.id });
    expect(reply.body.events[0].at).toMatch(/\+00:00$/);
    expect(reply.body.metadata).toMatchObject({ call_id: world.converted, total_count: types.length, charge: { kind: 'advanced_call_analysis', amount: 0.0002 } });
    // By uuid, bare.
    const uuid = (await getCall(company.id, world.converted))!.uuid;
    const bare = await get(company, `/api/v1/calls/${uuid}/events?root=false`);
    expect(bare.body).toEqual(reply.body.events);
    const after = await totalCharged(company);
    expect(after.count).toBe(before.count + 2);
    expect(after.amount).toBeCloseTo(before.amount + 0.0004, 10);
  });

  it('sums exactly per day, filters by day and time, and does not charge a 404', async () => {
    const company = await createTestCompany('calls-charges');
    const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'C', number: '+12125557011' });
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'C offer', buyer_ids: [buyer.id] });
    const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
    const id = await simulate(number.number, CALLER_2, [{ answer: true, answerAfter: 1, talk: 5 }]);
    expect(await rollupsOf(company)).toEqual([]);
    for (let i = 0; i < 5; i++) expect((await get(company, `/api/v1/calls/${id}/events`)).status).toBe(200);
    expect((await get(company, `/api/v1/calls/${world.converted}/events`)).status).toBe(404);
    const rollups = await rollupsOf(company);
    // The five requests fall on one UTC day unless they straddle midnight.
    const count = rollups.reduce((sum, rollup) => sum + rollup.count, 0);
    expect(count).toBe(5);
    const rollup = rollups[0]!;
    expect(Object.keys(rollup)).toEqual(['day', 'kind', 'count', 'amount', 'created_at', 'updated_at']);
    expect(rollup.kind).toBe('advanced_call_analysis');
    expect(rollup.amount).toBe(Number((rollup.count * 0.0002).toFixed(4)));
    const day: string = rollup.day;
    const dayBefore = new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
    expect(await rollupsOf(company, `?day_from=${day}&day_to=${day}`)).toEqual([rollup]);
    expect(await rollupsOf(company, `?day_to=${dayBefore}`)).toEqual([]);
    expect(await rollupsOf(company, `?created_at_from=${encodeURIComponent(`${day} 00:00:00 +0000`)}`)).toContainEqual(rollup);
    expect(await rollupsOf(company, `?created_at_to=${encodeURIComponent(`${dayBefore} 23:59:59 +0000`)}`)).toEqual([]);
    expect(await rollupsOf(company, `?kind=advanced_call_analysis&day_from=${day}&day_to=${day}`)).toEqual([rollup]);
    expect422(await get(company, '/api/v1/charge_rollups?day_from=2026-02-30'), { day_from: ['is not a day (YYYY-MM-DD)'] });
    // Another company sees none of these.
    expect(await rollupsOf(world.other, `?day_from=${day}&day_to=${day}`)).toEqual([]);
  });
});

describe('POST /api/v1/calls/:id', () => {
  async function buyerRevenueToday(buyerId: number, company: TestCompany = world.company): Promise<number> {
    const reply = await get(company, `/api/v1/buyers/${buyerId}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.buyer.revenue_daily_used;
  }

  it("moves the call's revenue and its buyer's revenue counters; merges data; sets contact fields", async () => {
    const company = await createTestCompany('calls-update');
    const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'U', number: '+12125557021', current_conversion_revenue: 25, current_conversion_duration: 30 });
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'U offer', buyer_ids: [buyer.id] });
    const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
    const id = await simulate(number.number, CALLER_1, [{ answer: true, answerAfter: 1, talk: 60 }]);
    const revenueUsed = async () => (await get(company, `/api/v1/buyers/${buyer.id}`)).body.buyer.revenue_daily_used;
    const conversionsUsed = async () => (await get(company, `/api/v1/buyers/${buyer.id}`)).body.buyer.buyer_conversion_daily_used;
    expect(await revenueUsed()).toBe(25);
    await adjustData(company, id, { source: 'ad' });

    const reply = await post(company, `/api/v1/calls/${id}`, { revenue: '40.006', payout: 7.5, first_name: ' Ada ', email: 'ADA@Example.com', zip: 90210, data: { campaign: 'spring' } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.call).toMatchObject({ id, revenue: 40.01, buyer_revenue: 40.01, payout: 7.5, traffic_source_payout: 7.5, profit: 32.51, first_name: 'Ada', email: 'ada@example.com', zip: '90210' });
    expect(reply.body.call.data).toEqual({ source: 'ad', campaign: 'spring' });
    expect(await revenueUsed()).toBe(40.01);

    const unconverted = await post(company, `/api/v1/calls/${id}`, { call: { buyer_converted: 'false', revenue: 0 } });
    expect(unconverted.status, unconverted.text).toBe(200);
    expect(unconverted.body.call).toMatchObject({ buyer_converted: false, revenue: 0 });
    expect(await revenueUsed()).toBe(0);
    expect(await conversionsUsed()).toBe(0);

    const timeline = (await getCall(company.id, id))!.timeline as Array<Record<string, unknown>>;
    expect(timeline.filter((entry) => entry.type === 'updated')).toHaveLength(3);
  });

  async function adjustData(company: TestCompany, id: number, data: Record<string, unknown>) {
    const reply = await post(company, `/api/v1/calls/${id}`, { data });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.call.data).toMatchObject(data);
  }

  it('updates by uuid and follows the buyer counters of a world of calls', async () => {
    const own = await buildWorld();
    const before = await buyerRevenueToday(own.buyer2.id, own.company);
    const uuid = (await getCall(own.company.id, own.short))!.uuid;
    const reply = await post(own.company, `/api/v1/calls/${uuid}`, { revenue: 12.5, buyer_converted: true });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.call).toMatchObject({ id: own.short, revenue: 12.5, buyer_converted: true });
    expect(await buyerRevenueToday(own.buyer2.id, own.company)).toBe(before + 12.5);
  });

  it('refuses bad fields with a 422 for each, and a request changing nothing', async () => {
    expect422(await post(world.company, `/api/v1/calls/${world.converted}`, { revenue: 'lots', payout: -1, email: 'nope', buyer_converted: 'maybe', data: [1, 2] }), {
      revenue: ['is not a number'],
      payout: ['must be greater than or equal to 0'],
      email: ['is not a valid e-mail address'],
      buyer_converted: ['is not a valid boolean (use 1, true, yes, on, 0, false, no or off)'],
      data: ['is not a hash'],
    });
    // Nested hashes are flattened to dotted keys (docs/compatibility.md); a list of hashes is no plain value.
    expect422(await post(world.company, `/api/v1/calls/${world.converted}`, { data: { nested: [{ no: 1 }] } }), {
      'data.nested': ['is not a plain value (string, number, boolean or null)'],
    });
    const nothing = await post(world.company, `/api/v1/calls/${world.converted}`, { unrelated: 1 });
    expect(nothing.status).toBe(422);
    expect(Object.keys(nothing.body.errors)).toEqual(['base']);
  });
});

describe('POST /api/v1/calls/update_by_caller_id/:caller_id', () => {
  it("updates the caller's newest call on the offer named by offer_token", async () => {
    const own = await buildWorld();
    const before = await get(own.company, `/api/v1/buyers/${own.buyer2.id}`);
    const reply = await post(own.company, `/api/v1/calls/update_by_caller_id/${encodeURIComponent('415-555-0001')}`, {
      offer_token: own.offer2.offer_token,
      revenue: 15,
      buyer_converted: 'yes',
    });
    expect(reply.status, reply.text).toBe(200);
    // Caller 1 called offer 2 once: the missed call (their converted call was on offer 1).
    expect(reply.body.call).toMatchObject({ id: own.missed, revenue: 15, buyer_converted: true });
    const after = await get(own.company, `/api/v1/buyers/${own.buyer2.id}`);
    expect(after.body.buyer.revenue_daily_used).toBe(before.body.buyer.revenue_daily_used + 15);
    expect((await getCall(own.company.id, own.converted))!.revenue).not.toBe(15);
  });

  it('404s without such a call; 422 without a token of the company', async () => {
    const none = await post(world.company, `/api/v1/calls/update_by_caller_id/${encodeURIComponent(CALLER_2)}`, { offer_token: world.offer1.offer_token, revenue: 1 });
    expect(none.status, none.text).toBe(404);
    expect422(await post(world.company, `/api/v1/calls/update_by_caller_id/${encodeURIComponent(CALLER_1)}`, { revenue: 1 }), { offer_token: ['is required'] });
    expect422(await post(world.other, `/api/v1/calls/update_by_caller_id/${encodeURIComponent(CALLER_1)}`, { offer_token: world.offer1.offer_token, revenue: 1 }), {
      offer_token: ['is not the offer token of one of your offers'],
    });
    expect422(await post(world.company, `/api/v1/calls/update_by_caller_id/${encodeURIComponent(CALLER_1)}`, { offer_token: 'unknown', revenue: 1 }), {
      offer_token: ['is not the offer token of one of your offers'],
    });
  });
});

describe('POST /api/v1/calls/send_key_press', () => {
  it("records the key press on the call's timeline and merges data", async () => {
    const uuid = (await getCall(world.company.id, world.live.callId))!.uuid;
    const reply = await post(world.company, '/api/v1/calls/send_key_press', { id: uuid, digits: '12#', data: { pressed: 'yes' } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.call).toMatchObject({ id: world.live.callId, data: { pressed: 'yes' } });
    const events = (await get(world.company, `/api/v1/calls/${world.live.callId}/events`)).body.events as Array<Record<string, any>>;
    expect(events.at(-1)).toMatchObject({ type: 'key_press', digits: '12#', source: 'api' });
  });

  it('refuses bad digits and answers 404 for an unknown or foreign call', async () => {
    const uuid = (await getCall(world.company.id, world.live.callId))!.uuid;
    expect422(await post(world.company, '/api/v1/calls/send_key_press', { id: uuid, digits: '12a' }), { digits: ['must be 1 to 32 of the keys 0-9, * and #'] });
    expect422(await post(world.company, '/api/v1/calls/send_key_press', { digits: '1' }), { id: ['is required'] });
    expect((await post(world.company, '/api/v1/calls/send_key_press', { id: randomUUID(), digits: '1' })).status).toBe(404);
    expect((await post(world.other, '/api/v1/calls/send_key_press', { id: uuid, digits: '1' })).status).toBe(404);
  });
});

describe('DELETE /api/v1/calls/:id', () => {
  it('hangs up a call in progress through the carrier and records it; 422 once it is over', async () => {
    // A company of its own: a call added to the shared world would change what the list tests see.
    const company = await createTestCompany('calls-hangup');
    const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'H', number: '+12125557031' });
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'H offer', buyer_ids: [buyer.id] });
    const number = (await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id })).number as string;
    const recorder = telephonyPort() as CallControlRecorder;
    const live = await startLiveCall(number, '+14155550077');
    const reply = await send(gateway, { method: 'DELETE', path: `/api/v1/calls/${live.callId}`, authorization: company.authorization });
    expect(reply.status, reply.text).toBe(200);
    expect(recorder.hungUp).toContain(live.callSid);
    const stored = await getCall(company.id, live.callId);
    expect((stored!.timeline as Array<Record<string, unknown>>).at(-1)).toMatchObject({ type: 'hangup_requested', source: 'api' });
    // The carrier confirms with its final status: the call is over.
    await endCall(live.callSid, number, '+14155550077');
    const again = await send(gateway, { method: 'DELETE', path: `/api/v1/calls/${live.callId}`, authorization: company.authorization });
    expect422(again, { base: ['call is not in progress'] });
    expect(recorder.hungUp.filter((id) => id === live.callSid)).toHaveLength(1);
  });
});

describe('GET /api/v1/call_logs', () => {
  it("lists one call's timeline newest first by call_id or uuid", async () => {
    const timeline = (await getCall(world.company.id, world.converted))!.timeline as unknown[];
    const reply = await get(world.company, `/api/v1/call_logs?call_id=${world.converted}`);
    expect(reply.status, reply.text).toBe(200);
    const rows = reply.body.call_logs as Array<Record<string, any>>;
    expect(rows).toHaveLength(timeline.length);
    expect(new Set(rows.map((row) => row.call_id))).toEqual(new Set([world.converted]));
    expect(rows.map((row) => row.position)).toEqual(rows.map((row) => row.position).sort((a, b) => b - a));
    expect(rows.at(-1)).toMatchObject({ position: 1, type: 'incoming' });
    const uuid = (await getCall(world.company.id, world.converted))!.uuid;
    const byUuid = await get(world.company, `/api/v1/call_logs?uuid=${uuid}&root=false`);
    expect(byUuid.body).toEqual(rows);
  });

  it('pages the logs of all calls by whole calls, each entry once', async () => {
    const calls = await listAll(world.company);
    const expected = new Set<string>();
    for (const call of calls) {
      const timeline = (await getCall(world.company.id, call.id))!.timeline as unknown[];
      timeline.forEach((_, index) => expected.add(`${call.id}:${index + 1}`));
    }
    const seen: string[] = [];
    let cursor: string | number = '-1';
    while (cursor !== 0) {
      const reply = await get(world.company, `/api/v1/call_logs?per_page=10&cursor=${encodeURIComponent(String(cursor))}`);
      expect(reply.status, reply.text).toBe(200);
      const rows = reply.body.call_logs as Array<Record<string, any>>;
      expect(rows.length).toBeGreaterThan(0);
      const times = rows.map((row) => Date.parse(row.created_at));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      seen.push(...rows.map((row) => `${row.call_id}:${row.position}`));
      cursor = reply.body.metadata.next_cursor;
    }
    expect(seen).toHaveLength(expected.size);
    expect(new Set(seen)).toEqual(expected);
  });
});

describe("another company's call", () => {
  it('is a 404 on every endpoint that names it', async () => {
    const { other } = world;
    const id = world.converted;
    const uuid = (await getCall(world.company.id, id))!.uuid;
    const attempts: Array<[string, string, Record<string, unknown>?]> = [
      ['GET', `/api/v1/calls/${id}`],
      ['GET', `/api/v1/calls/${uuid}`],
      ['GET', `/api/v1/calls/${id}/events`],
      ['GET', `/api/v1/calls/${uuid}/events`],
      ['POST', `/api/v1/calls/${id}`, { revenue: 1 }],
      ['POST', `/api/v1/calls/${uuid}`, { revenue: 1 }],
      ['DELETE', `/api/v1/calls/${world.live.callId}`],
      ['POST', '/api/v1/calls/send_key_press', { id: uuid, digits: '1' }],
      ['GET', `/api/v1/call_logs?call_id=${id}`],
      ['GET', `/api/v1/call_logs?uuid=${uuid}`],
    ];
    for (const [method, path, json] of attempts) {
      const reply = await send(gateway, { method, path, authorization: other.authorization, json });
      expect(reply.status, `${method} ${path}`).toBe(404);
    }
    expect((await getCall(world.company.id, id))!.revenue).toBe(25);
    expect(idsOf(await listAll(other, `&ids=${id}`))).toEqual([]);
  });

  it('needs credentials', async () => {
    expect((await send(gateway, { path: '/api/v1/calls' })).status).toBe(401);
    expect((await send(gateway, { path: `/api/v1/calls/${world.converted}` })).status).toBe(401);
  });
});
