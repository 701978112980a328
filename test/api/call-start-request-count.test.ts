import { describe, expect, it } from 'vitest';
import { applyCounterChange } from '../../shared/buyers/counters.js';
import { findCallByCarrierId } from '../../shared/calls/call-store.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { useDynamoRequests, type LoggedRequest } from '../fixtures/dynamo-requests.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { callFields, carrierPost, dialOf, newCallSid, VOICE_BASE, xmlAttribute } from '../fixtures/voice.js';

/**
 * The `incoming` webhook of an answered one-buyer call at its floor (issue 12, docs/calls.md
 * "What call start reads"): the retried-webhook check beside the number lookup, everything the
 * number leads to side by side (the buyers with them), the call's transaction with the buyer's
 * claim in it (the delivery function clears its outbox item, not the webhook); the Dial is built
 * from what was read, with no read after the write and no item read twice.
 */
const gateway = useGateway();
const log = useDynamoRequests();

const READS = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand']);
/** Requests of an answered one-buyer call's incoming webhook, and their sequential steps. */
const BUDGET = { requests: 3, steps: 2 };

async function oneBuyerNumber(label: string): Promise<{ company: TestCompany; offer: Record<string, any>; number: string }> {
  const company = await createTestCompany(label);
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'B1', number: '+12125551000', current_conversion_revenue: 40, current_conversion_duration: 60 });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  return { company, offer, number: number.number as string };
}

/** What one request read, as `pk / sk` (keys) or `index: pk` (Queries). */
function readsOf(request: LoggedRequest): string[] {
  const input = request.input as Record<string, any>;
  if (request.command === 'GetItemCommand') return [`${input.Key.pk} / ${input.Key.sk}`];
  if (request.command === 'BatchGetItemCommand') return Object.values(input.RequestItems as Record<string, { Keys: Array<{ pk: string; sk: string }> }>).flatMap((table) => table.Keys.map((key) => `${key.pk} / ${key.sk}`));
  if (request.command === 'QueryCommand') return [`${input.IndexName ?? 'table'}: ${JSON.stringify(input.ExpressionAttributeValues)}`];
  return [];
}

/** The local event queue lives in the table (`Q#` partitions); in AWS it is SQS, not DynamoDB, so it is left out. */
const isQueueWrite = (request: LoggedRequest) => JSON.stringify(request.input).includes('"pk":"Q#');

async function measuredIncoming(number: string, caller: string, sid = newCallSid()) {
  log.reset();
  const reply = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(sid, caller, number), CallStatus: 'ringing' });
  expect(reply.status).toBe(200);
  const requests = log.requests.filter((request) => !isQueueWrite(request));
  const firstWrite = requests.findIndex((request) => !READS.has(request.command));
  return {
    sid,
    twiml: reply.text,
    requests,
    commands: requests.map((request) => request.command),
    // Steps as sent side by side; a queue write in between (not DynamoDB in AWS) does not count as one.
    steps: new Set(requests.map((request) => request.step)).size,
    reads: requests.flatMap(readsOf),
    readsAfterWrite: firstWrite < 0 ? [] : requests.slice(firstWrite).filter((request) => READS.has(request.command)),
  };
}

async function findNumberRecord(company: TestCompany, number: string): Promise<Record<string, any>> {
  const reply = await call(gateway, { path: '/api/v1/phone_numbers', authorization: company.authorization });
  expect(reply.status, reply.text).toBe(200);
  return (reply.body.phone_numbers as Array<Record<string, any>>).find((record) => record.number === number)!;
}

const duplicates = (values: readonly string[]) => values.filter((value, index) => values.indexOf(value) !== index);

describe('the incoming webhook of an answered one-buyer call', () => {
  it(`makes at most ${BUDGET.requests} DynamoDB requests in ${BUDGET.steps} steps, reads no item twice and nothing after the write`, async () => {
    const { number } = await oneBuyerNumber('call-start-count');
    // The first call of a company learns which configuration it has; the second is measured.
    await measuredIncoming(number, '+14155550140');
    const measured = await measuredIncoming(number, '+14155550141');

    expect(dialOf(measured.twiml)?.target).toBe('+12125551000');
    expect(measured.requests.length, measured.commands.join(', ')).toBeLessThanOrEqual(BUDGET.requests);
    expect(measured.steps).toBeLessThanOrEqual(BUDGET.steps);
    expect(duplicates(measured.reads)).toEqual([]);
    expect(measured.readsAfterWrite.map((request) => request.command)).toEqual([]);
    // One transaction writing the call with its outbox items and the claim (the buyer's counter item): no claim of its own.
    expect(measured.commands.filter((command) => command === 'UpdateItemCommand')).toHaveLength(0);
    const [transaction, ...others] = measured.requests.filter((request) => request.command === 'TransactWriteItemsCommand');
    expect(others).toEqual([]);
    expect(JSON.stringify(transaction!.input)).toContain('"sk":"stats#');
  });

  it('keeps the budget with recording rules, token matchers and state limits configured, and a retried webhook answers the same without a second call', async () => {
    const { company, offer, number } = await oneBuyerNumber('call-start-config');
    await createThrough(gateway, company, '/api/v1/call_recording_rules', { name: 'All', offer_id: offer.id });
    await createThrough(gateway, company, '/api/v1/token_matchers', { match_field: 'called_number', match_type: 'exact', match_value: number, set_tokens: 'line:main' });
    await createThrough(gateway, company, '/api/v1/state_call_limits', { state: 'TX', concurrent_limit: 5 });
    await measuredIncoming(number, '+14155550142');
    const measured = await measuredIncoming(number, '+14155550143');

    expect(xmlAttribute(/<Dial\b[^>]*>/.exec(measured.twiml)![0], 'record')).toBe('record-from-answer-dual');
    expect((await findCallByCarrierId('twilio', measured.sid))?.call.data).toMatchObject({ line: 'main' });
    // The configuration Queries go out beside the keyed reads: more requests, no more steps.
    expect(measured.steps).toBeLessThanOrEqual(BUDGET.steps);
    expect(duplicates(measured.reads)).toEqual([]);
    expect(measured.readsAfterWrite).toEqual([]);

    const retried = await measuredIncoming(number, '+14155550143', measured.sid);
    expect(retried.twiml).toBe(measured.twiml);
    expect(retried.commands.filter((command) => !READS.has(command))).toEqual([]);
    expect(duplicates(retried.reads)).toEqual([]);
    expect((await findCallByCarrierId('twilio', measured.sid))?.companyId).toBe(company.id);
  });
});

describe('configuration the company gains between two calls applies to the very next call', () => {
  it("follows a change of the offer's buyers and of its group on the very next call, reading no buyer twice", async () => {
    const company = await createTestCompany('call-start-chain');
    const buyer = (name: string, number: string) => createThrough(gateway, company, '/api/v1/buyers', { name, number, current_conversion_duration: 60 });
    const [a, b, c] = [await buyer('A', '+12125551001'), await buyer('B', '+12125551002'), await buyer('C', '+12125551003')];
    // Buyers with counter items, as any buyer after its first call: a claim re-reads an absent one (shared/buyers/counters.ts).
    for (const { id } of [a, b, c]) expect((await applyCounterChange(company.id, id, 'UTC', new Date(), { increments: { connection: 1 } })).ok).toBe(true);
    const group = await createThrough(gateway, company, '/api/v1/buyer_groups/0', { name: 'Group', buyer_ids: [a.id] });
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_group_ids: [group.id] });
    const number = (await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id })).number as string;
    const put = async (path: string, json: Record<string, unknown>) => {
      const reply = await call(gateway, { method: 'PUT', path, authorization: company.authorization, json });
      expect(reply.status, reply.text).toBe(200);
    };
    const dialed = async (caller: string) => {
      const measured = await measuredIncoming(number, caller);
      expect(duplicates(measured.reads)).toEqual([]);
      return dialOf(measured.twiml)?.target;
    };
    expect(await dialed('+14155550150')).toBe(a.number);
    expect(await dialed('+14155550151')).toBe(a.number);

    await put(`/api/v1/buyers/${a.id}`, { paused: true });
    await put(`/api/v1/buyer_groups/${group.id}`, { buyer_ids: [a.id, b.id] });
    expect(await dialed('+14155550152')).toBe(b.number);

    await put(`/api/v1/offers/${offer.id}`, { buyer_ids: [c.id], buyer_group_ids: [] });
    expect(await dialed('+14155550153')).toBe(c.number);
    expect(await dialed('+14155550154')).toBe(c.number);

    // The number moves to another offer: its next call follows the lookup item read with it.
    const other = await createThrough(gateway, company, '/api/v1/offers', { name: 'Other', buyer_ids: [a.id] });
    await put(`/api/v1/buyers/${a.id}`, { paused: false });
    const numberId = (await findNumberRecord(company, number)).id;
    await put(`/api/v1/phone_numbers/${numberId}`, { offer_id: other.id });
    const moved = await measuredIncoming(number, '+14155550155');
    expect(dialOf(moved.twiml)?.target).toBe(a.number);
    expect(duplicates(moved.reads)).toEqual([]);
    expect((await findCallByCarrierId('twilio', moved.sid))?.call.offer_id).toBe(other.id);
    expect(await dialed('+14155550156')).toBe(a.number);
  });

  it('a recording rule created after a call that found none records the next call', async () => {
    const { company, number } = await oneBuyerNumber('call-start-late-rule');
    const before = await measuredIncoming(number, '+14155550144');
    expect(xmlAttribute(/<Dial\b[^>]*>/.exec(before.twiml)![0], 'record')).toBeUndefined();
    await createThrough(gateway, company, '/api/v1/call_recording_rules', { name: 'All' });

    const after = await measuredIncoming(number, '+14155550145');
    expect(xmlAttribute(/<Dial\b[^>]*>/.exec(after.twiml)![0], 'record')).toBe('record-from-answer-dual');
    expect(duplicates(after.reads)).toEqual([]);
  });

  it('a token matcher and a blacklist entry made after a call apply to the next one', async () => {
    const { company, number } = await oneBuyerNumber('call-start-late-block');
    const first = await measuredIncoming(number, '+14155550146');
    expect((await findCallByCarrierId('twilio', first.sid))?.call.data).toEqual({});
    await createThrough(gateway, company, '/api/v1/token_matchers', { match_field: 'called_number', match_type: 'exact', match_value: number, set_tokens: 'line:main' });
    const matched = await measuredIncoming(number, '+14155550148');
    expect(dialOf(matched.twiml)?.target).toBe('+12125551000');
    expect((await findCallByCarrierId('twilio', matched.sid))?.call.data).toMatchObject({ line: 'main' });
    const blocked = await call(gateway, { method: 'POST', path: '/api/v1/contacts/(415) 555-0147/caller_block', authorization: company.authorization });
    expect(blocked.status, blocked.text).toBe(200);
    const refused = await measuredIncoming(number, '+14155550147');
    expect(dialOf(refused.twiml)).toBeUndefined();
  });
});
