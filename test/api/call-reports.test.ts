import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustCall, callFigures } from '../../shared/calls/call-flow.js';
import { findCallByCarrierId, getCall } from '../../shared/calls/call-store.js';
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { categoryValue, REPORT_CATEGORIES, STAT_FIELDS, statsOf, type ReportCategory } from '../../shared/calls/rollups.js';
import { db, tableName } from '../../shared/db/client.js';
import { keys } from '../../shared/db/keys.js';
import { rollupCellUpdate } from '../../shared/db/rollup-update.js';
import { simulateCall, type BuyerBehaviour } from '../../shared/local/call-simulator.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, startTestGateway, type TestGateway } from '../fixtures/gateway.js';
import { expect422 } from '../fixtures/envelope.js';
import { createThrough } from '../fixtures/records.js';
import { newCallSid, VOICE_TOKEN } from '../fixtures/voice.js';
import { clock } from '../../shared/adapters/clock.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { createFallbackHandler } from '../../functions/fallback/handler.js';
import { handler as callsHandler } from '../../functions/calls/handler.js';
import { buildApiEvent, buildLambdaContext } from '../../shared/local/lambda-event.js';
import { routes } from '../../shared/http/routes.js';

let gateway: TestGateway;
const HOUR_MS = 60 * 60 * 1000;

const ANSWER = (talk: number): BuyerBehaviour => ({ answer: true, answerAfter: 4, talk });
const NO_ANSWER: BuyerBehaviour = { answer: false, answerAfter: 30, talk: 0 };

interface World {
  company: TestCompany;
  names: Record<ReportCategory, Map<string, string>>;
  callIds: number[];
  /** A range that holds every call of the world, whatever the clock said. */
  from: string;
  to: string;
}

let world: World;

/**
 * A company with a mix of calls: converted, too short, fall-through, no answer, blacklisted,
 * no buyer, converted on dial, with usd and percentage payouts; then one call's revenue changed.
 */
async function buildWorld(): Promise<World> {
  const started = clock().now().getTime();
  const company = await createTestCompany('reports');
  const create = (path: string, json: Record<string, unknown>) => createThrough(gateway, company, path, json);
  const source = await create('/api/v1/traffic_sources', { name: 'Search ads' });
  const b1 = await create('/api/v1/buyers', { name: 'Alpha', number: '+12125553000', tier: 0, current_conversion_revenue: 40, current_conversion_duration: 60 });
  const b2 = await create('/api/v1/buyers', { name: 'Beta', number: '+12125553001', tier: 1, current_conversion_revenue: 20, current_conversion_duration: 30 });
  const capped = await create('/api/v1/buyers', { name: 'Capped', number: '+12125553002', attempt_daily_limit: 0 });
  const onDial = await create('/api/v1/buyers', { name: 'OnDial', number: '+12125553003', current_conversion_revenue: 12, current_conversion_duration: 0 });
  const main = await create('/api/v1/offers', { name: 'Main offer', buyer_ids: [b1.id, b2.id] });
  const closed = await create('/api/v1/offers', { name: 'Closed offer', buyer_ids: [capped.id] });
  const dial = await create('/api/v1/offers', { name: 'Dial offer', buyer_ids: [onDial.id] });
  await create('/api/v1/offer_conversions', { name: 'Flat', offer_id: main.id, payout_type: 'usd', payout: 5, duration: 30, duplicate_timeframe: 0 });
  await create('/api/v1/offer_conversions', { name: 'Half', offer_id: dial.id, payout_type: 'buyer_conversion_percent', revenue_percentage: 50, duration: 0, duplicate_timeframe: 0 });
  const mainNumber = (await create('/api/v1/phone_numbers', { offer_id: main.id, traffic_source_id: source.id })).number as string;
  const closedNumber = (await create('/api/v1/phone_numbers', { offer_id: closed.id })).number as string;
  const dialNumber = (await create('/api/v1/phone_numbers', { offer_id: dial.id, traffic_source_id: source.id })).number as string;
  const blocked = await call(gateway, { method: 'POST', path: `/api/v1/contacts/${encodeURIComponent('+14155554999')}/caller_block`, authorization: company.authorization });
  expect(blocked.status).toBe(200);

  const plan: Array<[string, string, BuyerBehaviour[]]> = [
    [mainNumber, '+14155554001', [ANSWER(90)]], // converted by Alpha, paid 5
    [mainNumber, '+14155554002', [ANSWER(20)]], // too short for either
    [mainNumber, '+14155554003', [NO_ANSWER, ANSWER(45)]], // falls through, converted by Beta
    [mainNumber, '+14155554004', [NO_ANSWER]], // nobody answers
    [mainNumber, '+14155554999', [ANSWER(90)]], // blacklisted
    [closedNumber, '+14155554005', [ANSWER(90)]], // no buyer
    [dialNumber, '+14155554006', [NO_ANSWER]], // converted on dial, unanswered; 50 % payout
    [dialNumber, '+14155554007', [ANSWER(30)]], // converted on dial, answered
  ];
  const callIds: number[] = [];
  for (const [to, from, buyers] of plan) {
    const result = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from, to, buyers, callSid: newCallSid() });
    const id = result.callId ?? (await findCallByCarrierId('twilio', result.callSid))?.call.id;
    expect(id, `${from} -> ${to}`).toBeDefined();
    callIds.push(id!);
  }
  // An update after the call ended moves the rollups by the difference.
  await adjustCall(company.id, callIds[0]!, { revenue: 55.5 }, clock().now());

  const names = {
    offer: new Map([main, closed, dial].map((offer) => [String(offer.id), offer.name as string])),
    buyer: new Map([b1, b2, capped, onDial].map((buyer) => [String(buyer.id), buyer.name as string])),
    traffic_source: new Map([[String(source.id), 'Search ads']]),
    status: new Map<string, string>(),
    converted: new Map<string, string>(),
  };
  const from = new Date(Math.floor(started / HOUR_MS) * HOUR_MS).toISOString();
  return { company, names, callIds, from, to: new Date(clock().now().getTime() + 1000).toISOString() };
}

// Counters, caps, rollups and charges are per hour and UTC day: pinned mid-day, mid-minute so the
// file passes at any hour.
usePinnedClockForAll(midDayTomorrow);

beforeAll(async () => {
  gateway = await startTestGateway();
  world = await buildWorld();
});
afterAll(async () => gateway.close());

const get = (company: TestCompany, path: string, query: Record<string, string>) =>
  call(gateway, { path: `${path}?${new URLSearchParams(query).toString()}`, authorization: company.authorization });

const round = (amount: number) => Math.round(amount * 100) / 100;

/** The report recomputed from the calls themselves, by category value as the rollups store it. */
async function recount(category: ReportCategory, company = world.company, callIds = world.callIds): Promise<Map<string, Record<string, number>>> {
  const rows = new Map<string, Record<string, number>>();
  for (const id of callIds) {
    const stored = (await getCall(company.id, id)) as Record<string, any>;
    const id_ = (value: unknown) => (value === null || value === undefined ? 'none' : String(value));
    const value =
      category === 'offer' ? id_(stored.offer_id)
      : category === 'buyer' ? id_(stored.converted_buyer_id ?? stored.buyer_id)
      : category === 'traffic_source' ? id_(stored.traffic_source_id)
      : category === 'status' ? String(stored.status)
      : String(stored.buyer_converted === true);
    const row = rows.get(value) ?? Object.fromEntries(STAT_FIELDS.map((field) => [field, 0]));
    row.calls! += 1;
    row.answered! += stored.answered_duration > 0 ? 1 : 0;
    row.buyer_converted! += stored.buyer_converted ? 1 : 0;
    row.offer_converted! += stored.offer_converted ? 1 : 0;
    row.revenue = round(row.revenue! + stored.revenue);
    row.payout = round(row.payout! + stored.payout);
    row.profit = round(row.profit! + stored.revenue - stored.payout);
    row.answered_duration! += stored.answered_duration;
    row.total_duration! += stored.total_duration;
    rows.set(value, row);
  }
  return rows;
}

/** A report row's value as the rollups store it (ids and booleans as text, no id as `none`). */
const storedValue = (value: unknown) => (value === null ? 'none' : String(value));

describe('GET /api/v1/calls/reports', () => {
  it('equals a recount of the calls, for every category', async () => {
    for (const category of REPORT_CATEGORIES) {
      const reply = await get(world.company, '/api/v1/calls/reports', { category, created_at_from: world.from, created_at_to: world.to });
      expect(reply.status, reply.text).toBe(200);
      const expected = await recount(category);
      const rows = reply.body.reports as Array<Record<string, any>>;
      expect(new Map(rows.map((row) => [storedValue(row.value), Object.fromEntries(STAT_FIELDS.map((field) => [field, row[field]]))])), category).toEqual(expected);
      for (const row of rows) {
        expect(row.category).toBe(category);
        expect(row.name, `${category} ${String(row.value)}`).toBe(world.names[category].get(storedValue(row.value)) ?? null);
      }
      // Most calls first.
      expect(rows.map((row) => row.calls)).toEqual([...rows.map((row) => row.calls)].sort((a, b) => b - a));
    }
  });

  it('shows the mix it was given', async () => {
    const byStatus = (await get(world.company, '/api/v1/calls/reports', { category: 'status', created_at_from: world.from, created_at_to: world.to })).body.reports;
    expect(Object.fromEntries(byStatus.map((row: any) => [row.value, row.calls]))).toEqual({ completed: 4, no_answer: 2, blocked: 1, no_buyer: 1 });
    const converted = (await get(world.company, '/api/v1/calls/reports', { category: 'converted', created_at_from: world.from, created_at_to: world.to })).body.reports;
    // Alpha's 55.50 (updated from 40), Beta's 20, two on-dial 12s.
    expect(converted.find((row: any) => row.value === true)).toMatchObject({ calls: 4, buyer_converted: 4, revenue: 99.5, payout: 22, profit: 77.5 });
  });

  it('answers in the list envelope, or a bare array with root=false', async () => {
    const query = { category: 'buyer', created_at_from: world.from, created_at_to: world.to, time_zone: 'America/New_York' };
    const reply = await get(world.company, '/api/v1/calls/reports', query);
    expect(reply.body).toMatchObject({ status: 200, errors: {}, metadata: { root: 'reports', category: 'buyer', time_zone: 'America/New_York' } });
    expect(reply.body.metadata.created_at_from).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:00:00\.000-0[45]:00$/);
    expect(reply.body.metadata.total_count).toBe(reply.body.reports.length);
    expect(reply.body.reports.map((row: any) => row.value)).toContain(null); // the calls nobody took
    const bare = await get(world.company, '/api/v1/calls/reports', { ...query, root: 'false' });
    expect(bare.body).toEqual(reply.body.reports);
  });

  it('covers today in the zone by default, offers by default, and nothing of another company', async () => {
    const other = await createTestCompany('reports-other');
    const reply = await get(other, '/api/v1/calls/reports', { time_zone: 'Asia/Kolkata' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.reports).toEqual([]);
    expect(reply.body.metadata).toMatchObject({ category: 'offer', time_zone: 'Asia/Kolkata' });
    expect(reply.body.metadata.created_at_from).toMatch(/T00:00:00\.000\+05:30$/);
    expect(reply.body.metadata.created_at_to).toMatch(/T23:59:59\.999\+05:30$/);
    expect(Date.parse(reply.body.metadata.created_at_to) - Date.parse(reply.body.metadata.created_at_from)).toBe(24 * HOUR_MS - 1);
    const utc = await get(other, '/api/v1/calls/reports', {});
    expect(utc.body.metadata).toMatchObject({ category: 'offer', time_zone: 'UTC' });
    expect(utc.body.metadata.created_at_from).toMatch(/T00:00:00\.000\+00:00$/);
  });

  it('counts a call at the start of its UTC hour: a range ending before it leaves it out', async () => {
    const hourStart = Date.parse(world.from);
    const before = await get(world.company, '/api/v1/calls/reports', { created_at_from: new Date(hourStart - 2 * HOUR_MS).toISOString(), created_at_to: new Date(hourStart - 1).toISOString() });
    expect(before.status, before.text).toBe(200);
    expect(before.body.reports).toEqual([]);
    // The instant the first calls' hour starts holds them all.
    const atStart = await get(world.company, '/api/v1/calls/reports', { created_at_from: world.from, created_at_to: world.from });
    expect(atStart.body.reports.length).toBeGreaterThan(0);
  });

  it('still counts cells stored in the older layout (one per category), and an update of such a call', async () => {
    const company = await createTestCompany('reports-legacy');
    const create = (path: string, json: Record<string, unknown>) => createThrough(gateway, company, path, json);
    const buyer = await create('/api/v1/buyers', { name: 'Gamma', number: '+12125553010', current_conversion_revenue: 30, current_conversion_duration: 10 });
    const offer = await create('/api/v1/offers', { name: 'Old offer', buyer_ids: [buyer.id] });
    const closed = await create('/api/v1/offers', { name: 'Old closed', buyer_ids: [] });
    const callIds: number[] = [];
    for (const [to, talk] of [[(await create('/api/v1/phone_numbers', { offer_id: offer.id })).number as string, 60], [(await create('/api/v1/phone_numbers', { offer_id: closed.id })).number as string, 0]] as const) {
      const result = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: '+14155554100', to, buyers: [ANSWER(talk)], callSid: newCallSid() });
      callIds.push(result.callId ?? (await findCallByCarrierId('twilio', result.callSid))!.call.id);
    }
    // Rewrite the calls' cells as the older layout stored them: one per category, none included.
    const partition = keys.callRollupHours(company.id, new Date(clock().now()).toISOString().slice(0, 10), '00', '23').pk;
    const stored = (await db.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': partition } }))).Items ?? [];
    expect(stored.map((item) => item.category).sort()).toEqual(['buyer', 'mix', 'mix']);
    for (const item of stored) await db.send(new DeleteCommand({ TableName: tableName, Key: { pk: item.pk, sk: item.sk } }));
    for (const id of callIds) {
      const call = (await getCall(company.id, id))!;
      const figures = callFigures(call);
      const created = new Date(figures.created_at).toISOString();
      for (const category of REPORT_CATEGORIES) {
        const value = categoryValue(figures, category);
        const cell = keys.callRollup(company.id, created.slice(0, 10), created.slice(11, 13), category, value);
        await db.send(new UpdateCommand(rollupCellUpdate(cell, { ...statsOf(figures) }, { day: created.slice(0, 10), hour: created.slice(11, 13), category, value }).Update as never));
      }
    }
    // An update moves a call stored the old way out of mix cells that never held it: the sums still hold.
    await adjustCall(company.id, callIds[0]!, { revenue: 12.25 }, clock().now());
    const range = { created_at_from: new Date(clock().now().getTime() - 2 * HOUR_MS).toISOString(), created_at_to: new Date(clock().now().getTime() + 1000).toISOString() };
    for (const category of REPORT_CATEGORIES) {
      const rows = (await get(company, '/api/v1/calls/reports', { category, ...range })).body.reports as Array<Record<string, any>>;
      expect(new Map(rows.map((row) => [storedValue(row.value), Object.fromEntries(STAT_FIELDS.map((field) => [field, row[field]]))])), category).toEqual(await recount(category, company, callIds));
    }
    const byBuyer = (await get(company, '/api/v1/calls/reports', { category: 'buyer', ...range })).body.reports as Array<Record<string, any>>;
    expect(byBuyer.map((row) => [row.value, row.calls, row.revenue])).toEqual([
      [buyer.id, 1, 12.25],
      [null, 1, 0],
    ]);
  });

  it('refuses bad parameters with 422', async () => {
    const path = '/api/v1/calls/reports';
    expect422(await get(world.company, path, { category: 'campaign' }), { category: ['is not included in the list (offer, buyer, traffic_source, status, converted)'] });
    expect422(await get(world.company, path, { created_at_from: 'yesterday' }), { created_at_from: ['is not a valid time (use YYYY-MM-DD HH:MM:SS +ZZZZ)'] });
    expect422(await get(world.company, path, { created_at_from: '2026-02-02', created_at_to: '2026-02-01' }), { created_at_to: ['must not be before created_at_from'] });
    expect422(await get(world.company, path, { created_at_from: '2024-01-01', created_at_to: '2026-01-01' }), { created_at_to: ['must be at most 367 days after created_at_from'] });
    expect422(await get(world.company, path, { time_zone: 'Mars/Olympus' }), { time_zone: ['is not a valid time zone'] });
    expect((await call(gateway, { path })).status).toBe(401);
  });
});

describe('GET /api/v1/calls/stats', () => {
  it('splits the report by interval: the rows of each value add up to its report row', async () => {
    const range = { created_at_from: world.from, created_at_to: world.to };
    for (const category of REPORT_CATEGORIES) {
      const report = (await get(world.company, '/api/v1/calls/reports', { category, ...range })).body.reports as Array<Record<string, any>>;
      for (const interval of ['hour', 'day']) {
        const reply = await get(world.company, '/api/v1/calls/stats', { category, interval, ...range });
        expect(reply.status, reply.text).toBe(200);
        const summed = new Map<string, Record<string, number>>();
        for (const row of reply.body.stats as Array<Record<string, any>>) {
          expect(row.category).toBe(category);
          expect(row.interval_start).toMatch(interval === 'hour' ? /T\d{2}:00:00\.000\+00:00$/ : /T00:00:00\.000\+00:00$/);
          const sum = summed.get(storedValue(row.value)) ?? Object.fromEntries(STAT_FIELDS.map((field) => [field, 0]));
          for (const field of STAT_FIELDS) sum[field] = round(sum[field]! + row[field]);
          summed.set(storedValue(row.value), sum);
        }
        expect(summed, `${category} by ${interval}`).toEqual(new Map(report.map((row) => [storedValue(row.value), Object.fromEntries(STAT_FIELDS.map((field) => [field, row[field]]))])));
      }
    }
  });

  it('shows interval starts in the zone, with names, in the envelope', async () => {
    const reply = await get(world.company, '/api/v1/calls/stats', { category: 'offer', interval: 'hour', time_zone: 'Asia/Kolkata', created_at_from: world.from, created_at_to: world.to });
    expect(reply.body.metadata).toMatchObject({ root: 'stats', category: 'offer', interval: 'hour', time_zone: 'Asia/Kolkata' });
    const rows = reply.body.stats as Array<Record<string, any>>;
    expect(rows.length).toBeGreaterThan(0);
    // UTC hours seen from a half-hour zone start at half past.
    for (const row of rows) expect(row.interval_start).toMatch(/T\d{2}:30:00\.000\+05:30$/);
    expect(rows.map((row) => row.name)).toContain('Main offer');
    // Oldest interval first.
    expect(rows.map((row) => row.interval_start)).toEqual([...rows.map((row) => row.interval_start)].sort());
    const bare = await get(world.company, '/api/v1/calls/stats', { category: 'offer', interval: 'hour', time_zone: 'Asia/Kolkata', created_at_from: world.from, created_at_to: world.to, root: '0' });
    expect(bare.body).toEqual(rows);
  });

  it('refuses an unknown interval', async () => {
    expect422(await get(world.company, '/api/v1/calls/stats', { interval: 'year' }), { interval: ['is not included in the list (hour, day, week, month)'] });
  });
});

describe('GET /api/v1/calls/stats in the hosted shape (group_by, stat)', () => {
  const FIGURES = { count: 'calls', revenue: 'revenue', profit: 'profit', cost: 'payout' } as const;
  type Figure = keyof typeof FIGURES;
  const range = () => ({ created_at_from: world.from, created_at_to: world.to });

  /** The groups recomputed from the stored calls: figure sums by the key each call falls under. */
  async function regroup(keyOf: (call: Record<string, any>) => string | boolean, company = world.company, callIds = world.callIds): Promise<Map<string | boolean, Record<string, number>>> {
    const groups = new Map<string | boolean, Record<string, number>>();
    for (const id of callIds) {
      const stored = (await getCall(company.id, id)) as Record<string, any>;
      const key = keyOf(stored);
      const sums = groups.get(key) ?? { calls: 0, revenue: 0, profit: 0, payout: 0 };
      sums.calls! += 1;
      sums.revenue = round(sums.revenue! + stored.revenue);
      sums.profit = round(sums.profit! + stored.revenue - stored.payout);
      sums.payout = round(sums.payout! + stored.payout);
      groups.set(key, sums);
    }
    return groups;
  }

  const FIVE_MINUTES = 5 * 60 * 1000;
  const day = (iso: string) => iso.slice(0, 10);
  const mondayOf = (iso: string) => {
    const date = new Date(`${day(iso)}T00:00:00Z`);
    return new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * 24 * HOUR_MS).toISOString().slice(0, 10);
  };
  const GROUP_KEYS: Record<string, (call: Record<string, any>) => string | boolean> = {
    buyer_converted: (call) => call.buyer_converted === true,
    offer_converted: (call) => call.offer_converted === true,
    status: (call) => String(call.status),
    created_at_five_minutes: (call) => new Date(Math.floor(Date.parse(call.created_at) / FIVE_MINUTES) * FIVE_MINUTES).toISOString().replace('Z', '+00:00'),
    created_at_day: (call) => `${day(call.created_at)}T00:00:00.000+00:00`,
    created_at_week: (call) => `${mondayOf(call.created_at)}T00:00:00.000+00:00`,
    created_at_month: (call) => `${day(call.created_at).slice(0, 7)}-01T00:00:00.000+00:00`,
  };

  it('answers every group_by with every stat, equal to a regrouping of the calls, in the envelope', async () => {
    for (const [groupBy, keyOf] of Object.entries(GROUP_KEYS)) {
      const expected = await regroup(keyOf);
      for (const [stat, field] of Object.entries(FIGURES) as Array<[Figure, string]>) {
        const reply = await get(world.company, '/api/v1/calls/stats', { group_by: groupBy, stat, ...range() });
        expect(reply.status, `${groupBy} ${stat}: ${reply.text}`).toBe(200);
        const rows = reply.body.stats as Array<Record<string, any>>;
        expect(new Map(rows.map((row) => [row.group, row[stat]])), `${groupBy} by ${stat}`).toEqual(new Map([...expected].map(([key, sums]) => [key, sums[field]])));
        for (const row of rows) expect(Object.keys(row).sort(), `${groupBy} ${stat}`).toEqual(['group', 'group_by', stat].sort());
        expect(rows.every((row) => row.group_by === groupBy)).toBe(true);
        expect(reply.body.metadata).toMatchObject({ root: 'stats', group_by: groupBy, stat, time_zone: 'UTC', page: 1, total_count: rows.length });
      }
    }
    // The world's mix: more than one group where it has one.
    expect((await regroup(GROUP_KEYS.status!)).size).toBeGreaterThan(2);
    expect((await regroup(GROUP_KEYS.offer_converted!)).size).toBe(2);
  });

  it('orders statuses and booleans by most calls, intervals oldest first; shows interval starts in time_zone', async () => {
    const byStatus = (await get(world.company, '/api/v1/calls/stats', { group_by: 'status', stat: 'count', ...range() })).body.stats as Array<Record<string, any>>;
    expect(byStatus.map((row) => row.count)).toEqual([...byStatus.map((row) => row.count)].sort((a, b) => b - a));
    expect(byStatus[0]).toEqual({ group_by: 'status', group: 'completed', count: 4 });
    const query = { group_by: 'created_at_five_minutes', stat: 'count', time_zone: 'Asia/Kathmandu', ...range() };
    const kathmandu = (await get(world.company, '/api/v1/calls/stats', query)).body.stats as Array<Record<string, any>>;
    expect(kathmandu.length).toBeGreaterThan(0);
    for (const row of kathmandu) expect(row.group).toMatch(/T\d{2}:\d[05]:00\.000\+05:45$/);
    expect(kathmandu.map((row) => Date.parse(row.group))).toEqual([...kathmandu.map((row) => Date.parse(row.group))].sort((a, b) => a - b));
    expect(kathmandu.reduce((sum, row) => sum + row.count, 0)).toBe(world.callIds.length);
    // Every group is on page 1; page 2 is empty, so a client paging on stops.
    const page2 = await get(world.company, '/api/v1/calls/stats', { ...query, page: '2' });
    expect(page2.body.stats).toEqual([]);
    expect(page2.body.metadata).toMatchObject({ page: 2, total_count: kathmandu.length });
    const bare = await get(world.company, '/api/v1/calls/stats', { ...query, root: 'false' });
    expect(bare.body).toEqual(kathmandu);
  });

  it('takes the request as the hosted docs show it: a trailing slash, their time forms', async () => {
    const from = `${world.from.slice(0, 10)} ${world.from.slice(11, 19)} UTC`;
    const to = `${world.to.slice(0, 10)} ${world.to.slice(11, 19)} +0000`;
    const hosted = await call(gateway, { path: `/api/v1/calls/stats/?group_by=status&created_at_from=${from}&created_at_to=${to}&stat=count`, authorization: world.company.authorization });
    expect(hosted.status, hosted.text).toBe(200);
    const plain = await get(world.company, '/api/v1/calls/stats', { group_by: 'status', stat: 'count', created_at_from: from, created_at_to: to });
    expect(hosted.body).toEqual(plain.body);
    expect(new Map((hosted.body.stats as Array<Record<string, any>>).map((row) => [row.group, row.count]))).toEqual(new Map([...(await regroup(GROUP_KEYS.status!))].map(([key, sums]) => [key, sums.calls])));
    // The category shape takes the slash too.
    const categories = await call(gateway, { path: `/api/v1/calls/stats/?category=status&created_at_from=${from}&created_at_to=${to}`, authorization: world.company.authorization });
    expect(categories.status, categories.text).toBe(200);
    expect(categories.body.metadata).toMatchObject({ category: 'status', interval: 'day' });

    // In AWS the slashed path matches no route (a route's path may not end in "/") and reaches
    // $default: the fallback hands it to the calls function, which answers as above.
    const url = `/api/v1/calls/stats/?group_by=status&created_at_from=${encodeURIComponent(from)}&created_at_to=${encodeURIComponent(to)}&stat=count`;
    const asApiGatewaySendsIt = { ...buildApiEvent({ method: 'GET', url, headers: { authorization: world.company.authorization }, body: Buffer.alloc(0), sourceIp: '203.0.113.9' }, routes[0]!, {}), routeKey: '$default' };
    asApiGatewaySendsIt.requestContext = { ...asApiGatewaySendsIt.requestContext, routeKey: '$default' };
    const fallback = createFallbackHandler({ forward: (group, event) => callsHandler(event, buildLambdaContext(group, event.requestContext.requestId)) });
    const forwarded = await fallback(asApiGatewaySendsIt);
    expect(forwarded.statusCode, String(forwarded.body)).toBe(200);
    expect(JSON.parse(String(forwarded.body))).toEqual(plain.body);
  });

  it('refuses unknown values, a half of the pair, mixing shapes and the hosted filters with 422 per field', async () => {
    const path = '/api/v1/calls/stats';
    const groups = 'buyer_converted, offer_converted, status, created_at_five_minutes, created_at_day, created_at_week, created_at_month';
    expect422(await get(world.company, path, { group_by: 'campaign', stat: 'count' }), { group_by: [`is not included in the list (${groups})`] });
    expect422(await get(world.company, path, { group_by: 'status', stat: 'margin' }), { stat: ['is not included in the list (count, revenue, profit, cost)'] });
    expect422(await get(world.company, path, { group_by: 'day', stat: 'sum' }), { group_by: [`is not included in the list (${groups})`], stat: ['is not included in the list (count, revenue, profit, cost)'] });
    expect422(await get(world.company, path, { group_by: 'status' }), { stat: ['is required with group_by'] });
    expect422(await get(world.company, path, { stat: 'count' }), { group_by: ['is required with stat'] });
    expect422(await get(world.company, path, { group_by: 'status', stat: 'count', category: 'offer', interval: 'hour' }), {
      category: ['cannot be combined with group_by and stat'],
      interval: ['cannot be combined with group_by and stat'],
    });
    expect422(await get(world.company, path, { group_by: 'status', stat: 'count', buyer_converted: 'true', in_progress: '0' }), {
      buyer_converted: ['is not supported by call stats (they cover every ended call of the range)'],
      in_progress: ['is not supported by call stats (they cover every ended call of the range)'],
    });
    expect422(await get(world.company, path, { group_by: 'status', stat: 'count', page: '0' }), { page: ['must be at least 1'] });
    // The category shape takes exactly what it took before: other parameters are ignored.
    expect((await get(world.company, path, { category: 'status', page: '0', in_progress: 'maybe' })).status).toBe(200);
    // What is summed from the calls is bounded to 48 hours; the rollups' groupings take the reports' 367 days.
    const week = { created_at_from: '2026-02-01', created_at_to: '2026-02-08' };
    expect422(await get(world.company, path, { group_by: 'created_at_five_minutes', stat: 'count', ...week }), {
      created_at_to: ['must be less than 48 hours after created_at_from with group_by=created_at_five_minutes (summed from the calls themselves)'],
    });
    expect422(await get(world.company, path, { group_by: 'offer_converted', stat: 'revenue', ...week }), {
      created_at_to: ['must be less than 48 hours after created_at_from with group_by=offer_converted with stat=revenue (summed from the calls themselves)'],
    });
    for (const groupBy of ['offer_converted', 'created_at_month']) expect((await get(world.company, path, { group_by: groupBy, stat: 'count', ...week })).status).toBe(200);
  });

  it("never counts another company's calls", async () => {
    const other = await createTestCompany('stats-other');
    const create = (path: string, json: Record<string, unknown>) => createThrough(gateway, other, path, json);
    const buyer = await create('/api/v1/buyers', { name: 'Delta', number: '+12125553020', current_conversion_revenue: 7, current_conversion_duration: 10 });
    const offer = await create('/api/v1/offers', { name: 'Other offer', buyer_ids: [buyer.id] });
    const number = (await create('/api/v1/phone_numbers', { offer_id: offer.id })).number as string;
    const result = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: '+14155554200', to: number, buyers: [ANSWER(60)], callSid: newCallSid() });
    const otherCallId = result.callId ?? (await findCallByCarrierId('twilio', result.callSid))!.call.id;
    const wide = { created_at_from: world.from, created_at_to: new Date(clock().now().getTime() + 1000).toISOString() };
    for (const [groupBy, keyOf] of Object.entries(GROUP_KEYS)) {
      for (const [company, callIds] of [[world.company, world.callIds], [other, [otherCallId]]] as const) {
        const rows = (await get(company, '/api/v1/calls/stats', { group_by: groupBy, stat: 'revenue', ...wide })).body.stats as Array<Record<string, any>>;
        const expected = await regroup(keyOf, company, [...callIds]);
        expect(new Map(rows.map((row) => [row.group, row.revenue])), `company ${company.id} ${groupBy}`).toEqual(new Map([...expected].map(([key, sums]) => [key, sums.revenue])));
      }
    }
  });
});
