import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../shared/adapters/clock.js';
import { REPORTING_COLUMNS } from '../../shared/calls/call-record-fields.js';
import { getCall } from '../../shared/calls/call-store.js';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { createTestCompany, createTestUser, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';

/**
 * Reporting jobs, billing scripts, the official PHP SDK, buyers' postbacks and the hosted
 * service's documentation examples, each request replayed exactly as the client sends it (only
 * the host changed), asserting only what the client reads. Sources: docs/compatibility.md,
 * "Real clients" (the ids in the test names are its rows). One company for the whole file.
 */
const gateway = useGateway();
usePinnedClockForAll(midDayTomorrow);

const TOKEN = process.env.TWILIO_AUTH_TOKEN!;

interface World {
  company: TestCompany;
  authToken: string;
  trafficSource: Record<string, any>;
  buyer: Record<string, any>;
  number: Record<string, any>;
  /** Answered 90 s, converted for the buyer (25) and paid to the traffic source (5). */
  converted: { id: number; uuid: string };
  /** Not answered. */
  missed: { id: number; uuid: string };
  /** To another offer, buyer and no traffic source: the call the postbacks and updates change (the lists the counts read never see it). */
  updated: { id: number; uuid: string };
  /** The pinned day, `YYYY-MM-DD`. */
  day: string;
}

let world: World;

async function simulate(to: string, from: string, answer: boolean): Promise<{ id: number; uuid: string }> {
  const result = await simulateCall({ baseUrl: gateway.baseUrl, authToken: TOKEN, from, to, buyers: [{ answer, answerAfter: 3, talk: answer ? 90 : 0 }], callSid: `CA${randomUUID().replace(/-/g, '')}` });
  const shown = await call(gateway, { path: `/api/v1/calls/${result.callId}`, authorization: world.company.authorization });
  return { id: result.callId!, uuid: shown.body.call.uuid };
}

beforeAll(async () => {
  const company = await createTestCompany('real-clients-reporting');
  const { authToken } = await createTestUser(company.id);
  const trafficSource = await createThrough(gateway, company, '/api/v1/traffic_sources', { name: 'Publisher', user_traffic_source_id: 'PUB-7' });
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Buyer', user_buyer_id: 'BUY-9', number: '+12125557301', current_conversion_revenue: 25, current_conversion_duration: 30 });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Medicare', buyer_ids: [buyer.id] });
  await createThrough(gateway, company, '/api/v1/offer_conversions', { name: 'Paid call', offer_id: offer.id, duration: 30, duplicate_timeframe: 0, payout: 5 });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id, traffic_source_id: trafficSource.id });
  const postbackBuyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Postback buyer', number: '+12125557302' });
  const postbacks = await createThrough(gateway, company, '/api/v1/offers', { name: 'Postbacks', buyer_ids: [postbackBuyer.id] });
  const postbackNumber = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: postbacks.id });
  const none = { id: 0, uuid: '' };
  world = { company, authToken, trafficSource, buyer, number, converted: none, missed: none, updated: none, day: clock().now().toISOString().slice(0, 10) };
  world.converted = await simulate(String(number.number), '+14155550101', true);
  world.missed = await simulate(String(number.number), '+14155550102', false);
  world.updated = await simulate(String(postbackNumber.number), '+14155550103', false);
});

const basic = () => ({ authorization: world.company.authorization });

describe('the official PHP SDK (Trackdrive/trackdrive-php-sdk)', () => {
  it.each(['traffic_sources', 'buyers', 'buyer_groups', 'calls', 'offers', 'phone_numbers'])('[S1] view("%s"): GET /api/v1/<type>?auth_token=...; reads the decoded data', async (type) => {
    const reply = await call(gateway, { path: `/api/v1/${type}?auth_token=${world.authToken}` });
    expect(reply.status).toBe(200);
    expect(Array.isArray(reply.body[type])).toBe(true);
  });

  it('[S5] the SDK\'s controller.php example: add() with the fields as a JSON list of one-field objects', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: `/api/v1/traffic_sources?auth_token=${world.authToken}`,
      json: [{ user_traffic_source_id: 'FE2' }, { first_name: 'Jo' }, { company_name: 'Listed Inc' }],
    });
    expect(reply.status).toBe(200);
    expect(reply.body.traffic_source).toMatchObject({ user_traffic_source_id: 'FE2', name: 'Listed Inc' });
    const other = await call(gateway, { method: 'POST', path: `/api/v1/traffic_sources?auth_token=${world.authToken}`, json: [1, 2] });
    expect(other.status).toBe(400);
  });

  it('[S4] view("teams") and view("teams", id): the reference\'s access_control_lists under the hosted path', async () => {
    const team = await createThrough(gateway, world.company, '/api/v1/access_control_lists', { name: 'Sales' });
    const list = await call(gateway, { path: `/api/v1/teams?auth_token=${world.authToken}` });
    expect(list.status).toBe(200);
    expect(list.body.access_control_lists.map((row: any) => row.name)).toContain('Sales');
    const shown = await call(gateway, { path: `/api/v1/teams/${team.id}?auth_token=${world.authToken}` });
    expect(shown.body.access_control_list.id).toBe(team.id);
  });

  it('[S2] view("traffic_sources", id) (and edit(), whose PUT goes out as a GET): GET /api/v1/traffic_sources/:id?auth_token=...', async () => {
    const reply = await call(gateway, { path: `/api/v1/traffic_sources/${world.trafficSource.id}?auth_token=${world.authToken}` });
    expect(reply.status).toBe(200);
    expect(reply.body.traffic_source.id).toBe(world.trafficSource.id);
  });

  it('[S3] add("traffic_sources", {user_traffic_source_id, first_name, last_name, company_name}): JSON POST with auth_token in the query', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: `/api/v1/traffic_sources?auth_token=${world.authToken}`,
      json: { user_traffic_source_id: 'FE1', first_name: 'John', last_name: 'Doe', company_name: 'Corporation Inc' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.traffic_source).toMatchObject({ user_traffic_source_id: 'FE1', first_name: 'John', last_name: 'Doe', company_name: 'Corporation Inc', name: 'Corporation Inc' });
    const person = await call(gateway, { method: 'POST', path: `/api/v1/traffic_sources?auth_token=${world.authToken}`, json: { first_name: 'Jane', last_name: 'Smith' } });
    expect(person.body.traffic_source.name).toBe('Jane Smith');
  });
});

describe('reporting jobs paging through calls', () => {
  /** The PHP job's window: `date('Y-m-j')` days with `+00%3A00%3A00%20-0500` appended, unescaped `+` and all. */
  const phpDay = () => {
    const [year, month, day] = world.day.split('-');
    return `${year}-${month}-${Number(day)}`;
  };
  const metricsUrl = (extra = '') =>
    `/api/v1/calls.json?auth_token=${world.authToken}&traffic_source_id=${world.trafficSource.id}&per_page=1&created_at_from=${phpDay()}+00%3A00%3A00%20-0500&created_at_to=${phpDay()}+23%3A59%3A59%20-0500${extra}`;

  it('[M1] GET /api/v1/calls.json?auth_token&traffic_source_id&per_page=1&created_at_from=Y-m-j+00:00:00 -0500: reads metadata.total_count', async () => {
    const reply = await call(gateway, { path: metricsUrl() });
    expect(reply.status).toBe(200);
    expect(reply.body.metadata.total_count).toBe(2);
  });

  it('[M2] the same with &offer_converted=true; [M3] with &in_progress=true; [M4] with &number_id=', async () => {
    expect((await call(gateway, { path: metricsUrl('&offer_converted=true') })).body.metadata.total_count).toBe(1);
    expect((await call(gateway, { path: metricsUrl('&in_progress=true') })).body.metadata.total_count).toBe(0);
    expect((await call(gateway, { path: metricsUrl(`&number_id=${world.number.id}`) })).body.metadata.total_count).toBe(2);
  });

  it('[M5] GET /api/v1/phone_numbers?auth_token&traffic_source_id: reads numbers[].number and .id', async () => {
    const reply = await call(gateway, { path: `/api/v1/phone_numbers?auth_token=${world.authToken}&traffic_source_id=${world.trafficSource.id}` });
    expect(reply.body.numbers.map((number: any) => [number.id, number.number])).toEqual([[world.number.id, world.number.number]]);
  });

  it('[B1] billing: per_page=250, buyer_converted=true, root=false, columns=..., time_zone=UTC; reads the bare array and its columns', async () => {
    const columns = 'id,created_at,offer,offer_id,caller_number,caller_city,caller_country,total_duration,answered_duration,traffic_source_payout,payout,revenue,buyer_revenue';
    const params = new URLSearchParams({
      per_page: '250',
      page: '1',
      buyer_converted: 'true',
      root: 'false',
      traffic_source_id: String(world.trafficSource.id),
      created_at_from: `${world.day} 00:00:00`,
      created_at_to: `${world.day} 23:59:59`,
      time_zone: 'UTC',
      columns,
    });
    const reply = await call(gateway, { path: `/api/v1/calls?${params.toString()}`, ...basic() });
    expect(reply.status).toBe(200);
    expect(Array.isArray(reply.body)).toBe(true);
    expect(reply.body).toHaveLength(1);
    const row = reply.body[0];
    expect(Object.keys(row).sort()).toEqual(columns.split(',').sort());
    expect(row).toMatchObject({ id: world.converted.id, offer: 'Medicare', caller_number: '+14155550101', traffic_source_payout: 5, revenue: 25 });
    expect(row.answered_duration).toBeGreaterThan(0);
  });

  it('[D1] a cron job copies every call field of GET /api/v1/calls into its own table: every key is present', async () => {
    const reply = await call(gateway, { path: '/api/v1/calls', ...basic() });
    const read = [
      'id', 'legacy_id', 'type', 'uuid', 'created_at', 'updated_at', 'deleted_at', 'user_updated_at', 'routes_show_path', 'routes_edit_path', 'external_record_id',
      'name', 'recording_url', 'category', 'number_called', 'number_id', 'connected_to', 'caller_number', 'offer', 'user_offer_id', 'offer_id',
      'quality_assurance_user_id', 'quality_assurance_name', 'quality_assurance_id', 'agent_id', 'traffic_source', 'user_traffic_source_id', 'traffic_source_id',
      'buyer', 'user_buyer_id', 'buyer_id', 'obfuscated_caller_number', 'caller_city', 'caller_country', 'token_values', 'total_duration', 'hold_duration',
      'ivr_duration', 'attempted_duration', 'answered_duration', 'agent_duration', 'sub_id', 'schedule_id', 'schedule_name', 'ring_pool_id', 'status',
      'buyer_converted', 'buyer_repeat_caller', 'buyer_revenue', 'revenue', 'traffic_source_converted', 'traffic_source_repeat_caller', 'traffic_source_payout',
      'payout', 'trackdrive_cost', 'provider_cost', 'call_sid', 'provider', 'outgoing_webhooks_count', 'ended_at', 'contact_field_type', 'disposition_id',
      'disposition_key', 'disposition_name', 'disposition_notes', 'hangup_cause',
    ];
    for (const row of reply.body.calls) for (const key of read) expect(row, key).toHaveProperty(key);
    const converted = reply.body.calls.find((row: any) => row.id === world.converted.id);
    expect(converted).toMatchObject({
      number_called: world.number.number,
      connected_to: '+12125557301',
      user_traffic_source_id: 'PUB-7',
      user_buyer_id: 'BUY-9',
      traffic_source_converted: true,
      provider: 'twilio',
      hangup_cause: 'completed',
    });
    // Derived from the attempts' times (the clock is pinned here: the unit tests pin the arithmetic).
    expect(converted.ring_duration).toEqual(expect.any(Number));
    expect(converted.attempted_duration).toBeGreaterThanOrEqual(converted.ring_duration);
    expect(converted.ivr_duration).toBe(0);
    expect(converted.call_sid).toMatch(/^CA/);
    for (const column of REPORTING_COLUMNS) expect(converted, column).toHaveProperty(column);
  });

  it('[D2] page=1, created_at_from "... 00:00:00 UTC", created_at_to "... +0000", buyer_id, per_page=50: reads metadata.total_pages, calls[], buyer_converted == "Converted" (PHP loose ==)', async () => {
    const params = new URLSearchParams({ page: '1', created_at_from: `${world.day} 00:00:00 UTC`, created_at_to: `${world.day} 23:59:59 +0000`, buyer_id: String(world.buyer.id), per_page: '50' });
    const reply = await call(gateway, { path: `/api/v1/calls?${params.toString()}`, ...basic() });
    expect(reply.body.metadata).toMatchObject({ total_count: 2, total_pages: 1, page: 1, per_page: 50 });
    // PHP's `$value['buyer_converted'] == 'Converted'` is true for true and false for false.
    expect(reply.body.calls.map((row: any) => row.buyer_converted).sort()).toEqual([false, true]);
  });

  it('[D3] the docs example: GET /api/v1/calls?page=1&in_progress=true&order=created_at&auth_token=...', async () => {
    const reply = await call(gateway, { path: `/api/v1/calls?page=1&in_progress=true&order=created_at&auth_token=${world.authToken}` });
    expect(reply.status).toBe(200);
    expect(reply.body.calls).toEqual([]);
  });

  it('[J1] Rails format suffix on a record: GET /api/v1/calls/:id.json and /api/v1/buyers/:id.json', async () => {
    const shown = await call(gateway, { path: `/api/v1/calls/${world.converted.id}.json`, ...basic() });
    expect(shown.body.call.id).toBe(world.converted.id);
    const buyer = await call(gateway, { path: `/api/v1/buyers/${world.buyer.id}.json`, ...basic() });
    expect(buyer.body.buyer.user_buyer_id).toBe('BUY-9');
    const list = await call(gateway, { path: '/api/v1/buyers.json?per_page=1', ...basic() });
    expect(list.body.metadata).toMatchObject({ total_count: 2, total_pages: 2, per_page: 1 });
  });
});

describe('the hosted API docs\' own examples', () => {
  it('[H1] secure_calls: PUT /api/v1/secure/:secure_token/calls/:uuid?revenue=10&buyer_converted=true (no credentials)', async () => {
    const stored = await getCall(world.company.id, world.updated.id);
    const reply = await call(gateway, { method: 'PUT', path: `/api/v1/secure/${String(stored!.secure_token)}/calls/${world.updated.uuid}?revenue=10&buyer_converted=true` });
    expect(reply.status).toBe(200);
    expect(reply.body.call).toMatchObject({ revenue: 10, buyer_converted: true });
  });

  it('[H2] subscriptions: POST /api/v1/subscriptions {"target_url": "https://hooks.zapier.com/<unique_path>", "event": "new_call"}; reads subscription', async () => {
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/subscriptions', ...basic(), json: { target_url: 'https://hooks.zapier.com/hooks/standard/1/abc/', event: 'new_call' } });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: 200, errors: {}, subscription: { event: 'new_call' }, metadata: { root: 'subscription' } });
  });
});

describe('buyers\' postbacks and call updates', () => {
  it('[K1] POST /api/v1/calls/send_key_press JSON {id: uuid, digits: "*", data: {customer_info: {...}, financial_info: {...}, timestamp}}: reads status 200', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: '/api/v1/calls/send_key_press',
      ...basic(),
      json: { id: world.updated.uuid, digits: '*', data: { customer_info: { first_name: 'Al', zip: '10001' }, financial_info: { debtAmount: 12000 }, timestamp: '2026-11-28T10:00:00' } },
    });
    expect(reply.status).toBe(200);
    const shown = await call(gateway, { path: `/api/v1/calls/${world.updated.id}`, ...basic() });
    expect(shown.body.call.data).toMatchObject({ 'customer_info.first_name': 'Al', 'financial_info.debtAmount': 12000 });
  });

  it('[K2] postback with auth_token in the JSON: POST /api/v1/calls/update_call/:uuid {auth_token, buyer_converted: "true", revenue, data}', async () => {
    const reply = await call(gateway, { method: 'POST', path: `/api/v1/calls/update_call/${world.updated.uuid}`, json: { auth_token: world.authToken, buyer_converted: 'true', revenue: '40', data: { buyer_reference: 'R-1' } } });
    expect(reply.status).toBe(200);
    expect(reply.body.call).toMatchObject({ buyer_converted: true, revenue: 40 });
  });

  it('[K3] postback with Basic auth: {buyer_converted: "true", revenue, offer_converted: "true", post_call_tokens: {first_name, last_name}}', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: `/api/v1/calls/update_call/${world.updated.uuid}`,
      ...basic(),
      json: { buyer_converted: 'true', revenue: '45', offer_converted: 'true', post_call_tokens: { first_name: 'Mary', last_name: 'Adams' } },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.call.data).toMatchObject({ first_name: 'Mary', last_name: 'Adams' });
    const stranger = await call(gateway, { method: 'POST', path: `/api/v1/calls/update_call/${world.updated.uuid}`, json: { auth_token: 'nope', revenue: '1' } });
    expect(stranger.status).toBe(401);
  });
});
