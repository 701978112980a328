import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.js';
import { dayOfId } from '../../shared/db/day-records.js';
import { keys, padId } from '../../shared/db/keys.js';
import { INBOUND_LOG_RETENTION_DAYS } from '../../functions/inbound/ping.js';
import { INPUT_LIMITS } from '../../shared/http/input-limits.js';
import { createTestCompany, createTestUser, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';

/**
 * The faults the hardening issue names, each through the HTTP layer: input bounded before it
 * reaches DynamoDB, credentials checked before the body is read, side effects only after
 * success, credentials kept out of logs, and concurrent purchases that do not collide.
 */

const gateway = useGateway();

async function count(company: TestCompany, resource: string): Promise<number> {
  const reply = await call(gateway, { path: `/api/v1/${resource}`, authorization: company.authorization });
  expect(reply.status).toBe(200);
  return reply.body.metadata.total_count;
}

describe('values that become keys are bounded', () => {
  it('answers 401 to a public key far longer than any key, without a lookup failing', async () => {
    const header = `Basic ${Buffer.from(`${'p'.repeat(5_000)}:${'s'.repeat(60)}`).toString('base64')}`;
    const reply = await call(gateway, { path: '/api/v1/offers', authorization: header });
    expect(reply.status).toBe(401);
    expect(reply.body.errors).toBeTypeOf('object');
  });

  it('answers 404 to path parameters longer than any id, name or token', async () => {
    const company = await createTestCompany('keys');
    for (const path of [
      `/api/v1/inbound_webhooks/ping/${'v'.repeat(3_000)}`,
      `/api/v1/buyers/${'u'.repeat(3_000)}/by_user_buyer_id`,
      `/api/v1/calls/${'1'.repeat(300)}/by_caller_number`,
      `/api/v1/offers/${'9'.repeat(300)}`,
    ]) {
      const reply = await call(gateway, { path, authorization: company.authorization });
      expect(reply.status, path.slice(0, 60)).toBe(404);
      expect(reply.body.errors).toBeTypeOf('object');
    }
  });

  it('refuses a unique value too long to be a key with 422 and writes nothing', async () => {
    const company = await createTestCompany('keys');
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/buyers', authorization: company.authorization, json: { name: 'Long id', user_buyer_id: 'u'.repeat(5_000) } });
    expect(reply.status).toBe(422);
    expect(await count(company, 'buyers')).toBe(0);
  });
});

describe('numbers, texts and records are bounded', () => {
  it('refuses 1e308, non-finite words and 23-digit amounts with 422 naming the field', async () => {
    const company = await createTestCompany('numbers');
    for (const value of [1e308, 'Infinity', '12345678901234567890123', 'NaN']) {
      const reply = await call(gateway, { method: 'POST', path: '/api/v1/buyers', authorization: company.authorization, json: { name: 'B', current_conversion_revenue: value } });
      expect(reply.status, String(value)).toBe(422);
      expect(Object.keys(reply.body.errors), String(value)).toEqual(['current_conversion_revenue']);
    }
    expect(await count(company, 'buyers')).toBe(0);
  });

  it(`refuses a text longer than ${INPUT_LIMITS.stringChars} characters with 422 naming the field`, async () => {
    const company = await createTestCompany('texts');
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/offers', authorization: company.authorization, json: { name: 'n'.repeat(INPUT_LIMITS.stringChars + 1) } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.name).toEqual([`is too long (maximum is ${INPUT_LIMITS.stringChars} characters)`]);
  });
});

describe('request bodies are bounded', () => {
  it('drops __proto__, constructor and prototype keys from JSON and form input', async () => {
    const company = await createTestCompany('proto');
    const json = await call(gateway, {
      method: 'POST',
      path: '/api/v1/offers',
      authorization: company.authorization,
      rawBody: '{"name":"Clean","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(json.status).toBe(200);
    expect(json.body.offer).not.toHaveProperty('polluted');
    const form = await call(gateway, { method: 'POST', path: '/api/v1/offers', authorization: company.authorization, form: 'name=Form&__proto__[polluted]=1&constructor[prototype][polluted]=1&prototype=1' });
    expect(form.status).toBe(200);
    expect(form.body.offer).not.toHaveProperty('polluted');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses nesting deeper than the limit and more parameters than the limit, whatever the encoding', async () => {
    const company = await createTestCompany('depth');
    const deep = `{"name":"x","data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const deepReply = await call(gateway, { method: 'POST', path: '/api/v1/offers', authorization: company.authorization, rawBody: deep, headers: { 'content-type': 'application/json' } });
    expect(deepReply.status).toBe(422);
    const wide = `{${Array.from({ length: INPUT_LIMITS.entries + 10 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    const wideReply = await call(gateway, { method: 'POST', path: '/api/v1/offers', authorization: company.authorization, rawBody: wide, headers: { 'content-type': 'application/json' } });
    expect(wideReply.status).toBe(413);
    const deepForm = await call(gateway, { method: 'POST', path: '/api/v1/offers', authorization: company.authorization, form: `name=x&a${'[b]'.repeat(40)}=1` });
    expect(deepForm.status).toBeLessThan(500);
    expect(await count(company, 'offers')).toBeLessThanOrEqual(1);
  });

  it('answers 401 to a request without credentials before reading its large body', async () => {
    const body = JSON.stringify({ name: 'x', notes: 'n'.repeat(INPUT_LIMITS.bodyBytes + 10) });
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/offers', rawBody: body, headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(401);
  });

  it('answers 401 to a malformed Authorization header even when a valid auth_token is sent', async () => {
    const company = await createTestCompany('malformed');
    const user = await createTestUser(company.id);
    const valid = await call(gateway, { path: `/api/v1/offers?auth_token=${user.authToken}` });
    expect(valid.status).toBe(200);
    const reply = await call(gateway, { path: `/api/v1/offers?auth_token=${user.authToken}`, headers: { authorization: 'Basic !!!' } });
    expect(reply.status).toBe(401);
  });

  it('checks e-mail addresses in linear time: 64 KB of input is a plain 422', async () => {
    const company = await createTestCompany('email');
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/buyers', authorization: company.authorization, json: { name: 'B', email: `a@${'b.'.repeat(32_000)}` } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toHaveProperty('email');
  });
});

describe('lists are bounded', () => {
  it('caps ids, bounds unknown-column echoes and clamps log windows', async () => {
    const company = await createTestCompany('lists');
    const ids = Array.from({ length: 600 }, (_, i) => i + 1).join(',');
    const many = await call(gateway, { path: `/api/v1/offers?ids=${ids}`, authorization: company.authorization });
    expect(many.status).toBe(422);
    expect(many.body.errors.ids).toEqual(['must name at most 500 ids']);

    const columns = await call(gateway, { path: `/api/v1/offers?columns=${'z'.repeat(5_000)},${'y'.repeat(50)}`, authorization: company.authorization });
    expect(columns.status).toBe(422);
    expect(JSON.stringify(columns.body.errors).length).toBeLessThan(300);

    // A window from the year 1000 is read from the first day any record can exist, not walked day by day.
    const logs = await call(gateway, { path: '/api/v1/inbound_webhook_logs?created_at_from=1000-01-01%2000:00:00%20%2B0000&created_at_to=3000-01-01%2000:00:00%20%2B0000', authorization: company.authorization });
    expect(logs.status).toBe(200);
    expect(logs.body.inbound_webhook_logs).toEqual([]);
  });
});

describe('side effects happen only after success', () => {
  it('does not use up a rate-limit slot for a ping that is refused', async () => {
    const company = await createTestCompany('slots');
    const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'B', number: '+12125550150' });
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'O', buyer_ids: [buyer.id] });
    const vanity = `slots-${randomUUID().slice(0, 8)}`;
    // A limit of 1 per day: one refused ping must leave the day's only slot free.
    const webhook = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: vanity, offer_id: offer.id, rate_limit_per_day: 1, require_caller_id_on_ping: true });
    const refused = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${vanity}`, json: { caller_id: 'not a number' } });
    expect(refused.status).toBe(422);
    const first = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${vanity}`, json: { caller_id: '+14155550111' } });
    expect(first.status).toBe(200);
    const second = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${vanity}`, json: { caller_id: '+14155550111' } });
    expect(second.status).toBe(429);
    // The 429 wrote no log entry: one ping was counted, one was logged.
    const logs = await call(gateway, { path: `/api/v1/inbound_webhook_logs?inbound_webhook_id=${webhook.id}`, authorization: company.authorization });
    expect(logs.body.inbound_webhook_logs).toHaveLength(1);
  });

  it('logs pings with the auth_token redacted and an expiry', async () => {
    const company = await createTestCompany('redact');
    const user = await createTestUser(company.id);
    const vanity = `redact-${randomUUID().slice(0, 8)}`;
    const webhook = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: vanity, require_user_auth_token: true });
    const reply = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${vanity}?auth_token=${user.authToken}`, json: { zip: '10001' } });
    expect(reply.status).toBe(200);
    const logs = await call(gateway, { path: `/api/v1/inbound_webhook_logs?inbound_webhook_id=${webhook.id}`, authorization: company.authorization });
    const entry = logs.body.inbound_webhook_logs[0];
    expect(entry.request.auth_token).toBe('[redacted]');
    expect(JSON.stringify(logs.body)).not.toContain(user.authToken);
    const item = await db.send(new GetCommand({ TableName: tableName, Key: { pk: keys.dayPartition(company.id, 'inbound_webhook_logs', dayOfId(entry.id)), sk: padId(entry.id) } }));
    const expiresAt = Number(item.Item?.expires_at);
    const expected = Math.floor(Date.now() / 1000) + INBOUND_LOG_RETENTION_DAYS * 86_400;
    expect(Math.abs(expiresAt - expected)).toBeLessThan(3_600);
  });

  it('holds pings of a webhook without its own limit to the default per-minute limit', async () => {
    const company = await createTestCompany('default-limit');
    const vanity = `default-${randomUUID().slice(0, 8)}`;
    const webhook = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: vanity });
    expect(webhook.rate_limit_per_minute).toBeNull();
    const reply = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${vanity}` });
    expect(reply.status).toBe(200);
    const counters = await db.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.rateCounter(company.id, `webhook#${webhook.id}`, 'x').pk } }));
    expect(counters.Items?.map((item) => item.count)).toEqual([1]);
  });
});

describe('concurrent number purchases', () => {
  it('give each request its own free number instead of a 409', async () => {
    const company = await createTestCompany('numbers');
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Numbers' });
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => call(gateway, { method: 'POST', path: '/api/v1/phone_numbers', authorization: company.authorization, json: { offer_id: offer.id } })),
    );
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const numbers = replies.map((reply) => reply.body.phone_number.number);
    expect(new Set(numbers).size).toBe(6);
  });
});
