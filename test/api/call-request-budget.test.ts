import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setEventQueue } from '../../shared/adapters/index.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { callKey, findCallByCarrierId, getCall } from '../../shared/calls/call-store.js';
import { db, tableName } from '../../shared/db/client.js';
import { itemSize } from '../../shared/db/item-limits.js';
import { midDayTomorrow, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany } from '../fixtures/company.js';
import { useDynamoRequests } from '../fixtures/dynamo-requests.js';
import { useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { callFields, carrierPost, dialOf, newCallSid, VOICE_BASE } from '../fixtures/voice.js';

/**
 * A whole answered call's DynamoDB requests (issue 12, "Call"), counted through an SDK middleware
 * on the document client: every webhook the carrier sends for it, their requests summed and their
 * sequential steps summed (webhooks are separate invocations, one after another).
 *
 * The budgets are what the call path achieves now, so a change that adds a request fails here:
 * an answered one-buyer call at most 10 requests in 9 steps, each fall-through at most 3 more (in 3 steps),
 * and the call item under 1 KB when it ends (every webhook saves it in a transaction, billed 2 units
 * per started KB: bench:call's 36 billed write units assume it).
 * Issue 12's goals are 12 requests in 8 steps and 3 per fall-through; docs/benchmarks.md ("Call")
 * says what stands between the two (the carrier-call lookup of the status callback). The buyer's
 * claim rides in the call's transaction, and the outbox items of the call's events are cleared
 * by the delivery function when it receives them, not by the webhooks.
 *
 * The calls measured are a number's second: the function remembers where a number's and an
 * offer's links led (ids only; every item is still read by the request), so the first call of a
 * number in a function instance reads its links one step at a time (bench:call prints it).
 */
const gateway = useGateway();
const log = useDynamoRequests();
usePinnedClock(midDayTomorrow);

// The event queue is SQS in AWS, not DynamoDB (locally the table queue): a no-op here, as in bench:call.
beforeAll(() => setEventQueue({ send: async () => undefined, retryLater: async () => undefined }));
afterAll(() => setEventQueue());

const CALLER = '+14155552671';
const BUDGET = { requests: 10, steps: 9, perFallThrough: { requests: 3, steps: 3 } };

async function setup(buyers: number) {
  const company = await createTestCompany('call-budget');
  const ids: number[] = [];
  for (let index = 0; index < buyers; index += 1) {
    const buyer = await createThrough(gateway, company, '/api/v1/buyers', {
      name: `Buyer ${index}`,
      number: `+1212555100${index}`,
      time_zone: 'America/New_York',
      tier: index,
      current_conversion_revenue: 25,
      current_conversion_duration: 10,
    });
    ids.push(buyer.id as number);
  }
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: ids });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  return { company, number: number.number as string };
}

/** Plays a call whose first `unanswered` dials go unanswered and the next talks 30 s; its requests and steps. */
async function playCall(number: string, unanswered: number) {
  const sid = newCallSid();
  const fields = callFields(sid, CALLER, number);
  let requests = 0;
  let steps = 0;
  /** Per index, the requests that wrote an entry of it. */
  const indexWrites: Record<string, number> = {};
  const webhook = async (url: string, extra: Record<string, string>) => {
    log.reset();
    const reply = await carrierPost(gateway, url, { ...fields, ...extra });
    expect(reply.status, reply.text).toBe(200);
    requests += log.requests.length;
    steps += log.steps();
    for (const index of log.requests.flatMap((request) => request.indexesWritten)) indexWrites[index] = (indexWrites[index] ?? 0) + 1;
    return reply.text;
  };
  let dial = dialOf(await webhook(`${VOICE_BASE}/incoming`, { CallStatus: 'ringing' }))!;
  expect(dial).toBeDefined();
  for (let missed = 0; missed < unanswered; missed += 1) {
    dial = dialOf(await webhook(dial.action, { DialCallStatus: 'no-answer', DialCallDuration: '0' }))!;
    expect(dial).toBeDefined();
  }
  await webhook(dial.statusCallback!, { CallStatus: 'in-progress' });
  expect(await webhook(dial.action, { DialCallStatus: 'completed', DialCallDuration: '30' })).toContain('<Hangup/>');
  await webhook(`${VOICE_BASE}/status`, { CallStatus: 'completed', CallDuration: '40' });
  return { sid, requests, steps, indexWrites };
}

describe('an answered call stays within its DynamoDB request budget', () => {
  it(`one buyer: at most ${BUDGET.requests} requests in ${BUDGET.steps} steps for the whole call, and the call is recorded whole`, async () => {
    const { company, number } = await setup(1);
    await playCall(number, 0);
    const measured = await playCall(number, 0);
    expect(measured.requests).toBeLessThanOrEqual(BUDGET.requests);
    expect(measured.steps).toBeLessThanOrEqual(BUDGET.steps);
    const found = await findCallByCarrierId('twilio', measured.sid);
    expect(await getCall(company.id, found!.call.id)).toMatchObject({ status: 'completed', in_progress: false, buyer_converted: true, revenue: 25, answered_duration: 30, rolled_up: true });
    // Each webhook writes the call in a transaction, billed 2 units per started KB of the item
    // (shared/calls/call-item.ts keeps it compact): under 1 KB, each of those writes is 2 units.
    const item = (await db.send(new GetCommand({ TableName: tableName, Key: callKey(company.id, found!.call.id) }))).Item!;
    expect(itemSize(item).bytes).toBeLessThan(1024);
    // Index entries are billed too: the caller's (gsi2, on the carrier-call lookup) is written
    // once, when the call is made; the live one (gsi3, projecting keys and the offer) is put then
    // and deleted when the call ends, and no save between touches either. Nothing else is indexed.
    expect(measured.indexWrites).toEqual({ gsi2: 1, gsi3: 2 });
  });

  it(`a fall-through adds at most ${BUDGET.perFallThrough.requests} requests in ${BUDGET.perFallThrough.steps} steps`, async () => {
    const { company, number } = await setup(2);
    const single = await setup(1);
    await playCall(number, 1);
    await playCall(single.number, 0);
    const direct = await playCall(single.number, 0);
    const fellThrough = await playCall(number, 1);
    expect(fellThrough.requests - direct.requests).toBeLessThanOrEqual(BUDGET.perFallThrough.requests);
    expect(fellThrough.steps - direct.steps).toBeLessThanOrEqual(BUDGET.perFallThrough.steps);
    const found = await findCallByCarrierId('twilio', fellThrough.sid);
    const stored = await getCall(company.id, found!.call.id);
    expect(stored).toMatchObject({ status: 'completed', buyer_converted: true });
    expect((stored!.attempts as unknown[]).length).toBe(2);
  });
});
