import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { db } from '../../shared/db/client.js';
import { findCallByCarrierId, getCall } from '../../shared/calls/call-store.js';
import { midDayTomorrow, pinClock, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { useDynamoRequests, type LoggedRequest } from '../fixtures/dynamo-requests.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { useRecordedEventQueue, workOf } from '../fixtures/queue-messages.js';
import { createThrough, receiveEvents } from '../fixtures/records.js';
import { callFields, carrierPost, dialOf, newCallSid, showBuyer, VOICE_BASE } from '../fixtures/voice.js';

/**
 * The DynamoDB requests of the webhooks after an answered call's `incoming` (issue 12, "Call"):
 * counted through an SDK middleware on the document client, with their sequential steps.
 * dial_status counts the connection without reading the buyer or its counters; dial_action reads
 * the call and the caller's duplicate history only (the attempt carries the buyer's zone and
 * terms) and saves it with release, connection and conversion counted and the duplicate history
 * written, all in one transaction; status reads the call once,
 * beside the offer's payout rules. No webhook reads an item twice.
 */
const gateway = useGateway();
const log = useDynamoRequests();
usePinnedClock(midDayTomorrow);

const sent = useRecordedEventQueue();

const CALLER = '+14155552671';
const READS = new Set(['GetItemCommand', 'BatchGetItemCommand']);

/** The id of one of the company's tracking numbers. */
async function findNumberId(company: TestCompany, number: string): Promise<number> {
  const reply = await call(gateway, { path: `/api/v1/phone_numbers?number=${encodeURIComponent(number)}`, authorization: company.authorization });
  expect(reply.status, reply.text).toBe(200);
  return (reply.body.phone_numbers as Array<{ id: number; number: string }>).find((row) => row.number === number)!.id;
}

async function setup(buyerFields: Record<string, unknown> = {}): Promise<{ company: TestCompany; buyerId: number; number: string }> {
  const company = await createTestCompany('call-webhook-count');
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', {
    name: 'Counted',
    number: '+12125551000',
    time_zone: 'America/New_York',
    current_conversion_revenue: 25,
    current_conversion_duration: 10,
    ...buyerFields,
  });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  return { company, buyerId: buyer.id as number, number: number.number as string };
}

/** The requests of one webhook, its steps, and every key it read (GetItem / BatchGetItem). */
async function measured(url: string, fields: Record<string, string>) {
  log.reset();
  const reply = await carrierPost(gateway, url, fields);
  expect(reply.status, reply.text).toBe(200);
  const requests: LoggedRequest[] = [...log.requests];
  const steps = log.steps();
  const readKeys = requests
    .filter((request) => READS.has(request.command))
    .flatMap((request) =>
      request.command === 'GetItemCommand'
        ? [request.input.Key as { pk: string; sk: string }]
        : Object.values(request.input.RequestItems as Record<string, { Keys: Array<{ pk: string; sk: string }> }>).flatMap((table) => table.Keys),
    )
    .map((key) => `${key.pk} / ${key.sk}`);
  return { reply, requests: requests.length, steps, commands: requests.map((request) => request.command), readKeys };
}

describe('an answered call\'s webhooks after incoming stay within their DynamoDB request budgets', () => {
  it('dial_status, dial_action and status: requests, steps, no item read twice, and the counts they keep', async () => {
    const { company, buyerId, number } = await setup();
    // With a subscription the call's events are staged (without one, event-consumers.test.ts).
    await receiveEvents(gateway, company);
    const sid = newCallSid();
    const fields = callFields(sid, CALLER, number);
    const incoming = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...fields, CallStatus: 'ringing' });
    const dial = dialOf(incoming.text)!;
    expect(dial.statusCallback).toBeDefined();
    const buyersPartition = `C#${company.id}#buyers`;
    const buyerReads = (keys: string[]) => keys.filter((key) => key.startsWith(`${buyersPartition} / `));

    // dial_status: the call's read (beside the company's event consumer counts), its versioned
    // save with the event and the connection's counter update in one transaction (no read of the
    // buyer or its counters); the delivery function clears the outbox item.
    const answered = await measured(dial.statusCallback!, { ...fields, CallStatus: 'in-progress' });
    expect(answered.commands).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand']);
    expect(answered.steps).toBe(2);
    expect(buyerReads(answered.readKeys)).toEqual([]);
    expect(new Set(answered.readKeys).size).toBe(answered.readKeys.length);

    // dial_action: the call read with the consumer counts (terms without a duplicate timeframe need
    // no history), then one transaction: the call saved, the counter update (release, conversion),
    // the duplicate history's Put.
    const ended = await measured(dial.action, { ...fields, DialCallStatus: 'completed', DialCallDuration: '30' });
    expect(ended.reply.text).toContain('<Hangup/>');
    expect(ended.commands).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand']);
    expect(ended.steps).toBe(2);
    expect(buyerReads(ended.readKeys)).toEqual([]);
    expect(new Set(ended.readKeys).size).toBe(ended.readKeys.length);

    // status: the carrier-call lookup, the call beside the payout rules, the ending transaction
    // (call, rollups, event).
    const final = await measured(`${VOICE_BASE}/status`, { ...fields, CallStatus: 'completed', CallDuration: '40' });
    expect(final.requests).toBeLessThanOrEqual(4);
    expect(final.steps).toBeLessThanOrEqual(3);
    expect(new Set(final.readKeys).size).toBe(final.readKeys.length);

    const callId = (await findCallByCarrierId('twilio', sid))!.call.id;
    expect(await getCall(company.id, callId)).toMatchObject({ status: 'completed', in_progress: false, buyer_converted: true, revenue: 25, answered_duration: 30, rolled_up: true });
    const counted = { connection_daily_used: 1, buyer_conversion_daily_used: 1, revenue_daily_used: 25, concurrency_cap_used: 0, attempt_daily_used: 1 };
    expect(await showBuyer(gateway, company, buyerId)).toMatchObject(counted);

    // Every event of the call was sent (in its outbox item's envelope; the delivery function clears the item).
    const events = sent.flatMap(workOf).flatMap((message) => (message.kind === 'event' && message.event.data.id === callId ? [message.event.name] : []));
    expect(events).toEqual(['new_call', 'call_ringing', 'call_forwarded', 'call_ended']);

    // Retried webhooks change nothing twice: the counts stay as they are.
    await carrierPost(gateway, dial.statusCallback!, { ...fields, CallStatus: 'in-progress' });
    await carrierPost(gateway, dial.action, { ...fields, DialCallStatus: 'completed', DialCallDuration: '30' });
    await carrierPost(gateway, `${VOICE_BASE}/status`, { ...fields, CallStatus: 'completed', CallDuration: '40' });
    expect(await showBuyer(gateway, company, buyerId)).toMatchObject(counted);
  });

  it('with a duplicate timeframe dial_action reads the caller\'s payment history once, and a repeat caller does not convert', async () => {
    const { company, buyerId, number } = await setup({ current_conversion_duplicate_timeframe: 3600 });
    const play = async () => {
      const fields = callFields(newCallSid(), CALLER, number);
      const dial = dialOf((await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...fields, CallStatus: 'ringing' })).text)!;
      await carrierPost(gateway, dial.statusCallback!, { ...fields, CallStatus: 'in-progress' });
      const ended = await measured(dial.action, { ...fields, DialCallStatus: 'completed', DialCallDuration: '30' });
      await carrierPost(gateway, `${VOICE_BASE}/status`, { ...fields, CallStatus: 'completed', CallDuration: '40' });
      return ended;
    };
    const first = await play();
    expect(first.requests).toBe(3);
    expect(first.steps).toBe(3);
    expect(first.readKeys.filter((key) => key.includes('#conversions#'))).toHaveLength(1);
    expect(new Set(first.readKeys).size).toBe(first.readKeys.length);
    await play();
    expect(await showBuyer(gateway, company, buyerId)).toMatchObject({ attempt_daily_used: 2, connection_daily_used: 2, buyer_conversion_daily_used: 1, revenue_daily_used: 25, concurrency_cap_used: 0 });
  });

  it('a fall-through releases the unanswered buyer in the save that dials the next one', async () => {
    const { company, buyerId, number } = await setup();
    const second = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Second', number: '+12125551001' });
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Two', buyer_ids: [buyerId, second.id], routing_type: 'priority' });
    const moved = await call(gateway, { method: 'PUT', path: `/api/v1/phone_numbers/${await findNumberId(company, number)}`, authorization: company.authorization, json: { offer_id: offer.id } });
    expect(moved.status, moved.text).toBe(200);
    const sid = newCallSid();
    const fields = callFields(sid, CALLER, number);
    const first = dialOf((await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...fields, CallStatus: 'ringing' })).text)!;
    const firstBuyer = first.target === '+12125551000' ? buyerId : (second.id as number);
    const otherBuyer = firstBuyer === buyerId ? (second.id as number) : buyerId;

    const fell = await measured(first.action, { ...fields, DialCallStatus: 'no-answer', DialCallDuration: '0' });
    expect(dialOf(fell.reply.text)).toBeDefined();
    const statsOfFirst = `C#${company.id}#buyers / stats#${String(firstBuyer).padStart(16, '0')}`;
    const standalone = log.requests.filter((request) => request.command === 'UpdateItemCommand').map((request) => request.input.Key as { pk: string; sk: string });
    expect(standalone.map((key) => `${key.pk} / ${key.sk}`)).not.toContain(statsOfFirst);
    expect(await showBuyer(gateway, company, firstBuyer)).toMatchObject({ attempt_daily_used: 1, connection_daily_used: 0, concurrency_cap_used: 0 });
    expect(await showBuyer(gateway, company, otherBuyer)).toMatchObject({ attempt_daily_used: 1, concurrency_cap_used: 1 });
  });

  it('a caller hanging up while the buyer rings: status releases the buyer inside the ending transaction', async () => {
    const { company, buyerId, number } = await setup();
    const sid = newCallSid();
    const fields = callFields(sid, CALLER, number);
    expect(dialOf((await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...fields, CallStatus: 'ringing' })).text)).toBeDefined();
    expect(await showBuyer(gateway, company, buyerId)).toMatchObject({ concurrency_cap_used: 1 });
    const final = await measured(`${VOICE_BASE}/status`, { ...fields, CallStatus: 'completed', CallDuration: '5' });
    expect(final.commands.filter((command) => command === 'UpdateItemCommand')).toEqual([]);
    expect(final.requests).toBeLessThanOrEqual(4);
    const callId = (await findCallByCarrierId('twilio', sid))!.call.id;
    expect(await getCall(company.id, callId)).toMatchObject({ status: 'canceled', in_progress: false });
    expect(await showBuyer(gateway, company, buyerId)).toMatchObject({ attempt_daily_used: 1, connection_daily_used: 0, concurrency_cap_used: 0 });
    // A replayed final status releases nothing twice.
    await carrierPost(gateway, `${VOICE_BASE}/status`, { ...fields, CallStatus: 'completed', CallDuration: '5' });
    expect(await showBuyer(gateway, company, buyerId)).toMatchObject({ concurrency_cap_used: 0 });
  });

  it('counts in the buyer\'s new period when the hour turned between the claim and the answer', async () => {
    // The blind updates assume the claim's periods: a new hour fails their condition (dial_status's
    // cancels its transaction, saved again without it); the item is read and the change re-decided.
    const { company, buyerId, number } = await setup();
    // With a subscription the call's events are staged (without one, event-consumers.test.ts).
    await receiveEvents(gateway, company);
    const sid = newCallSid();
    const fields = callFields(sid, CALLER, number);
    const incoming = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...fields, CallStatus: 'ringing' });
    const dial = dialOf(incoming.text)!;
    pinClock(new Date(midDayTomorrow().getTime() + 60 * 60 * 1000));
    await carrierPost(gateway, dial.statusCallback!, { ...fields, CallStatus: 'in-progress' });
    const callId = (await findCallByCarrierId('twilio', sid))!.call.id;
    expect(await getCall(company.id, callId)).toMatchObject({ status: 'in_progress' });
    await carrierPost(gateway, dial.action, { ...fields, DialCallStatus: 'completed', DialCallDuration: '30' });
    expect(await showBuyer(gateway, company, buyerId)).toMatchObject({
      attempt_hourly_used: 0,
      attempt_daily_used: 1,
      connection_hourly_used: 1,
      connection_daily_used: 1,
      buyer_conversion_hourly_used: 1,
      concurrency_cap_used: 0,
    });
  });

  it('a dial_status whose transaction meets a claim on the buyer\'s counters (TransactionConflict) saves the answer and counts the connection once, after it', async () => {
    // DynamoDB Local runs transactions one at a time and never cancels one for a conflict; real
    // DynamoDB does when another call's claim writes the counter item at that moment. Injected.
    const { company, buyerId, number } = await setup();
    const sid = newCallSid();
    const fields = callFields(sid, CALLER, number);
    const dial = dialOf((await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...fields, CallStatus: 'ringing' })).text)!;
    const send = db.send.bind(db) as (command: unknown) => Promise<unknown>;
    let cancelled = 0;
    const spy = vi.spyOn(db, 'send').mockImplementation((async (command: unknown) => {
      const items = command instanceof TransactWriteCommand ? (command.input.TransactItems ?? []) : [];
      const counterAt = items.findIndex((item) => String((item.Update?.Key as { sk?: string } | undefined)?.sk).startsWith('stats#'));
      if (counterAt >= 0 && cancelled === 0) {
        cancelled++;
        throw new TransactionCanceledException({
          message: 'Transaction cancelled (TransactionConflict)',
          $metadata: {},
          CancellationReasons: items.map((_, index) => ({ Code: index === counterAt ? 'TransactionConflict' : 'None' })),
        });
      }
      return send(command);
    }) as never);
    try {
      expect((await carrierPost(gateway, dial.statusCallback!, { ...fields, CallStatus: 'in-progress' })).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(cancelled).toBe(1);
    const callId = (await findCallByCarrierId('twilio', sid))!.call.id;
    const answered = (await getCall(company.id, callId))!;
    expect(answered.status).toBe('in_progress');
    expect((answered.attempts as Array<{ status: string }>)[0]!.status).toBe('answered');
    expect(await showBuyer(gateway, company, buyerId)).toMatchObject({ connection_daily_used: 1, concurrency_cap_used: 1 });
    // A retried answer counts nothing more; the call then ends as usual.
    await carrierPost(gateway, dial.statusCallback!, { ...fields, CallStatus: 'in-progress' });
    await carrierPost(gateway, dial.action, { ...fields, DialCallStatus: 'completed', DialCallDuration: '30' });
    await carrierPost(gateway, `${VOICE_BASE}/status`, { ...fields, CallStatus: 'completed', CallDuration: '40' });
    expect(await showBuyer(gateway, company, buyerId)).toMatchObject({ connection_daily_used: 1, concurrency_cap_used: 0, buyer_conversion_daily_used: 1 });
  });
});
