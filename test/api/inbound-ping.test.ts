import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { reserveAttempt } from '../fixtures/counters.js';
import { createRecord, nextId } from '../../shared/db/records.js';
import { createTestCompany, createTestUser, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { clock } from '../../shared/adapters/clock.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { useDynamoRequests } from '../fixtures/dynamo-requests.js';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client.js';
import { keys } from '../../shared/db/keys.js';
import { rateWindow } from '../../shared/routing/rate-limits.js';

const gateway = useGateway();
const log = useDynamoRequests();
// Counters, caps and rate limits are per minute, hour and UTC day: pinned mid-day, mid-minute so
// the file passes at any hour.
usePinnedClockForAll(midDayTomorrow);

const vanity = () => `ping-${randomUUID().slice(0, 8)}`;

/** A company with an offer, three buyers (tiers 1, 0, 0; bids 10, 20, 30) and a webhook on the offer. */
async function setup(webhookFields: Record<string, unknown> = {}, buyerFields: Array<Record<string, unknown>> = []) {
  const company = await createTestCompany('ping');
  const defaults = [
    { name: 'Tier one', tier: 1, current_conversion_revenue: 10 },
    { name: 'Tier zero A', tier: 0, current_conversion_revenue: 20 },
    { name: 'Tier zero B', tier: 0, current_conversion_revenue: 30 },
  ];
  const buyers = [];
  for (let i = 0; i < 3; i++) buyers.push(await createThrough(gateway, company, '/api/v1/buyers', { ...defaults[i], ...buyerFields[i] }));
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: buyers.map((b) => b.id) });
  const webhook = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: vanity(), offer_id: offer.id, ...webhookFields });
  return { company, buyers, offer, webhook };
}

/** The webhook's log entries, newest first. */
async function logsOf(company: TestCompany, webhookId: number): Promise<Array<Record<string, unknown>>> {
  const reply = await call(gateway, { path: `/api/v1/inbound_webhook_logs?inbound_webhook_id=${webhookId}&per_page=100`, authorization: company.authorization });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.inbound_webhook_logs;
}

function ping(vanityUri: string, query = '', init: { method?: string; json?: unknown; form?: string } = {}) {
  return call(gateway, { method: init.method ?? 'POST', path: `/api/v1/inbound_webhooks/ping/${vanityUri}${query}`, json: init.json, form: init.form });
}

describe('inbound webhook configuration', () => {
  it('creates a webhook with the reference\'s columns and refuses a vanity_uri already taken, even by another company', async () => {
    const { company, webhook } = await setup();
    expect(webhook).toMatchObject({ webhook_type: 'check_for_available_buyer', require_caller_id_on_ping: false, test_mode: false });
    for (const column of ['vanity_uri', 'offer_id', 'buyer_ids', 'rate_limit_per_minute', 'concurrency_cap_buffer_percent', 'buyers_limit_value', 'ring_pool_id']) {
      expect(webhook).toHaveProperty(column);
    }
    const again = await call(gateway, { method: 'POST', path: '/api/v1/inbound_webhooks', authorization: company.authorization, json: { vanity_uri: webhook.vanity_uri } });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual({ vanity_uri: ['has already been taken'] });
    const other = await createTestCompany('other');
    const theirs = await call(gateway, { method: 'POST', path: '/api/v1/inbound_webhooks', authorization: other.authorization, json: { vanity_uri: webhook.vanity_uri } });
    expect(theirs.status).toBe(409);
  });

  it('limits webhook_type to its three values and vanity_uri to URL-safe names', async () => {
    const company = await createTestCompany('ping');
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/inbound_webhooks', authorization: company.authorization, json: { vanity_uri: 'has space', webhook_type: 'other' } });
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors).sort()).toEqual(['vanity_uri', 'webhook_type']);
  });

  it('moves the vanity name on update: the old one stops answering, the new one answers', async () => {
    const { company, webhook } = await setup();
    const renamed = vanity();
    const updated = await call(gateway, { method: 'PUT', path: `/api/v1/inbound_webhooks/${webhook.id}`, authorization: company.authorization, json: { vanity_uri: renamed } });
    expect(updated.status).toBe(200);
    expect((await ping(webhook.vanity_uri)).status).toBe(404);
    expect((await ping(renamed)).status).toBe(200);
  });
});

describe('POST /api/v1/inbound_webhooks/ping/:vanity_uri', () => {
  it('answers which buyers are available, best first, with bids, ping ids and expiry', async () => {
    const { webhook, buyers } = await setup();
    const reply = await ping(webhook.vanity_uri, '?caller_id=4155552671');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    const body = reply.body;
    expect(body).toMatchObject({ success: true, status: 200, errors: [], available_buyers_count: 3, best_bid: 30, expires_in_seconds: 120 });
    expect(body.ping_id).toMatch(/^\d+$/);
    expect(body.try_all_buyers_ping_id).toBe(body.ping_id);
    expect(body.try_all_buyers).toEqual({ ping_id: body.ping_id, buyers: body.buyers });
    // Tier 0 buyers (either order, by weight) before the tier 1 buyer.
    expect(body.buyers.map((b: any) => b.buyer_id).slice(0, 2).sort()).toEqual([buyers[1]!.id, buyers[2]!.id].sort());
    expect(body.buyers[2]).toEqual({ buyer_id: buyers[0]!.id, id: buyers[0]!.id, name: 'Tier one', bid: 10, bid_price: 10, tier: 1, ping_id: `${body.ping_id}-${buyers[0]!.id}` });
    expect(Date.parse(body.expires_at) - clock().now().getTime()).toBeGreaterThan(60_000);
  });

  it('accepts GET with query parameters and form bodies too', async () => {
    const { webhook } = await setup();
    expect((await ping(webhook.vanity_uri, '?caller_id=4155552671', { method: 'GET' })).body.success).toBe(true);
    expect((await ping(webhook.vanity_uri, '', { form: 'caller_id=4155552671&state=CA' })).body.success).toBe(true);
  });

  it('caps the answer at buyers_limit_value', async () => {
    const { webhook } = await setup({ buyers_limit_value: 1 });
    const body = (await ping(webhook.vanity_uri)).body;
    expect(body.buyers).toHaveLength(1);
    expect(body.available_buyers_count).toBe(1);
  });

  it('matches every other parameter against the buyers\' token filters', async () => {
    const { webhook, buyers } = await setup({}, [{ record_token_filter_list: ['state:CA'] }, { record_token_filter_list: ['state:NY'] }, { record_token_filter_list: ['age:>=21'] }]);
    const body = (await ping(webhook.vanity_uri, '', { json: { caller_id: '4155552671', state: 'CA', age: 30 } })).body;
    expect(body.buyers.map((b: any) => b.buyer_id).sort()).toEqual([buyers[0]!.id, buyers[2]!.id].sort());
  });

  it('says no buyer is available without an error status, and logs why each was left out', async () => {
    const { company, webhook, buyers } = await setup({}, [{ paused: true }, { attempt_daily_limit: 0 }, { record_token_filter_list: ['state:NY'] }]);
    const reply = await ping(webhook.vanity_uri, '?state=CA');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ success: false, status: 200, buyers: [], available_buyers_count: 0, errors: ['No buyer is available'] });
    const logs = await call(gateway, { path: `/api/v1/inbound_webhook_logs?inbound_webhook_id=${webhook.id}`, authorization: company.authorization });
    expect(logs.status).toBe(200);
    const entry = logs.body.inbound_webhook_logs[0];
    expect(entry).toMatchObject({ kind: 'ping', inbound_webhook_id: webhook.id, success: false, eligible_buyer_ids: [] });
    expect(entry.excluded_buyers).toEqual([
      { buyer_id: buyers[0]!.id, name: 'Tier one', reason: 'paused' },
      { buyer_id: buyers[1]!.id, name: 'Tier zero A', reason: 'attempt_daily_limit' },
      { buyer_id: buyers[2]!.id, name: 'Tier zero B', reason: 'token_filter:state:NY' },
    ]);
    expect(entry.request).toMatchObject({ state: 'CA' });
    expect(typeof entry.duration_ms).toBe('number');
  });

  it('offers nobody to a blacklisted caller', async () => {
    const { company, webhook } = await setup();
    const blocked = await call(gateway, { method: 'POST', path: '/api/v1/contacts/(415) 555-2671/caller_block', authorization: company.authorization });
    expect(blocked.status).toBe(200);
    const body = (await ping(webhook.vanity_uri, '?caller_id=%2B14155552671')).body;
    expect(body).toMatchObject({ success: false, errors: ['The caller is blacklisted'] });
    expect((await ping(webhook.vanity_uri, '?caller_id=%2B14155550000')).body.success).toBe(true);
  });

  it('uses the webhook\'s own buyer lists before the offer\'s, groups included', async () => {
    const { company, webhook, buyers } = await setup();
    const group = await createThrough(gateway, company, '/api/v1/buyer_groups/0', { name: 'G', buyer_ids: [buyers[2]!.id] });
    await call(gateway, { method: 'PUT', path: `/api/v1/inbound_webhooks/${webhook.id}`, authorization: company.authorization, json: { buyer_ids: [buyers[0]!.id], buyer_group_ids: [group.id] } });
    const body = (await ping(webhook.vanity_uri)).body;
    expect(body.buyers.map((b: any) => b.buyer_id).sort()).toEqual([buyers[0]!.id, buyers[2]!.id].sort());
  });

  it('requires the caller id and traffic source when the webhook says so', async () => {
    const { company, webhook } = await setup({ require_caller_id_on_ping: true, require_traffic_source_id: true });
    const missing = await ping(webhook.vanity_uri);
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({
      success: false,
      status: 422,
      errors: ['caller_id is required', 'traffic_source_id is required'],
      field_errors: { caller_id: ['is required'], traffic_source_id: ['is required'] },
    });
    const unknownSource = await ping(webhook.vanity_uri, '?caller_id=4155552671&traffic_source_id=999999');
    expect(unknownSource.body.field_errors).toEqual({ traffic_source_id: ['does not exist'] });
    const source = await createThrough(gateway, company, '/api/v1/traffic_sources', { name: 'Source' });
    expect((await ping(webhook.vanity_uri, `?caller_id=4155552671&traffic_source_id=${source.id}`)).body.success).toBe(true);
  });

  it('requires a user auth_token of the company when the webhook says so', async () => {
    const { company, webhook } = await setup({ require_user_auth_token: true });
    expect((await ping(webhook.vanity_uri)).status).toBe(401);
    const stranger = await createTestUser((await createTestCompany('other')).id);
    expect((await ping(webhook.vanity_uri, `?auth_token=${stranger.authToken}`)).status).toBe(401);
    const user = await createTestUser(company.id);
    expect((await ping(webhook.vanity_uri, `?auth_token=${user.authToken}`)).body.success).toBe(true);
  });

  it('answers 429 once a rate limit is used up, per webhook and per traffic source', async () => {
    const { company, webhook } = await setup({ rate_limit_per_minute: 3, rate_limit_per_minute_per_traffic_source: 1 });
    const source = await createThrough(gateway, company, '/api/v1/traffic_sources', { name: 'Source' });
    expect((await ping(webhook.vanity_uri, `?traffic_source_id=${source.id}`)).status).toBe(200);
    const perSource = await ping(webhook.vanity_uri, `?traffic_source_id=${source.id}`);
    expect(perSource.status).toBe(429);
    expect(perSource.body).toMatchObject({ success: false, status: 429 });
    expect(perSource.body.errors[0]).toContain('rate_limit_per_minute_per_traffic_source');
    // The refused ping counted against no limit: two more without a source fit the webhook's 3.
    expect((await ping(webhook.vanity_uri)).status).toBe(200);
    expect((await ping(webhook.vanity_uri)).status).toBe(200);
    expect((await ping(webhook.vanity_uri)).status).toBe(429);
  });

  it('holds rate limits under concurrent pings, and logs only the pings it answered', async () => {
    const { company, webhook } = await setup({ rate_limit_per_hour: 5 });
    const replies = await Promise.all(Array.from({ length: 20 }, () => ping(webhook.vanity_uri)));
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(5);
    expect(replies.filter((reply) => reply.status === 429)).toHaveLength(15);
    expect(await logsOf(company, webhook.id)).toHaveLength(5);
  });

  it('holds several rate limits under concurrent pings (one transaction each, retried when they meet)', async () => {
    const { company, webhook } = await setup({ rate_limit_per_hour: 5, rate_limit_per_day: 100 });
    const replies = await Promise.all(Array.from({ length: 20 }, () => ping(webhook.vanity_uri)));
    expect(replies.map((reply) => reply.status).sort()).toEqual([...Array(5).fill(200), ...Array(15).fill(429)]);
    expect(await logsOf(company, webhook.id)).toHaveLength(5);
  });

  it('tries a rate-limit transaction again when it met another request\'s (TransactionConflict), counting the ping once', async () => {
    const { company, webhook } = await setup({ rate_limit_per_hour: 5, rate_limit_per_day: 100 });
    const send = db.send.bind(db);
    let conflicts = 0;
    const spy = vi.spyOn(db, 'send').mockImplementation((async (command: unknown) => {
      if (command instanceof TransactWriteCommand && conflicts < 2 && JSON.stringify(command.input).includes('#rate#')) {
        conflicts += 1;
        throw new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }] });
      }
      return send(command as never);
    }) as never);
    try {
      expect((await ping(webhook.vanity_uri)).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(conflicts).toBe(2);
    expect(await logsOf(company, webhook.id)).toHaveLength(1);
    // Counted once: four more fit the hour's 5, the sixth does not.
    for (let index = 0; index < 4; index++) expect((await ping(webhook.vanity_uri)).status).toBe(200);
    expect((await ping(webhook.vanity_uri)).status).toBe(429);
  });

  it('counts a ping against its rate limits in the step that writes its log entry, and keeps no entry of a refused one', async () => {
    const { company, webhook } = await setup({ rate_limit_per_minute: 10 });
    const commandsBySteps = () => {
      const writes = log.requests.filter((request) => ['UpdateItemCommand', 'PutItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand'].includes(request.command));
      return [...new Set(writes.map((request) => request.step))].map((step) => writes.filter((request) => request.step === step).map((request) => request.command).sort());
    };
    log.reset();
    expect((await ping(webhook.vanity_uri)).status).toBe(200);
    // Far from the limit: the count's update and the log's put side by side, one step.
    expect(commandsBySteps()).toEqual([['PutItemCommand', 'UpdateItemCommand']]);

    // Other instances use up the minute: this one still takes it for far from the limit, so the
    // refused ping's entry is written beside the refused count, then taken back.
    const window = rateWindow(clock().now(), 'minute');
    await db.send(new UpdateCommand({ TableName: tableName, Key: keys.rateCounter(company.id, `webhook#${webhook.id}`, window.key), UpdateExpression: 'SET #c = :full', ExpressionAttributeNames: { '#c': 'count' }, ExpressionAttributeValues: { ':full': 10 } }));
    log.reset();
    expect((await ping(webhook.vanity_uri)).status).toBe(429);
    expect(commandsBySteps()).toEqual([['PutItemCommand', 'UpdateItemCommand'], ['DeleteItemCommand']]);
    // Now it knows the limit is used up: the count first, and no write of an entry at all.
    log.reset();
    expect((await ping(webhook.vanity_uri)).status).toBe(429);
    expect(commandsBySteps()).toEqual([['UpdateItemCommand']]);
    expect(await logsOf(company, webhook.id)).toHaveLength(1);
  });

  it('keeps the concurrency buffer free on pings', async () => {
    const { company, webhook, buyers } = await setup({ concurrency_cap_buffer_percent: 50 }, [{ concurrency_cap_limit: 4 }, { paused: true }, { paused: true }]);
    const now = clock().now();
    for (let i = 0; i < 2; i++) await reserveAttempt(company.id, buyers[0]!.id, 'UTC', now, { caps: {}, concurrency: 4 });
    // 2 of 4 in use: half the cap is kept for calls already promised, so the buyer is full for pings.
    expect((await ping(webhook.vanity_uri)).body.success).toBe(false);
    await call(gateway, { method: 'PUT', path: `/api/v1/inbound_webhooks/${webhook.id}`, authorization: company.authorization, json: { concurrency_cap_buffer_percent: 0 } });
    expect((await ping(webhook.vanity_uri)).body.success).toBe(true);
  });

  it('refuses webhook types it does not serve, and unknown names with 404', async () => {
    const { webhook } = await setup({ webhook_type: 'fire_webhooks' });
    const reply = await ping(webhook.vanity_uri);
    expect(reply.status).toBe(422);
    expect(reply.body.success).toBe(false);
    const unknown = await ping('no-such-webhook');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, status: 404 });
  });

  it('answers the CORS preflight of browser forms', async () => {
    const { webhook } = await setup();
    for (const kind of ['ping', 'post']) {
      const reply = await call(gateway, { method: 'OPTIONS', path: `/api/v1/inbound_webhooks/${kind}/${webhook.vanity_uri}` });
      expect(reply.status).toBe(204);
      expect(reply.headers.get('access-control-allow-origin')).toBe('*');
      expect(reply.headers.get('access-control-allow-methods')).toContain('POST');
    }
  });
});

describe('GET /api/v1/inbound_webhook_logs', () => {
  it('pages newest first by cursor, and shows another company nothing', async () => {
    const { company, webhook } = await setup();
    for (let i = 0; i < 5; i++) await ping(webhook.vanity_uri, `?n=${i}`);
    const seen: number[] = [];
    let cursor: string | number = '-1';
    for (let guard = 0; guard < 10 && cursor !== 0; guard++) {
      const page: any = await call(gateway, { path: `/api/v1/inbound_webhook_logs?per_page=2&cursor=${cursor}`, authorization: company.authorization });
      expect(page.status).toBe(200);
      seen.push(...page.body.inbound_webhook_logs.map((log: any) => log.id));
      cursor = page.body.metadata.next_cursor;
    }
    expect(seen).toHaveLength(5);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
    const other = await createTestCompany('other');
    const theirs = await call(gateway, { path: '/api/v1/inbound_webhook_logs', authorization: other.authorization });
    expect(theirs.body.inbound_webhook_logs).toEqual([]);
  });

  it('keeps a log entry bounded however many buyers are left out, with the full count', async () => {
    const company = await createTestCompany('ping-many');
    const now = clock().now().toISOString();
    const ids: number[] = [];
    for (let i = 0; i < 300; i++) {
      const id = await nextId(company.id, 'buyers');
      await createRecord(company.id, 'buyers', { id, uuid: randomUUID(), created_at: now, updated_at: now, name: `Paused ${i}`, paused: true });
      ids.push(id);
    }
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Many', buyer_ids: ids.slice(0, 100) });
    await createThrough(gateway, company, '/api/v1/offers', { name: 'Other' });
    // The offer names 100 of them; the webhook names all 300 itself.
    const webhook = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: vanity(), offer_id: offer.id });
    await call(gateway, { method: 'PUT', path: `/api/v1/inbound_webhooks/${webhook.id}`, authorization: company.authorization, json: { buyer_ids: ids } });
    const reply = await ping(webhook.vanity_uri);
    expect(reply.body).toMatchObject({ success: false, available_buyers_count: 0 });
    const logs = await call(gateway, { path: `/api/v1/inbound_webhook_logs?inbound_webhook_id=${webhook.id}&columns=excluded_buyers,excluded_count`, authorization: company.authorization });
    const entry = logs.body.inbound_webhook_logs[0];
    expect(entry.excluded_count).toBe(300);
    expect(entry.excluded_buyers).toHaveLength(100);
    expect(entry.excluded_buyers[0]).toEqual({ buyer_id: ids[0], name: 'Paused 0', reason: 'paused' });
  });
});
