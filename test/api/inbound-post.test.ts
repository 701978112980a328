import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { currentCounters, periodKeys } from '../../shared/buyers/counter-model.js';
import { readCounterItems } from '../../shared/buyers/counters.js';
import { putDayRecord } from '../../shared/db/day-records.js';
import { timeSortableId } from '../../shared/db/ids.js';
import { findReservation } from '../../shared/routing/reservations.js';
import { createTestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { clock } from '../../shared/adapters/clock.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { callFields, carrierPost, dialOf, newCallSid, VOICE_BASE } from '../fixtures/voice.js';

const gateway = useGateway();
// Counters, caps, rollups and charges are per hour and UTC day: pinned mid-day, mid-minute so the
// file passes at any hour.
usePinnedClockForAll(midDayTomorrow);

const CALLER = '+14155552671';

async function setup(webhookFields: Record<string, unknown> = {}, buyerFields: Record<string, unknown>[] = [{}, {}], numbers = 2) {
  const company = await createTestCompany('post');
  const buyers = [];
  for (const fields of buyerFields) buyers.push(await createThrough(gateway, company, '/api/v1/buyers', { name: `B${buyers.length}`, current_conversion_revenue: 12, ...fields }));
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: buyers.map((b) => b.id) });
  const owned = [];
  for (let i = 0; i < numbers; i++) owned.push(await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id }));
  const webhook = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: `post-${randomUUID().slice(0, 8)}`, offer_id: offer.id, ...webhookFields });
  return { company, buyers, offer, numbers: owned.map((n) => n.number as string), webhook };
}

const ping = (vanity: string, query = `?caller_id=${encodeURIComponent(CALLER)}`) => call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${vanity}${query}` });
const post = (vanity: string, json: Record<string, unknown>) => call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/post/${vanity}`, json });

describe('POST /api/v1/inbound_webhooks/post/:vanity_uri', () => {
  it('reserves one of the offer\'s numbers for the caller with the try-all ping id', async () => {
    const { company, buyers, numbers, webhook } = await setup();
    const pinged = (await ping(webhook.vanity_uri)).body;
    const reply = await post(webhook.vanity_uri, { ping_id: pinged.try_all_buyers_ping_id, caller_id: '(415) 555-2671' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    expect(reply.body).toMatchObject({ success: true, status: 200, errors: [], caller_id: CALLER, expires_in_seconds: 180 });
    expect(numbers).toContain(reply.body.phone_number);
    expect(reply.body.phone_number).toMatch(/^\+\d{10,15}$/);
    const reservation = await findReservation(company.id, reply.body.phone_number, CALLER, clock().now());
    expect(reservation?.buyer_ids.sort()).toEqual(buyers.map((b) => b.id).sort());
    // The window ends when the answer says.
    expect(await findReservation(company.id, reply.body.phone_number, CALLER, new Date(Date.parse(reply.body.expires_at) + 1000))).toBeUndefined();
  });

  it('holds the number for one buyer when posted with that buyer\'s ping id, and keeps the ping\'s tokens', async () => {
    const { company, buyers, webhook } = await setup();
    const pinged = (await ping(webhook.vanity_uri, `?caller_id=${encodeURIComponent(CALLER)}&state=CA`)).body;
    const chosen = pinged.buyers.find((b: any) => b.buyer_id === buyers[1]!.id);
    const reply = await post(webhook.vanity_uri, { ping_id: chosen.ping_id, caller_id: CALLER });
    const reservation = await findReservation(company.id, reply.body.phone_number, CALLER, clock().now());
    expect(reservation).toMatchObject({ buyer_ids: [buyers[1]!.id], tokens: { state: 'CA' }, inbound_webhook_id: webhook.id });
  });

  it('takes the number from the webhook\'s pool when it has one', async () => {
    const { company, offer, webhook } = await setup();
    const pool = await createThrough(gateway, company, '/api/v1/ring_pools', { name: 'Pool', offer_id: offer.id });
    const pooled = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id, ring_pool_id: pool.id });
    await call(gateway, { method: 'PUT', path: `/api/v1/inbound_webhooks/${webhook.id}`, authorization: company.authorization, json: { ring_pool_id: pool.id } });
    for (let i = 0; i < 3; i++) {
      const pinged = (await ping(webhook.vanity_uri)).body;
      expect((await post(webhook.vanity_uri, { ping_id: pinged.ping_id, caller_id: CALLER })).body.phone_number).toBe(pooled.number);
    }
  });

  it('answers unknown, malformed, foreign and missing ping ids with clear 4xx', async () => {
    const { webhook } = await setup();
    const other = await setup();
    const theirs = (await ping(other.webhook.vanity_uri)).body;
    expect((await post(webhook.vanity_uri, { ping_id: '123456789', caller_id: CALLER })).status).toBe(404);
    expect((await post(webhook.vanity_uri, { ping_id: 'abc', caller_id: CALLER })).status).toBe(404);
    expect((await post(webhook.vanity_uri, { ping_id: theirs.ping_id, caller_id: CALLER })).status).toBe(404);
    // Without a ping id the post pings first (post-only mode): it answers with a number.
    const postOnly = await post(webhook.vanity_uri, { caller_id: CALLER });
    expect(postOnly.status).toBe(200);
    expect(postOnly.body).toMatchObject({ success: true, forwarding_number: postOnly.body.phone_number });
    const pinged = (await ping(webhook.vanity_uri)).body;
    expect((await post(webhook.vanity_uri, { ping_id: `${pinged.ping_id}-999999`, caller_id: CALLER })).status).toBe(404);
  });

  it('answers an expired ping id with 410', async () => {
    const { company, webhook } = await setup();
    const past = new Date(clock().now().getTime() - 10 * 60 * 1000);
    const id = timeSortableId(past.getTime());
    await putDayRecord(company.id, 'inbound_webhook_logs', {
      id,
      uuid: randomUUID(),
      created_at: past.toISOString(),
      updated_at: past.toISOString(),
      kind: 'ping',
      inbound_webhook_id: webhook.id,
      eligible_buyer_ids: [1],
      ping_expires_at: new Date(past.getTime() + 120_000).toISOString(),
    });
    const reply = await post(webhook.vanity_uri, { ping_id: String(id), caller_id: CALLER });
    expect(reply.status).toBe(410);
    expect(reply.body).toEqual({ success: false, status: 410, errors: ['ping_id has expired; ping again'], field_errors: { ping_id: ['has expired; ping again'] } });
  });

  it('needs the caller id, and a number to give', async () => {
    const { webhook } = await setup();
    const pinged = (await ping(webhook.vanity_uri)).body;
    expect((await post(webhook.vanity_uri, { ping_id: pinged.ping_id })).body.field_errors).toEqual({ caller_id: ['is required'] });
    const bare = await setup({}, [{}], 0);
    const barePing = (await ping(bare.webhook.vanity_uri)).body;
    const noNumber = await post(bare.webhook.vanity_uri, { ping_id: barePing.ping_id, caller_id: CALLER });
    expect(noNumber.status).toBe(422);
    expect(noNumber.body.errors[0]).toContain('No tracking number');
  });

  it('answers in test mode without holding the number', async () => {
    const { company, webhook } = await setup({ test_mode: true });
    const pinged = (await ping(webhook.vanity_uri)).body;
    const reply = await post(webhook.vanity_uri, { ping_id: pinged.ping_id, caller_id: CALLER });
    expect(reply.body).toMatchObject({ success: true, test_mode: true });
    expect(await findReservation(company.id, reply.body.phone_number, CALLER, clock().now())).toBeUndefined();
  });

  it('logs the post next to its ping', async () => {
    const { company, webhook } = await setup();
    const pinged = (await ping(webhook.vanity_uri)).body;
    await post(webhook.vanity_uri, { ping_id: pinged.ping_id, caller_id: CALLER });
    const logs = await call(gateway, { path: `/api/v1/inbound_webhook_logs?inbound_webhook_id=${webhook.id}&columns=kind,success,caller_id`, authorization: company.authorization });
    expect(logs.body.inbound_webhook_logs).toEqual([
      { kind: 'post', success: true, caller_id: CALLER },
      { kind: 'ping', success: true, caller_id: CALLER },
    ]);
  });
});

/** The caller calls the posted number (the voice webhook): the number the call dials, if any. */
async function callIn(number: string, caller: string) {
  const sid = newCallSid();
  const reply = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(sid, caller, number), CallStatus: 'ringing' });
  expect(reply.status, reply.text).toBe(200);
  return { sid, caller, number, dialed: dialOf(reply.text)?.target };
}

/** The caller hangs up (the carrier's final status): the call ends and gives its buyer back. */
async function hangUp(placed: { sid: string; caller: string; number: string }) {
  const reply = await carrierPost(gateway, `${VOICE_BASE}/status`, { ...callFields(placed.sid, placed.caller, placed.number), CallStatus: 'completed', CallDuration: '5' });
  expect(reply.status, reply.text).toBe(200);
}

describe('caps under concurrent ping, post and call start', () => {
  const capped = { number: '+12125557000', concurrency_cap_limit: 5, attempt_daily_limit: 20 };

  it('lets 50 simultaneous flows hold exactly 5 calls on a buyer capped at 5 concurrent and 20 a day', async () => {
    const { company, buyers, webhook } = await setup({}, [capped], 3);
    const buyer = buyers[0]!;
    const flows = await Promise.all(
      Array.from({ length: 50 }, async (_, index) => {
        const caller = `+1415555${String(1000 + index)}`;
        const pinged = (await ping(webhook.vanity_uri, `?caller_id=${encodeURIComponent(caller)}`)).body;
        if (!pinged.success) return undefined;
        const posted = (await post(webhook.vanity_uri, { ping_id: pinged.ping_id, caller_id: caller })).body;
        // The call arrives at the reserved number and is routed to the reservation's buyer.
        return callIn(posted.phone_number, caller);
      }),
    );
    const dialed = flows.filter((placed) => placed?.dialed === capped.number);
    expect(dialed).toHaveLength(5);
    const counters = () => readCounterItems(company.id, [buyer.id]).then((items) => currentCounters(items.get(buyer.id), periodKeys(clock().now(), 'UTC')));
    expect((await counters()).concurrency).toBe(5);
    expect((await counters()).attempt.daily).toBe(5);

    // The calls end: concurrency is released and the counts tell the truth.
    for (const placed of dialed) await hangUp(placed!);
    expect(await counters()).toMatchObject({ concurrency: 0, attempt: { daily: 5, total: 5 } });
  });

  it('never passes the daily attempt cap when calls end and new ones race in', async () => {
    const { company, buyers, webhook } = await setup({}, [capped], 3);
    const buyer = buyers[0]!;
    let started = 0;
    await Promise.all(
      Array.from({ length: 50 }, async (_, index) => {
        const caller = `+1415556${String(1000 + index)}`;
        const pinged = (await ping(webhook.vanity_uri, `?caller_id=${encodeURIComponent(caller)}`)).body;
        if (!pinged.success) return;
        const posted = (await post(webhook.vanity_uri, { ping_id: pinged.ping_id, caller_id: caller })).body;
        if (!posted.success) return;
        const placed = await callIn(posted.phone_number, caller);
        if (placed.dialed === capped.number) {
          started += 1;
          await hangUp(placed);
        }
      }),
    );
    const counters = currentCounters((await readCounterItems(company.id, [buyer.id])).get(buyer.id), periodKeys(clock().now(), 'UTC'));
    expect(started).toBeLessThanOrEqual(20);
    expect(counters.attempt.daily).toBe(started);
    expect(counters.concurrency).toBe(0);
  });
});
