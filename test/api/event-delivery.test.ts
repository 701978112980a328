import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.js';
import { keys } from '../../shared/db/keys.js';
import { deliverBatch } from '../../shared/events/delivery.js';
import { sweepOutbox } from '../../shared/events/outbox.js';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { pinClock, restoreClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { deliverQueued, startReceiver, testQueue, useReceiver } from '../fixtures/events.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';

// Deliveries may reach receivers on this machine (the SSRF guard refuses loopback otherwise), and
// a subscription whose deliveries have failed for a day is disabled once a delivery gives up
// (the default is five days; the retry schedule itself is the default one, 27.6 hours).
process.env.WEBHOOK_ALLOWED_CIDRS = '127.0.0.0/8';
process.env.WEBHOOK_DISABLE_AFTER = '1d';

const gateway = useGateway();
const receiver = useReceiver();
const TOKEN = process.env.TWILIO_AUTH_TOKEN!;
const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000];

afterEach(() => restoreClock());

async function api(company: TestCompany, method: string, path: string, json?: Record<string, unknown>) {
  return call(gateway, { method, path, authorization: company.authorization, json });
}

/** A company with one buyer on an offer and a tracking number for it. */
async function callSetup() {
  const company = await createTestCompany('events');
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'B', number: '+12125551000', current_conversion_revenue: 20, current_conversion_duration: 10 });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  return { company, buyer, offer, number: number.number as string };
}

async function subscribe(company: TestCompany, fields: Record<string, unknown>) {
  const reply = await api(company, 'POST', '/api/v1/subscriptions', fields);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.subscription as Record<string, any>;
}

/** One answered call through the carrier webhooks, 30 s of talk. */
async function answeredCall(to: string) {
  const result = await simulateCall({ baseUrl: gateway.baseUrl, authToken: TOKEN, from: '+14155552671', to, buyers: [{ answer: true, answerAfter: 2, talk: 30 }], callSid: `CA${randomUUID().replace(/-/g, '')}` });
  expect(result.outcome).toBe('completed');
  return result.callId!;
}

/** The requests the shared receiver got for one target URL (each test adds a query of its own). */
const bodiesFor = (target: string) => {
  const { pathname, search } = new URL(target);
  return receiver.received.filter((request) => request.url === pathname + search);
};

describe('a subscription to call_ended', () => {
  it('receives the ended call once, signed the Standard Webhooks way, verifiable with the standardwebhooks library', async () => {
    const { company, offer, number } = await callSetup();
    const target = `${receiver.url}?sub=${randomUUID()}`;
    const subscription = await subscribe(company, { target_url: target, event: 'call_ended' });
    // The secret is shown by the create that made it, and never again.
    expect(subscription.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const shown = await api(company, 'GET', `/api/v1/subscriptions/${subscription.id}`);
    expect(shown.body.subscription).not.toHaveProperty('secret');
    expect(shown.body.subscription).toMatchObject({ enabled: true, failing_since: null, disabled_at: null });

    const callId = await answeredCall(number);
    await deliverQueued();
    const deliveries = bodiesFor(target);
    expect(deliveries).toHaveLength(1);
    const delivery = deliveries[0]!;
    expect(delivery.method).toBe('POST');
    expect(delivery.headers['content-type']).toBe('application/json');
    // What a receiver writes: three lines with the library.
    const payload = new Webhook(subscription.secret).verify(delivery.body, delivery.headers as Record<string, string>) as Record<string, any>;
    expect(payload).toMatchObject({ type: 'call_ended', company_id: company.id, object: 'call', data: { id: callId, offer_id: offer.id, status: 'completed', in_progress: false, answered_duration: 30 } });
    expect(delivery.headers['webhook-id']).toBe(payload.id);
    // Another secret does not verify it.
    expect(() => new Webhook(`whsec_${Buffer.from('x'.repeat(24)).toString('base64')}`).verify(delivery.body, delivery.headers as Record<string, string>)).toThrow();

    // Delivering the queue again sends nothing more.
    await deliverQueued();
    expect(bodiesFor(target)).toHaveLength(1);
  });

  it('fires only for calls matching every trigger field', async () => {
    const { company, offer, buyer, number } = await callSetup();
    const matching = `${receiver.url}?match=${randomUUID()}`;
    const other = `${receiver.url}?other=${randomUUID()}`;
    const converted = `${receiver.url}?converted=${randomUUID()}`;
    await subscribe(company, { target_url: matching, event: 'call_ended', trigger_fields: { offer_id: offer.id, buyer_id: buyer.id } });
    await subscribe(company, { target_url: other, event: 'call_ended', trigger_fields: { offer_id: offer.id + 1000 } });
    await subscribe(company, { target_url: converted, event: 'call_ended', trigger_fields: { buyer_converted: false } });
    await answeredCall(number);
    await deliverQueued();
    expect(bodiesFor(matching)).toHaveLength(1);
    expect(bodiesFor(other)).toHaveLength(0);
    // The call converted (30 s of talk against a 10 s conversion duration): buyer_converted=false does not match.
    expect(bodiesFor(converted)).toHaveLength(0);
  });
});

describe('retries', () => {
  it('delivers once to a receiver that is down for the first attempts, each attempt in webhook_logs', async () => {
    const failing = await startReceiver();
    try {
      const start = new Date();
      pinClock(start);
      const { company, number } = await callSetup();
      const subscription = await subscribe(company, { target_url: failing.url, event: 'call_ended' });
      failing.answer(503);
      await answeredCall(number);
      await deliverQueued();
      expect(failing.received).toHaveLength(1);
      // Not due again before its delay (5 s) has passed.
      await deliverQueued();
      expect(failing.received).toHaveLength(1);
      pinClock(new Date(start.getTime() + 6_000));
      await deliverQueued();
      expect(failing.received).toHaveLength(2);
      failing.answer(200);
      pinClock(new Date(start.getTime() + 6_000 + 301_000));
      await deliverQueued();
      pinClock(new Date(start.getTime() + 4 * 3600_000));
      await deliverQueued();
      expect(failing.received).toHaveLength(3);
      // The same event, the same id on every attempt.
      expect(new Set(failing.received.map((request) => request.headers['webhook-id'])).size).toBe(1);

      const logs = await api(company, 'GET', `/api/v1/webhook_logs?subscription_id=${subscription.id}`);
      expect(logs.status, logs.text).toBe(200);
      const attempts = (logs.body.webhook_logs as Array<Record<string, any>>).sort((a, b) => a.attempt - b.attempt);
      expect(attempts.map((log) => [log.attempt, log.success, log.status_code])).toEqual([
        [1, false, 503],
        [2, false, 503],
        [3, true, 200],
      ]);
      expect(attempts[0]).toMatchObject({ kind: 'subscription', event: 'call_ended', target_url: failing.url, max_attempts: 8, error: 'HTTP 503', response_excerpt: 'receiver is down' });
      expect(attempts[0]!.next_attempt_at).not.toBeNull();
      expect(attempts[2]!.next_attempt_at).toBeNull();
      const shown = await api(company, 'GET', `/api/v1/subscriptions/${subscription.id}`);
      expect(shown.body.subscription).toMatchObject({ enabled: true, failing_since: null });
    } finally {
      await failing.close();
    }
  });

  it('gives up after the last attempt of the schedule: the message is dead-lettered and the subscription disabled', async () => {
    const down = await startReceiver();
    try {
      down.answer(500);
      const start = new Date();
      pinClock(start);
      const { company, number } = await callSetup();
      const subscription = await subscribe(company, { target_url: down.url, event: 'call_ended' });
      const callId = await answeredCall(number);
      let at = start.getTime();
      await deliverQueued();
      for (const delay of RETRY_DELAYS_SECONDS) {
        at += (delay + 1) * 1000;
        pinClock(new Date(at));
        await deliverQueued();
      }
      expect(down.received).toHaveLength(8);
      // After the last attempt the queue hands the message to its dead-letter queue.
      pinClock(new Date(at + 1000));
      await deliverQueued();
      expect(down.received).toHaveLength(8);
      const dead = (await testQueue().deadLetters()).map((message) => JSON.parse(message.body));
      expect(dead).toContainEqual(expect.objectContaining({ kind: 'delivery', subscriptionId: subscription.id, event: expect.objectContaining({ name: 'call_ended', data: expect.objectContaining({ id: callId }) }) }));

      const shown = (await api(company, 'GET', `/api/v1/subscriptions/${subscription.id}`)).body.subscription;
      expect(shown.enabled).toBe(false);
      expect(shown.disabled_at).not.toBeNull();
      expect(shown.disabled_reason).toContain('HTTP 500');
      // A disabled subscription gets no new events.
      await answeredCall(number);
      pinClock(new Date(at + 2000));
      await deliverQueued();
      expect(down.received).toHaveLength(8);

      // Fixed and re-enabled, then redriven: the dead-lettered event arrives.
      down.answer(200);
      const enabled = await api(company, 'PUT', `/api/v1/subscriptions/${subscription.id}`, { enabled: true });
      expect(enabled.body.subscription).toMatchObject({ enabled: true, disabled_at: null, disabled_reason: null, failing_since: null });
      expect(await testQueue().redrive()).toBeGreaterThanOrEqual(1);
      await deliverQueued();
      expect(down.received).toHaveLength(9);
      expect(JSON.parse(down.received[8]!.body)).toMatchObject({ type: 'call_ended', data: { id: callId } });
    } finally {
      await down.close();
    }
  });
});

describe('never lost, never twice', () => {
  it('delivers a change whose process was killed between the commit and the publish, after the restart', async () => {
    const { company, number } = await callSetup();
    const target = `${receiver.url}?crash=${randomUUID()}`;
    await subscribe(company, { target_url: target, event: 'call_changed' });
    const callId = await answeredCall(number);
    await deliverQueued();
    // A separate process changes the call and is killed (SIGKILL) right after the commit.
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'test/fixtures/crash-after-commit.ts', String(company.id), String(callId)], { env: process.env, encoding: 'utf8' });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    const shown = await api(company, 'GET', `/api/v1/calls/${callId}`);
    expect(shown.body.call.revenue).toBe(77);
    await deliverQueued();
    expect(bodiesFor(target)).toHaveLength(0);
    const pending = await db.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.outboxPartition(company.id) } }));
    expect(pending.Items).toHaveLength(1);

    // What the restarted service does first: send what the outbox holds.
    const swept = await sweepOutbox(new Date(), { companyIds: [company.id], graceSeconds: 0 });
    expect(swept.sent).toBe(1);
    await deliverQueued();
    const delivered = bodiesFor(target);
    expect(delivered).toHaveLength(1);
    expect(JSON.parse(delivered[0]!.body)).toMatchObject({ type: 'call_changed', data: { id: callId, revenue: 77 } });
    const after = await db.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.outboxPartition(company.id) } }));
    expect(after.Items).toHaveLength(0);
  });

  it('sends once when the queue delivers the same message twice', async () => {
    const { company } = await callSetup();
    const target = `${receiver.url}?dup=${randomUUID()}`;
    const subscription = await subscribe(company, { target_url: target, event: 'call_changed' });
    const id = randomUUID();
    const event = { id, name: 'call_changed' as const, companyId: company.id, occurredAt: new Date().toISOString(), data: { id: 1, offer_id: null } };
    // The event twice (fanned out twice) and its delivery twice: SQS's at-least-once, the outbox's re-publish.
    await testQueue().send([
      { kind: 'event', id, companyId: company.id, event },
      { kind: 'event', id, companyId: company.id, event },
      { kind: 'delivery', id: `${id}.s${subscription.id}`, companyId: company.id, event, subscriptionId: subscription.id },
    ]);
    await deliverQueued();
    expect(bodiesFor(target)).toHaveLength(1);
  });
});

describe('the SSRF guard', () => {
  const refused = ['http://127.0.0.1/hook', 'http://10.0.0.1/hook', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/hook', 'http://[::ffff:127.0.0.1]/hook', 'http://localhost/hook'];

  it('refuses subscriptions to loopback, private, link-local and mapped addresses with a 422 naming target_url', async () => {
    const company = await createTestCompany('ssrf');
    const allowed = process.env.WEBHOOK_ALLOWED_CIDRS;
    process.env.WEBHOOK_ALLOWED_CIDRS = '';
    try {
      for (const url of refused) {
        const reply = await api(company, 'POST', '/api/v1/subscriptions', { target_url: url, event: 'call_ended' });
        expect(reply.status, url).toBe(422);
        expect(reply.body.errors.target_url?.[0], url).toMatch(/must not point at/);
      }
      const list = await api(company, 'GET', '/api/v1/subscriptions');
      expect(list.body.subscriptions).toHaveLength(0);
      // An operator's WEBHOOK_ALLOWED_CIDRS lets its ranges through, and only those.
      process.env.WEBHOOK_ALLOWED_CIDRS = '127.0.0.0/8';
      expect((await api(company, 'POST', '/api/v1/subscriptions', { target_url: 'http://127.0.0.1/hook', event: 'call_ended' })).status).toBe(200);
      expect((await api(company, 'POST', '/api/v1/subscriptions', { target_url: 'http://10.0.0.1/hook', event: 'call_ended' })).status).toBe(422);
    } finally {
      process.env.WEBHOOK_ALLOWED_CIDRS = allowed;
    }
  });

  it('refuses at connect time a hostname that resolves to loopback, and logs the refusal', async () => {
    const { company, number } = await callSetup();
    const port = new URL(receiver.url).port;
    const target = `http://localhost:${port}/hook?name=${randomUUID()}`;
    const subscription = await subscribe(company, { target_url: target, event: 'call_ended' });
    const allowed = process.env.WEBHOOK_ALLOWED_CIDRS;
    process.env.WEBHOOK_ALLOWED_CIDRS = '';
    try {
      await answeredCall(number);
      await deliverQueued();
    } finally {
      process.env.WEBHOOK_ALLOWED_CIDRS = allowed;
    }
    expect(receiver.received.filter((request) => request.url.includes(new URL(target).search.slice(1)))).toHaveLength(0);
    const logs = await api(company, 'GET', `/api/v1/webhook_logs?subscription_id=${subscription.id}`);
    expect(logs.body.webhook_logs[0]).toMatchObject({ success: false, status_code: null, attempt: 1 });
    expect(logs.body.webhook_logs[0].error).toMatch(/^refused: .*loopback/);
  });
});

describe('secret rotation', () => {
  it('shows the new secret once and signs with both while the old one is still valid', async () => {
    const { company, number } = await callSetup();
    const target = `${receiver.url}?rotate=${randomUUID()}`;
    const subscription = await subscribe(company, { target_url: target, event: 'call_ended' });
    const rotated = await api(company, 'PUT', `/api/v1/subscriptions/${subscription.id}`, { rotate_secret: true });
    expect(rotated.status, rotated.text).toBe(200);
    const secret = rotated.body.subscription.secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(subscription.secret);
    expect((await api(company, 'PUT', `/api/v1/subscriptions/${subscription.id}`, { event: 'call_ended' })).body.subscription).not.toHaveProperty('secret');
    await answeredCall(number);
    await deliverQueued();
    const [delivery] = bodiesFor(target);
    expect(String(delivery!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const key of [secret, subscription.secret]) expect(() => new Webhook(key).verify(delivery!.body, delivery!.headers as Record<string, string>)).not.toThrow();
  });
});

describe('outgoing webhooks', () => {
  async function outgoing(company: TestCompany, trigger: string, target: string, body?: string) {
    const url = await createThrough(gateway, company, '/api/v1/outgoing_webhook_urls', { url: target, http_method: 'POST', content_type: 'application/json', ...(body ? { body } : {}) });
    return createThrough(gateway, company, '/api/v1/outgoing_webhooks', { name: `on ${trigger}`, trigger_type: trigger, outgoing_url_ids: [url.id] });
  }

  it('a manual fire sends the webhook for the call named and records the outcome on the fire', async () => {
    const { company, number } = await callSetup();
    const callId = await answeredCall(number);
    const fireKey = randomUUID();
    const target = `${receiver.url}?fire=${fireKey}&call={{call_id}}`;
    const webhook = await outgoing(company, 'manual', target, '{"caller":"{{caller_number}}","revenue":{{revenue}}}');
    const created = await api(company, 'POST', '/api/v1/webhook_manual_fires', { outgoing_webhook_id: webhook.id, call_id: callId });
    expect(created.status, created.text).toBe(200);
    expect(created.body.webhook_manual_fire).toMatchObject({ fire_status: 'queued', url_count: 1, webhook_log_ids: [] });
    await deliverQueued();
    const sent = receiver.received.filter((request) => request.url.includes(fireKey));
    expect(sent).toHaveLength(1);
    // The URL template's token is filled in.
    expect(sent[0]!.url).toContain(`call=${callId}`);
    expect(JSON.parse(sent[0]!.body)).toEqual({ caller: '+14155552671', revenue: 20 });
    const fire = (await api(company, 'GET', `/api/v1/webhook_manual_fires/${created.body.webhook_manual_fire.id}`)).body.webhook_manual_fire;
    expect(fire).toMatchObject({ fire_status: 'delivered', delivered_count: 1, failed_count: 0, last_status_code: 200 });
    expect(fire.webhook_log_ids).toHaveLength(1);
    const log = await api(company, 'GET', `/api/v1/webhook_logs/${fire.webhook_log_ids[0]}`);
    expect(log.body.webhook_log).toMatchObject({ kind: 'outgoing_webhook', outgoing_webhook_id: webhook.id, webhook_manual_fire_id: fire.id, call_id: callId, success: true, status_code: 200 });
  });

  it('a manual fire whose URL was deleted counts it failed once, however many copies of its message arrive', async () => {
    const { company, number } = await callSetup();
    const callId = await answeredCall(number);
    const webhook = await outgoing(company, 'manual', `${receiver.url}?gone=${randomUUID()}`);
    const created = await api(company, 'POST', '/api/v1/webhook_manual_fires', { outgoing_webhook_id: webhook.id, call_id: callId });
    expect(created.status, created.text).toBe(200);
    await deliverQueued();
    const fireId = created.body.webhook_manual_fire.id as number;
    // The queue delivers at least once: the same message for a URL that no longer exists, twice.
    const body = JSON.stringify({
      kind: 'webhook',
      id: `gone-${randomUUID()}`,
      companyId: company.id,
      outgoingWebhookId: webhook.id,
      urlId: 987654321,
      source: { event: null, eventId: null, fireId, callId, leadId: null, tokens: {} },
    });
    const copies = [1, 2].map((copy) => ({ messageId: `copy-${copy}`, receiptHandle: `copy-${copy}`, body, receiveCount: 1 }));
    expect(await deliverBatch(copies.slice(0, 1))).toEqual([]);
    expect(await deliverBatch(copies.slice(1))).toEqual([]);
    const fire = (await api(company, 'GET', `/api/v1/webhook_manual_fires/${fireId}`)).body.webhook_manual_fire;
    expect(fire).toMatchObject({ delivered_count: 1, failed_count: 1, last_error: 'the outgoing webhook URL was deleted' });
  });

  it('a manual fire naming a call of another company is refused', async () => {
    const { company } = await callSetup();
    const other = await callSetup();
    const callId = await answeredCall(other.number);
    const webhook = await outgoing(company, 'manual', `${receiver.url}?x=1`);
    const reply = await api(company, 'POST', '/api/v1/webhook_manual_fires', { outgoing_webhook_id: webhook.id, call_id: callId });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.call_id).toBeDefined();
  });

  it('an outgoing webhook with a call trigger is fired by the call event', async () => {
    const { company, number } = await callSetup();
    const target = `${receiver.url}?ended=${randomUUID()}`;
    await outgoing(company, 'call_ended', target);
    const callId = await answeredCall(number);
    await deliverQueued();
    const sent = bodiesFor(target);
    expect(sent).toHaveLength(1);
    // Without a body template the tokens go as JSON.
    expect(JSON.parse(sent[0]!.body)).toMatchObject({ call_id: callId, event: 'call_ended', status: 'completed' });
  });
});
