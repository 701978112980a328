import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { countCalls } from '../../bench/support.js';
import { countMatchingCalls } from '../../functions/calls/call-count.js';
import { callPredicate } from '../../functions/calls/call-filters.js';
import { readCallDayCounts } from '../../shared/calls/call-day-count-store.js';
import { clock } from '../../shared/adapters/clock.js';
import { createCall } from '../../shared/calls/call-store.js';
import { db } from '../../shared/db/client.js';
import { keys } from '../../shared/db/keys.js';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { callRecordAt } from '../fixtures/call-records.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call as send, useGateway, type ApiReply } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { VOICE_BASE, VOICE_TOKEN, callFields, carrierPost, dialOf, newCallSid } from '../fixtures/voice.js';

/**
 * `metadata.total_count` of `GET /api/v1/calls` against the calls actually listed, for each way
 * the list counts (day counts, named ids, gsi1, gsi2, a filtered read), and what a list costs.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
const CALLER_1 = '+14155550101';
const CALLER_2 = '+14155550102';
const CALLER_3 = '+14155550103';
const CALLER_4 = '+14155550104';

const gateway = useGateway();
// The default window starts 30 days before now, mid-hour: pinned at 12:30:30 so the edge hour is known.
usePinnedClockForAll(midDayTomorrow);

/** Every DynamoDB Query the service sends, counted by an SDK middleware (bench/support.ts). */
const queries = countCalls(db, new Set(['QueryCommand']));

function get(company: TestCompany, path: string): Promise<ApiReply> {
  return send(gateway, { path, authorization: company.authorization });
}

/** `HH:MM` on the UTC day `daysAgo` days before the pinned now. */
function timeDaysAgo(daysAgo: number, hhmm: string): number {
  return Date.parse(`${new Date(clock().now().getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10)}T${hhmm}:00Z`);
}

const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());

/** An ended call written as the call flow writes calls (createCall), made at `ms`. */
async function seed(company: TestCompany, ms: number, fields: Record<string, unknown> = {}): Promise<number> {
  const record = callRecordAt(ms, { caller_number: CALLER_2, ...fields });
  expect(await createCall(company.id, record)).toBe(true);
  return record.id;
}

/** Only the carrier's first webhook: the call is ringing its buyer, in progress. */
async function startLiveCall(to: string, from: string): Promise<number> {
  const reply = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(newCallSid(), from, to), CallStatus: 'ringing' });
  expect(reply.status, reply.text).toBe(200);
  const dial = dialOf(reply.text);
  expect(dial, reply.text).toBeDefined();
  return Number(new URL(dial!.action, gateway.baseUrl).searchParams.get('call'));
}

/** Every call of a list, through its cursor pages, and the total_count of each page. */
async function listAll(company: TestCompany, query: string, perPage = 2): Promise<{ ids: number[]; totals: unknown[] }> {
  const ids: number[] = [];
  const totals: unknown[] = [];
  let cursor = '-1';
  for (let page = 0; page < 50; page++) {
    const reply = await get(company, `/api/v1/calls?per_page=${perPage}&columns=id&cursor=${encodeURIComponent(cursor)}${query}`);
    expect(reply.status, reply.text).toBe(200);
    ids.push(...(reply.body.calls as Array<{ id: number }>).map((row) => row.id));
    totals.push(reply.body.metadata.total_count);
    cursor = String(reply.body.metadata.next_cursor);
    if (cursor === '0') return { ids, totals };
  }
  throw new Error('too many pages');
}

interface World {
  company: TestCompany;
  other: TestCompany;
  offerId: number;
  /** Through the carrier: ended (caller 1, caller 2) and in progress (callers 3 and 4). */
  ended: number[];
  live: number[];
  /** Seeded: two days ago 09:00 and 09:40 (caller 2, the first on the offer), six days ago 15:10. */
  twoDaysAgo: number[];
  sixDaysAgo: number;
  /** Thirty days ago at 12:50 (inside the default window, in its cut first hour) and 12:10 (outside). */
  edgeInside: number;
  edgeOutside: number;
  fortyDaysAgo: number;
}

let world: World;

beforeAll(async () => {
  const company = await createTestCompany('calls-total');
  const other = await createTestCompany('calls-total-other');
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'B1', number: '+12125558001' });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  const ended: number[] = [];
  for (const caller of [CALLER_1, CALLER_2]) {
    const result = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: caller, to: number.number, buyers: [{ answer: true, answerAfter: 2, talk: 30 }], callSid: newCallSid() });
    ended.push(result.callId!);
  }
  const live = [await startLiveCall(number.number, CALLER_3), await startLiveCall(number.number, CALLER_4)];
  const twoDaysAgo = [await seed(company, timeDaysAgo(2, '09:00'), { offer_id: offer.id }), await seed(company, timeDaysAgo(2, '09:40'))];
  const sixDaysAgo = await seed(company, timeDaysAgo(6, '15:10'), { caller_number: CALLER_1 });
  const edgeInside = await seed(company, timeDaysAgo(30, '12:50'), { caller_number: CALLER_1 });
  const edgeOutside = await seed(company, timeDaysAgo(30, '12:10'), { caller_number: CALLER_1 });
  const fortyDaysAgo = await seed(company, timeDaysAgo(40, '08:00'));

  // Another company with calls on the same days, from the same callers, one in progress.
  const otherBuyer = await createThrough(gateway, other, '/api/v1/buyers', { name: 'OB', number: '+12125558009' });
  const otherOffer = await createThrough(gateway, other, '/api/v1/offers', { name: 'Other', buyer_ids: [otherBuyer.id] });
  const otherNumber = await createThrough(gateway, other, '/api/v1/phone_numbers', { offer_id: otherOffer.id });
  await startLiveCall(otherNumber.number, CALLER_3);
  await seed(other, timeDaysAgo(2, '09:10'));
  await seed(other, timeDaysAgo(30, '12:55'));
  world = { company, other, offerId: offer.id, ended, live, twoDaysAgo, sixDaysAgo, edgeInside, edgeOutside, fortyDaysAgo };
}, 60_000);

const sorted = (ids: number[]) => [...ids].sort((a, b) => b - a);

describe('GET /api/v1/calls metadata.total_count', () => {
  it('counts the default window (last 30 days) from the day counts: calls in progress, the cut first hour, not another company', async () => {
    const { ids, totals } = await listAll(world.company, '');
    const expected = sorted([...world.ended, ...world.live, ...world.twoDaysAgo, world.sixDaysAgo, world.edgeInside]);
    expect(ids).toEqual(expected);
    expect(ids).not.toContain(world.edgeOutside);
    // Every page, including those after a cursor, says the same total.
    expect(new Set(totals)).toEqual(new Set([expected.length]));
    expect(expected.length).toBe(8);

    const other = await listAll(world.other, '');
    expect(other.ids).toHaveLength(3);
    expect(new Set(other.totals)).toEqual(new Set([3]));
  });

  it('counts a created_at window whose bounds cut hours with calls exactly', async () => {
    // 15:05 six days ago to 09:20 two days ago: the 15:10 call and the 09:00 call, not the 09:40 one.
    const query = `&created_at_from=${iso(timeDaysAgo(6, '15:05'))}&created_at_to=${iso(timeDaysAgo(2, '09:20'))}`;
    const { ids, totals } = await listAll(world.company, query, 1);
    expect(ids).toEqual([world.twoDaysAgo[0], world.sixDaysAgo]);
    expect(new Set(totals)).toEqual(new Set([2]));
    // From 45 days back: everything.
    const all = await listAll(world.company, `&created_at_from=${iso(clock().now().getTime() - 45 * DAY_MS)}`, 3);
    expect(all.ids).toHaveLength(10);
    expect(all.ids).toContain(world.fortyDaysAgo);
    expect(new Set(all.totals)).toEqual(new Set([10]));
  });

  it('counts calls in progress (gsi1), never another company’s', async () => {
    const { ids, totals } = await listAll(world.company, '&in_progress=true', 1);
    expect(ids).toEqual(sorted(world.live));
    expect(new Set(totals)).toEqual(new Set([2]));
  });

  it('counts one caller’s calls (gsi2) within the window', async () => {
    const { ids, totals } = await listAll(world.company, `&caller_number=${encodeURIComponent(CALLER_1)}`, 1);
    // The carrier call and the two seeded ones inside the default window (12:10 thirty days ago is before it).
    expect(ids).toEqual(sorted([world.ended[0]!, world.sixDaysAgo, world.edgeInside]));
    expect(new Set(totals)).toEqual(new Set([3]));
  });

  it('counts named ids: found, in the window the client gave, of this company only', async () => {
    const otherIds = (await listAll(world.other, '', 25)).ids;
    const named = [world.ended[0]!, world.live[0]!, world.fortyDaysAgo, otherIds[0]!, 123456789];
    const { ids, totals } = await listAll(world.company, `&ids=${named.join(',')}`, 1);
    expect(ids).toEqual(sorted([world.ended[0]!, world.live[0]!, world.fortyDaysAgo]));
    expect(new Set(totals)).toEqual(new Set([3]));
  });

  it('counts other filters by reading the window’s calls', async () => {
    const byOffer = await listAll(world.company, `&offer_id=${world.offerId}`, 1);
    // The carrier calls carry the offer; one seeded call does.
    expect(byOffer.ids).toEqual(sorted([...world.ended, ...world.live, world.twoDaysAgo[0]!]));
    expect(new Set(byOffer.totals)).toEqual(new Set([5]));
    const ended = await listAll(world.company, '&in_progress=false', 2);
    expect(ended.ids).toHaveLength(6);
    expect(new Set(ended.totals)).toEqual(new Set([6]));
  });
});

describe('the bound of counting by reading (functions/calls/call-count.ts)', () => {
  it('counts up to the bound and gives up past it, before reading when the day counts already say so', async () => {
    const now = clock().now().getTime();
    const window = { fromMs: now - 30 * DAY_MS, toMs: now };
    const counts = await readCallDayCounts(world.company.id, window);
    const base = { companyId: world.company.id, ...window, limit: 1 };
    const byOffer = { ...base, accept: callPredicate({ offer_id: world.offerId }) };
    expect(await countMatchingCalls({ source: 'days', read: byOffer, counts, nowMs: now })).toBe(5);
    queries.reset();
    // The window's days hold 9 calls (the edge day counts whole here): with a bound of 7 nothing is read.
    expect(await countMatchingCalls({ source: 'days', read: byOffer, counts, nowMs: now, bound: 7 })).toBeUndefined();
    expect(queries.current.byCommand.QueryCommand ?? 0).toBe(0);
    const byCaller = { ...base, accept: callPredicate({ caller_number: CALLER_1 }) };
    expect(await countMatchingCalls({ source: 'caller', callerNumber: CALLER_1, read: byCaller, nowMs: now })).toBe(3);
    expect(await countMatchingCalls({ source: 'caller', callerNumber: CALLER_1, read: byCaller, nowMs: now, bound: 2 })).toBeUndefined();
    expect(await countMatchingCalls({ source: 'live', read: base, nowMs: now, bound: 1 })).toBeUndefined();
    expect(await countMatchingCalls({ source: 'live', read: base, nowMs: now, bound: 2 })).toBe(2);
  });
});

describe('what a list costs', () => {
  it('a 30-day window with calls on 2 days: one Query of the day counts and one per day with calls', async () => {
    const company = await createTestCompany('calls-total-cost');
    const days = [await seed(company, timeDaysAgo(3, '10:00')), await seed(company, timeDaysAgo(3, '11:00')), await seed(company, timeDaysAgo(20, '10:00')), await seed(company, timeDaysAgo(20, '16:00'))];
    const dayPartitions = [3, 20].map((daysAgo) => keys.dayPartition(company.id, 'calls', new Date(timeDaysAgo(daysAgo, '00:00')).toISOString().slice(0, 10)));
    const spy = vi.spyOn(db, 'send');
    for (const perPage of [25, 1, 3]) {
      queries.reset();
      spy.mockClear();
      const reply = await get(company, `/api/v1/calls?per_page=${perPage}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.metadata.total_count).toBe(4);
      expect(reply.body.calls).toHaveLength(Math.min(perPage, 4));
      const count = queries.current.byCommand.QueryCommand ?? 0;
      expect(count, `per_page=${perPage}`).toBeGreaterThanOrEqual(2);
      expect(count, `per_page=${perPage}`).toBeLessThanOrEqual(2 + 2);
      const partitions = spy.mock.calls.map(([command]) => command).filter((command) => command instanceof QueryCommand).map((command) => (command as QueryCommand).input.ExpressionAttributeValues?.[':pk']);
      expect(partitions.filter((pk) => pk === keys.callDayCounts(company.id))).toHaveLength(1);
      expect(partitions.every((pk) => pk === keys.callDayCounts(company.id) || dayPartitions.includes(pk as string))).toBe(true);
    }
    spy.mockRestore();
    expect(days).toHaveLength(4);
  });
});
