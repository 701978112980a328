import { beforeEach, describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../shared/events/event-names.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';

const gateway = useGateway();
let company: TestCompany;
let other: TestCompany;

beforeEach(async () => {
  // A fresh pair of companies per test: counts and ids start from nothing.
  company = await createTestCompany('subs');
  other = await createTestCompany('other');
});

const HOOK = 'https://hooks.example.com/calls';

async function createSubscription(owner: TestCompany, fields: Record<string, unknown> = {}) {
  const reply = await call(gateway, {
    method: 'POST',
    path: '/api/v1/subscriptions',
    authorization: owner.authorization,
    json: { target_url: HOOK, event: 'new_call', ...fields },
  });
  expect(reply.status).toBe(200);
  return reply.body.subscription as Record<string, any>;
}

describe('POST /api/v1/subscriptions', () => {
  it('creates a subscription and answers with the record envelope', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: '/api/v1/subscriptions',
      authorization: company.authorization,
      json: { target_url: HOOK, event: 'call_ended', trigger_fields: { offer_id: '12', buyer_converted: 'yes', has_recording: false } },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe(200);
    expect(reply.body.errors).toEqual({});
    expect(reply.body.metadata).toEqual({ root: 'subscription' });
    expect(reply.body.checksum).toMatch(/^[0-9a-f]{32}$/);
    const record = reply.body.subscription;
    expect(record).toMatchObject({
      id: 1,
      type: 'Subscription',
      target_url: HOOK,
      event: 'call_ended',
      trigger_fields: { offer_id: 12, buyer_converted: true, has_recording: false },
      routes_show_path: '/api/v1/subscriptions/1',
      deleted_at: null,
    });
    expect(record.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(record.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    for (const column of ['id', 'legacy_id', 'type', 'uuid', 'created_at', 'updated_at', 'deleted_at', 'user_updated_at', 'routes_show_path', 'routes_edit_path', 'external_record_id']) {
      expect(record, column).toHaveProperty(column);
    }
  });

  it('accepts form-encoded bodies with bracketed trigger fields', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: '/api/v1/subscriptions',
      authorization: company.authorization,
      form: `target_url=${encodeURIComponent(HOOK)}&event=new_lead&trigger_fields[schedule_id]=4&trigger_fields[offer_converted]=on`,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.subscription.trigger_fields).toEqual({ schedule_id: 4, offer_converted: true });
  });

  it('accepts the fields wrapped in the root node', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: '/api/v1/subscriptions',
      authorization: company.authorization,
      json: { subscription: { target_url: HOOK, event: 'lead_ended' } },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.subscription.event).toBe('lead_ended');
  });

  it('accepts every event name of the reference', async () => {
    for (const event of EVENT_NAMES) {
      const reply = await call(gateway, { method: 'POST', path: '/api/v1/subscriptions', authorization: company.authorization, json: { target_url: HOOK, event } });
      expect(reply.status, event).toBe(200);
    }
  });

  it('reports both required fields when they are missing', async () => {
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/subscriptions', authorization: company.authorization, json: {} });
    expect(reply.status).toBe(422);
    expect(reply.body.status).toBe(422);
    expect(reply.body.errors).toEqual({ target_url: ['is required'], event: ['is required'] });
  });

  it.each([
    ['an ftp URL', 'ftp://example.com/x'],
    ['a bare host', 'example.com/hook'],
    ['a blank', ''],
  ])('rejects %s as target_url', async (_label, target_url) => {
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/subscriptions', authorization: company.authorization, json: { target_url, event: 'new_call' } });
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['target_url']);
  });

  it('rejects an event outside the list', async () => {
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/subscriptions', authorization: company.authorization, json: { target_url: HOOK, event: 'call_exploded' } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.event[0]).toMatch(/^is not included in the list/);
  });

  it('rejects unknown trigger field keys, non-integer ids and non-boolean flags together', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: '/api/v1/subscriptions',
      authorization: company.authorization,
      json: { target_url: HOOK, event: 'new_call', trigger_fields: { campaign: 1, offer_id: 'abc', buyer_id: 1.5, buyer_converted: 'maybe' } },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({
      'trigger_fields.campaign': ['is not an allowed key'],
      'trigger_fields.offer_id': ['is not an integer'],
      'trigger_fields.buyer_id': ['is not an integer'],
      'trigger_fields.buyer_converted': ['is not a valid boolean (use 1, true, yes, on, 0, false, no or off)'],
    });
  });

  it('rejects trigger_fields that are not a hash', async () => {
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/subscriptions', authorization: company.authorization, json: { target_url: HOOK, event: 'new_call', trigger_fields: [1] } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.trigger_fields).toEqual(['is not a hash of trigger fields']);
  });

  it('writes nothing when validation fails', async () => {
    await call(gateway, { method: 'POST', path: '/api/v1/subscriptions', authorization: company.authorization, json: { target_url: 'nope', event: 'new_call' } });
    const list = await call(gateway, { path: '/api/v1/subscriptions', authorization: company.authorization });
    expect(list.body.metadata.total_count).toBe(0);
  });

  it('answers a malformed JSON body with 400', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: '/api/v1/subscriptions',
      authorization: company.authorization,
      headers: { 'content-type': 'application/json' },
      form: '{"target_url":',
    });
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual({ body: ['is not valid JSON'] });
  });
});

describe('GET /api/v1/webhook_subscriptions/new', () => {
  it('returns the defaults without saving anything', async () => {
    const reply = await call(gateway, { path: '/api/v1/webhook_subscriptions/new', authorization: company.authorization });
    expect(reply.status).toBe(200);
    expect(reply.body.subscription).toMatchObject({ id: null, target_url: null, event: null, trigger_fields: {}, type: 'Subscription' });
    const list = await call(gateway, { path: '/api/v1/subscriptions', authorization: company.authorization });
    expect(list.body.subscriptions).toEqual([]);
  });
});

describe('GET /api/v1/subscriptions', () => {
  it('lists the company\'s subscriptions with paging metadata', async () => {
    for (let i = 0; i < 3; i++) await createSubscription(company, { target_url: `${HOOK}/${i}` });
    await createSubscription(other);
    const reply = await call(gateway, { path: '/api/v1/subscriptions?page=2&per_page=2', authorization: company.authorization });
    expect(reply.status).toBe(200);
    expect(reply.body.subscriptions.map((s: any) => s.target_url)).toEqual([`${HOOK}/2`]);
    expect(reply.body.metadata).toEqual({ root: 'subscriptions', total_count: 3, page: 2, per_page: 2, total_pages: 2 });
    expect(reply.body.status).toBe(200);
  });

  it('orders by an allowed column in either direction', async () => {
    await createSubscription(company, { event: 'new_call' });
    await createSubscription(company, { event: 'call_ended' });
    await createSubscription(company, { event: 'lead_changed' });
    const asc = await call(gateway, { path: '/api/v1/subscriptions?order=event', authorization: company.authorization });
    expect(asc.body.subscriptions.map((s: any) => s.event)).toEqual(['call_ended', 'lead_changed', 'new_call']);
    const desc = await call(gateway, { path: '/api/v1/subscriptions?order=event&order_dir=desc', authorization: company.authorization });
    expect(desc.body.subscriptions.map((s: any) => s.event)).toEqual(['new_call', 'lead_changed', 'call_ended']);
  });

  it('rejects an order it does not know', async () => {
    const reply = await call(gateway, { path: '/api/v1/subscriptions?order=password', authorization: company.authorization });
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['order']);
  });

  it('returns the bare array with root=false, limited to the asked columns', async () => {
    const created = await createSubscription(company);
    const reply = await call(gateway, { path: '/api/v1/subscriptions?root=false&columns=id,event', authorization: company.authorization });
    expect(reply.body).toEqual([{ id: created.id, event: 'new_call' }]);
  });

  it.each(['1', 'true', 'yes', 'on', '0', 'false', 'no', 'off'])('accepts root=%s', async (word) => {
    const reply = await call(gateway, { path: `/api/v1/subscriptions?root=${word}`, authorization: company.authorization });
    expect(reply.status).toBe(200);
    expect(Array.isArray(reply.body)).toBe(['0', 'false', 'no', 'off'].includes(word));
  });

  it('rejects a root that is not one of the boolean words', async () => {
    const reply = await call(gateway, { path: '/api/v1/subscriptions?root=nope', authorization: company.authorization });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.root[0]).toMatch(/is not a valid boolean/);
  });

  it('filters by ids in each accepted form', async () => {
    const a = await createSubscription(company);
    await createSubscription(company);
    const c = await createSubscription(company);
    for (const query of [`ids[]=${a.id}&ids[]=${c.id}`, `ids=${a.id},${c.id}`, `ids=${encodeURIComponent(JSON.stringify([a.id, c.id]))}`]) {
      const reply = await call(gateway, { path: `/api/v1/subscriptions?${query}`, authorization: company.authorization });
      expect(reply.body.subscriptions.map((s: any) => s.id), query).toEqual([a.id, c.id]);
    }
  });

  it('names an unknown column', async () => {
    const reply = await call(gateway, { path: '/api/v1/subscriptions?columns=id,secret', authorization: company.authorization });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ columns: ['unknown column secret'] });
  });
});

describe('GET /api/v1/subscriptions/:id', () => {
  it('shows a subscription', async () => {
    const { secret, ...created } = await createSubscription(company);
    const reply = await call(gateway, { path: `/api/v1/subscriptions/${created.id}`, authorization: company.authorization });
    expect(reply.status).toBe(200);
    // Everything the create showed but the signing secret, which only the create shows.
    expect(secret).toMatch(/^whsec_/);
    expect(reply.body.subscription).toEqual(created);
  });

  it('answers 404 for a missing id, a non-numeric id and another company\'s record', async () => {
    const theirs = await createSubscription(other);
    for (const path of ['/api/v1/subscriptions/999', '/api/v1/subscriptions/abc', `/api/v1/subscriptions/${theirs.id}`]) {
      const reply = await call(gateway, { path, authorization: company.authorization });
      expect(reply.status, path).toBe(404);
      expect(reply.body.status).toBe(404);
    }
  });
});

describe('PUT /api/v1/subscriptions/:id', () => {
  it('changes only the fields sent', async () => {
    const created = await createSubscription(company, { trigger_fields: { offer_id: 3 } });
    const reply = await call(gateway, { method: 'PUT', path: `/api/v1/subscriptions/${created.id}`, authorization: company.authorization, json: { event: 'call_changed' } });
    expect(reply.status).toBe(200);
    expect(reply.body.subscription).toMatchObject({ id: created.id, event: 'call_changed', target_url: HOOK, trigger_fields: { offer_id: 3 }, created_at: created.created_at });
    expect(reply.body.checksum).not.toBe(undefined);
  });

  it('rejects invalid values and leaves the record as it was', async () => {
    const created = await createSubscription(company);
    const reply = await call(gateway, {
      method: 'PUT',
      path: `/api/v1/subscriptions/${created.id}`,
      authorization: company.authorization,
      json: { event: 'call_changed', target_url: 'not a url' },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ target_url: ['is not a valid URL'] });
    const shown = await call(gateway, { path: `/api/v1/subscriptions/${created.id}`, authorization: company.authorization });
    expect(shown.body.subscription.event).toBe('new_call');
  });

  it('answers 404 for another company\'s record and does not change it', async () => {
    const theirs = await createSubscription(other);
    const reply = await call(gateway, { method: 'PUT', path: `/api/v1/subscriptions/${theirs.id}`, authorization: company.authorization, json: { event: 'call_changed' } });
    expect(reply.status).toBe(404);
    const shown = await call(gateway, { path: `/api/v1/subscriptions/${theirs.id}`, authorization: other.authorization });
    expect(shown.body.subscription.event).toBe('new_call');
  });
});

describe('DELETE /api/v1/subscriptions/:id', () => {
  it('deletes and returns the record', async () => {
    const created = await createSubscription(company);
    const reply = await call(gateway, { method: 'DELETE', path: `/api/v1/subscriptions/${created.id}`, authorization: company.authorization });
    expect(reply.status).toBe(200);
    expect(reply.body.subscription.id).toBe(created.id);
    const shown = await call(gateway, { path: `/api/v1/subscriptions/${created.id}`, authorization: company.authorization });
    expect(shown.status).toBe(404);
  });

  it('cannot delete another company\'s record', async () => {
    const theirs = await createSubscription(other);
    const reply = await call(gateway, { method: 'DELETE', path: `/api/v1/subscriptions/${theirs.id}`, authorization: company.authorization });
    expect(reply.status).toBe(404);
    const shown = await call(gateway, { path: `/api/v1/subscriptions/${theirs.id}`, authorization: other.authorization });
    expect(shown.status).toBe(200);
  });
});

describe('DELETE /api/v1/subscriptions (by target_url)', () => {
  it('deletes every subscription of the company with that URL, and only those', async () => {
    const first = await createSubscription(company, { event: 'new_call' });
    await createSubscription(company, { event: 'call_ended' });
    const kept = await createSubscription(company, { target_url: `${HOOK}/other` });
    const theirs = await createSubscription(other);
    const reply = await call(gateway, { method: 'DELETE', path: '/api/v1/subscriptions', authorization: company.authorization, json: { target_url: HOOK } });
    expect(reply.status).toBe(200);
    expect(reply.body.subscription.id).toBe(first.id);
    const list = await call(gateway, { path: '/api/v1/subscriptions', authorization: company.authorization });
    expect(list.body.subscriptions.map((s: any) => s.id)).toEqual([kept.id]);
    const theirsShown = await call(gateway, { path: `/api/v1/subscriptions/${theirs.id}`, authorization: other.authorization });
    expect(theirsShown.status).toBe(200);
  });

  it('accepts the URL in the query string', async () => {
    await createSubscription(company);
    const reply = await call(gateway, { method: 'DELETE', path: `/api/v1/subscriptions?target_url=${encodeURIComponent(HOOK)}`, authorization: company.authorization });
    expect(reply.status).toBe(200);
  });

  it('answers 404 when nothing matches, and without a target_url (optional in the reference) matches nothing and deletes nothing', async () => {
    const none = await call(gateway, { method: 'DELETE', path: '/api/v1/subscriptions', authorization: company.authorization, json: { target_url: HOOK } });
    expect(none.status).toBe(404);
    const kept = await createSubscription(company);
    for (const json of [{}, { target_url: '' }]) {
      const missing = await call(gateway, { method: 'DELETE', path: '/api/v1/subscriptions', authorization: company.authorization, json });
      expect(missing.status).toBe(404);
      expect(missing.body.status).toBe(404);
    }
    const list = await call(gateway, { path: '/api/v1/subscriptions', authorization: company.authorization });
    expect(list.body.subscriptions.map((s: any) => s.id)).toEqual([kept.id]);
  });
});

describe('unknown paths and methods', () => {
  it('answers 404 for a path no route serves and 405 with Allow for a wrong method', async () => {
    const unknown = await call(gateway, { path: '/api/v1/nothing_here', authorization: company.authorization });
    expect(unknown.status).toBe(404);
    expect(unknown.body.status).toBe(404);
    const wrong = await call(gateway, { method: 'PATCH', path: '/api/v1/subscriptions/1', authorization: company.authorization });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, PUT, DELETE');
  });
});
