import { parse as parseCsv } from 'csv-parse/sync';
import { DateTime } from 'luxon';
import { beforeEach, describe, expect, it } from 'vitest';
import { emailPort } from '../../shared/adapters/index.js';
import type { EmailOutbox } from '../../shared/adapters/local/email-outbox.js';
import { deliverQueued } from '../fixtures/events.js';
import { METRICS, PERIODS, type Metric } from '../../shared/buyers/counter-model.js';
import { applyCounterChange, readCounterItems } from '../../shared/buyers/counters.js';
import { reserveAttempt } from '../fixtures/counters.js';
import { BUYER_WRITABLE_FIELDS, CAP_FIELDS } from '../../shared/buyers/buyer-fields.js';
import { BUYER_ORDER_VALUES, buyers } from '../../shared/buyers/buyers-resource.js';
import { allColumns } from '../../shared/resources/define.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, type ApiReply, useGateway } from '../fixtures/gateway.js';
import { COMMON_COLUMNS } from '../fixtures/reference.js';
import { clock } from '../../shared/adapters/clock.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';

/**
 * Buyers through the local gateway (api-reference.md, Buyer and Buyers): the seven endpoints,
 * every writable field and rule, the readable columns, list filters, ordering, CSV, and the live
 * counters the routing code keeps (put on a buyer here with the counter functions themselves).
 */

const gateway = useGateway();
// Counters, caps, rollups and charges are per hour and UTC day: pinned mid-day, mid-minute so the
// file passes at any hour.
usePinnedClockForAll(midDayTomorrow);
let company: TestCompany;
let other: TestCompany;

beforeEach(async () => {
  // Fresh companies per test: buyer ids start at 1, counts at 0, lookups are empty.
  company = await createTestCompany('buyers');
  other = await createTestCompany('buyers-other');
});

type Row = Record<string, any>;

const BUYERS = '/api/v1/buyers';
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;

function api(owner: TestCompany, method: string, path: string, json?: unknown): Promise<ApiReply> {
  return call(gateway, { method, path, authorization: owner.authorization, json });
}

async function createBuyer(owner: TestCompany, fields: Record<string, unknown> = {}): Promise<Row> {
  const reply = await api(owner, 'POST', BUYERS, fields);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.buyer as Row;
}

async function showBuyer(owner: TestCompany, id: number, query = ''): Promise<Row> {
  const reply = await api(owner, 'GET', `${BUYERS}/${id}${query}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.buyer as Row;
}

async function updateBuyer(owner: TestCompany, id: number, fields: Record<string, unknown>): Promise<Row> {
  const reply = await api(owner, 'PUT', `${BUYERS}/${id}`, fields);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.buyer as Row;
}

async function listBuyers(owner: TestCompany, query = ''): Promise<Row[]> {
  const reply = await api(owner, 'GET', `${BUYERS}${query}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.buyers as Row[];
}

async function createOffer(owner: TestCompany, name = 'Solar'): Promise<number> {
  const reply = await api(owner, 'POST', '/api/v1/offers', { name });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.offer.id as number;
}

/**
 * Team invitations sent for a company: they go through the event outbox and queue, so the
 * delivery function runs first (as the local worker would), then the local e-mail outbox is read.
 */
async function invitations(owner: TestCompany): Promise<string[]> {
  await deliverQueued();
  const outbox = emailPort() as EmailOutbox;
  return outbox.sent.filter((message) => message.companyId === owner.id && message.kind === 'team_invitation').map((message) => message.to);
}

/**
 * A time zone where, right now, the local hour is not about to roll over (minute 5..54) and the
 * local day is not about to end (hour 1..22), so counts put on a buyer in this zone are still in
 * their hour, day and month when the API reads them. Zones with :30 offsets cover the minutes
 * around the full hour; one of the candidates always qualifies.
 */
function quietZone(): string {
  const now = DateTime.fromJSDate(clock().now(), { zone: 'utc' });
  const candidates = ['UTC', 'Asia/Tokyo', 'America/New_York', 'Asia/Kolkata', 'Australia/Darwin', 'America/St_Johns', 'Asia/Tehran'];
  const zone = candidates.find((name) => {
    const local = now.setZone(name);
    return local.minute >= 5 && local.minute <= 54 && local.hour >= 1 && local.hour <= 22;
  });
  if (!zone) throw new Error('no quiet time zone');
  return zone;
}

/** The readable columns exactly as the reference lists them (common columns first). */
const REFERENCE_COLUMNS = [
  ...COMMON_COLUMNS,
  'name',
  'context_menu_name',
  'email',
  'number',
  'paused',
  'time_zone',
  'user_buyer_id',
  'bid_price',
  'route_by_type',
  'buyer_type',
  'buyer_group_ids',
  'buyer_group_names',
  'token_values',
  'token_values_hash',
  'attribution_token_values',
  'attribution_token_values_hash',
  'last_call_at',
  'weight',
  'tier',
  'timeout_seconds',
  'dtmf_tones',
  'concurrency_cap_limit',
  'concurrency_cap_used',
  'maxed_out_by',
  'current_conversion_revenue_max',
  'current_conversion_revenue_min',
  'current_conversion_revenue_increment',
  'current_conversion_revenue',
  'current_conversion_duration',
  'current_conversion_duplicate_timeframe',
  'current_conversion_name',
  'current_conversion_token_value_ids',
  'current_conversion_attribution_token_value_ids',
  'buyer_suppression_ids',
  'record_token_filter_id',
  'record_token_filter_data_count',
  'record_token_filter_data',
  'record_token_additional_id',
  'record_token_additional_data_count',
  'record_token_additional_data',
  'business_hours_schedule',
  'buyer_conversions_schedule',
  ...['attempt', 'buyer_conversion', 'connection', 'earned_revenue', 'revenue'].flatMap((metric) =>
    ['hourly', 'daily', 'monthly', 'total'].flatMap((period) => [`${metric}_${period}_used`, `${metric}_${period}_limit`]),
  ),
];

/** The reference's `order` values, spelled out. */
const REFERENCE_ORDER_VALUES = [
  'id',
  'name',
  'calls_count',
  'recent_calls_count',
  'outgoing_webhooks_count',
  'paused',
  'number',
  'created_at',
  'last_call_at',
  'tier',
  'weight',
  'time_zone',
  'user_buyer_id',
  ...['revenue', 'earned_revenue', 'buyer_conversion', 'connection', 'attempt'].flatMap((metric) =>
    ['hourly', 'daily', 'monthly', 'total'].map((period) => `${metric}_${period}_used`),
  ),
];

// ---------------------------------------------------------------------------------------------
// Every writable field: what is sent and what show answers with.
// ---------------------------------------------------------------------------------------------

function fullCreateInput(offerId: number): Record<string, unknown> {
  return {
    user_buyer_id: ' crm-001 ',
    number: '+1 (415) 555-2671',
    name: '  Acme Insurance  ',
    timeout_seconds: '45',
    dtmf_tones: '1w2W*#',
    time_zone: 'Eastern Time (US & Canada)',
    buyer_suppression_ids: '3, 4',
    paused: 'yes',
    record_calls: 'on',
    press_one_to_accept: '1',
    generate_team: true,
    team_users_emails: [' Ann@Example.com ', 'bob@example.org'],
    team_offer_ids: [String(offerId)],
    team_edit_caps: 'yes',
    record_token_filter_list: 'state: CA|NY, age:>= 21',
    record_token_additional_list: 'source: web, campaign:spring',
    route_by_type: 'revenue',
    tier: '-2',
    weight: '3.5',
    epc_timeframe: 24,
    epc_assumed_amount: '1.25',
    epc_assumed_calls_count: '10',
    display_caller_id_type: 'display_service_number_id',
    display_service_number_id: '77',
    concurrency_cap_limit: '5',
    attempt_total_limit: 1000,
    attempt_monthly_limit: '300',
    attempt_daily_limit: 30,
    connection_total_limit: '900',
    connection_monthly_limit: 200,
    connection_daily_limit: '20',
    buyer_conversion_total_limit: 800,
    buyer_conversion_monthly_limit: '100',
    buyer_conversion_daily_limit: 10,
    revenue_total_limit: '50000.5',
    revenue_monthly_limit: 5000,
    revenue_daily_limit: '500',
    business_hours_schedule: [
      {
        attempt_hourly_limit: '5',
        connection_hourly_limit: 4,
        buyer_conversion_hourly_limit: '3',
        revenue_hourly_limit: '100.5',
        schedule: [
          { day: '1', times: [' 09:00..17:00 ', '18:00..24:00'] },
          { day: 5, times: ['22:00..02:00'] },
        ],
      },
    ],
    buyer_conversions_schedule: [
      {
        buyer_conversions_attributes: [{ name: ' Sale ', duration: '90', revenue: '12.5', duplicate_timeframe: 3600 }],
        schedule: [{ day: 0, times: ['00:00..24:00'] }],
      },
    ],
    current_conversion_revenue_max: '50',
    current_conversion_revenue_min: 5,
    current_conversion_revenue_increment: '0.5',
    current_conversion_revenue: '12.34',
    current_conversion_duration: '30',
    current_conversion_duplicate_timeframe: 86400,
    current_conversion_name: ' Qualified call ',
    current_conversion_token_values: ['zip:!=90210', 'age: <= 65', 'state:TX'],
    current_conversion_attribution_token_values: 'channel: ppc',
    buyer_type: 'rtb',
    rtb_url: 'https://bids.example.com/bid?caller={{caller_id}}',
    rtb_method: ' get ',
    rtb_body: '{"caller":"{{caller_id}}"}',
    rtb_headers: { 'X-Api-Key': '{{secret:acme-key}}' },
    rtb_timeout_ms: '900',
    rtb_min_bid: '5.5',
    rtb_response_paths: { bid: 'data.amount', number: 'data.phone' },
  };
}

function fullCreateExpected(offerId: number): Record<string, unknown> {
  return {
    user_buyer_id: 'crm-001',
    number: '+14155552671',
    name: 'Acme Insurance',
    timeout_seconds: 45,
    dtmf_tones: '1w2W*#',
    time_zone: 'America/New_York',
    buyer_suppression_ids: [3, 4],
    paused: true,
    record_calls: true,
    press_one_to_accept: true,
    generate_team: true,
    team_users_emails: ['ann@example.com', 'bob@example.org'],
    team_offer_ids: [offerId],
    team_edit_caps: true,
    record_token_filter_list: ['state:CA|NY', 'age:>=21'],
    record_token_additional_list: 'source:web,campaign:spring',
    route_by_type: 'revenue',
    tier: -2,
    weight: 3.5,
    epc_timeframe: 24,
    epc_assumed_amount: 1.25,
    epc_assumed_calls_count: 10,
    display_caller_id_type: 'display_service_number_id',
    display_service_number_id: 77,
    concurrency_cap_limit: 5,
    attempt_total_limit: 1000,
    attempt_monthly_limit: 300,
    attempt_daily_limit: 30,
    connection_total_limit: 900,
    connection_monthly_limit: 200,
    connection_daily_limit: 20,
    buyer_conversion_total_limit: 800,
    buyer_conversion_monthly_limit: 100,
    buyer_conversion_daily_limit: 10,
    revenue_total_limit: 50000.5,
    revenue_monthly_limit: 5000,
    revenue_daily_limit: 500,
    business_hours_schedule: [
      {
        attempt_hourly_limit: 5,
        connection_hourly_limit: 4,
        buyer_conversion_hourly_limit: 3,
        revenue_hourly_limit: 100.5,
        schedule: [
          { day: 1, times: ['09:00..17:00', '18:00..24:00'] },
          { day: 5, times: ['22:00..02:00'] },
        ],
      },
    ],
    buyer_conversions_schedule: [
      {
        buyer_conversions_attributes: [{ name: 'Sale', duration: 90, revenue: 12.5, duplicate_timeframe: 3600 }],
        schedule: [{ day: 0, times: ['00:00..24:00'] }],
      },
    ],
    current_conversion_revenue_max: 50,
    current_conversion_revenue_min: 5,
    current_conversion_revenue_increment: 0.5,
    current_conversion_revenue: 12.34,
    current_conversion_duration: 30,
    current_conversion_duplicate_timeframe: 86400,
    current_conversion_name: 'Qualified call',
    current_conversion_token_values: ['zip:!=90210', 'age:<=65', 'state:TX'],
    current_conversion_attribution_token_values: 'channel:ppc',
    buyer_type: 'rtb',
    rtb_url: 'https://bids.example.com/bid?caller={{caller_id}}',
    rtb_method: 'GET',
    rtb_body: '{"caller":"{{caller_id}}"}',
    rtb_headers: { 'X-Api-Key': '{{secret:acme-key}}' },
    rtb_timeout_ms: 900,
    rtb_min_bid: 5.5,
    rtb_response_paths: { bid: 'data.amount', number: 'data.phone' },
  };
}

function fullUpdateInput(offerId: number): Record<string, unknown> {
  return {
    user_buyer_id: 'crm-002',
    number: 'sip:acme@sip.example.com',
    name: 'Acme Renamed',
    timeout_seconds: 12,
    dtmf_tones: '',
    time_zone: 'europe/london',
    buyer_suppression_ids: [9],
    paused: 'off',
    record_calls: false,
    press_one_to_accept: '',
    generate_team: 'no',
    team_users_emails: 'bob@example.org, Carol@Example.net',
    team_offer_ids: `${offerId}`,
    team_edit_caps: 'no',
    record_token_filter_list: ['tier:gold'],
    record_token_additional_list: '',
    route_by_type: 'epc',
    tier: 7,
    weight: '',
    epc_timeframe: '48',
    epc_assumed_amount: '-0.75',
    epc_assumed_calls_count: '',
    display_caller_id_type: 'display_fake_caller_id',
    display_service_number_id: '',
    concurrency_cap_limit: '',
    attempt_total_limit: '',
    attempt_monthly_limit: 301,
    attempt_daily_limit: '31',
    connection_total_limit: 901,
    connection_monthly_limit: '',
    connection_daily_limit: 21,
    buyer_conversion_total_limit: '801',
    buyer_conversion_monthly_limit: 101,
    buyer_conversion_daily_limit: '',
    revenue_total_limit: 60000,
    revenue_monthly_limit: '6000.25',
    revenue_daily_limit: 0,
    business_hours_schedule: [
      { attempt_hourly_limit: '', revenue_hourly_limit: 7, schedule: [{ day: 6, times: ['08:00..12:00'] }] },
      { connection_hourly_limit: 2, schedule: [] },
    ],
    buyer_conversions_schedule: '',
    current_conversion_revenue_max: '',
    current_conversion_revenue_min: '',
    current_conversion_revenue_increment: 0.25,
    current_conversion_revenue: '99.99',
    current_conversion_duration: 0,
    current_conversion_duplicate_timeframe: '0',
    current_conversion_name: '',
    current_conversion_token_values: '',
    current_conversion_attribution_token_values: 'channel:seo,sub:1',
    buyer_type: 'static',
    rtb_url: '',
    rtb_method: 'post',
    rtb_body: '',
    rtb_headers: '',
    rtb_timeout_ms: '',
    rtb_min_bid: '',
    rtb_response_paths: '',
  };
}

function fullUpdateExpected(offerId: number): Record<string, unknown> {
  return {
    user_buyer_id: 'crm-002',
    number: 'sip:acme@sip.example.com',
    name: 'Acme Renamed',
    timeout_seconds: 12,
    dtmf_tones: null,
    time_zone: 'Europe/London',
    buyer_suppression_ids: [9],
    paused: false,
    record_calls: false,
    press_one_to_accept: null,
    generate_team: false,
    team_users_emails: ['bob@example.org', 'carol@example.net'],
    team_offer_ids: [offerId],
    team_edit_caps: false,
    record_token_filter_list: ['tier:gold'],
    record_token_additional_list: null,
    route_by_type: 'epc',
    tier: 7,
    weight: null,
    epc_timeframe: 48,
    epc_assumed_amount: -0.75,
    epc_assumed_calls_count: null,
    display_caller_id_type: 'display_fake_caller_id',
    display_service_number_id: null,
    concurrency_cap_limit: null,
    attempt_total_limit: null,
    attempt_monthly_limit: 301,
    attempt_daily_limit: 31,
    connection_total_limit: 901,
    connection_monthly_limit: null,
    connection_daily_limit: 21,
    buyer_conversion_total_limit: 801,
    buyer_conversion_monthly_limit: 101,
    buyer_conversion_daily_limit: null,
    revenue_total_limit: 60000,
    revenue_monthly_limit: 6000.25,
    revenue_daily_limit: 0,
    business_hours_schedule: [
      { attempt_hourly_limit: null, revenue_hourly_limit: 7, schedule: [{ day: 6, times: ['08:00..12:00'] }] },
      { connection_hourly_limit: 2, schedule: [] },
    ],
    buyer_conversions_schedule: null,
    current_conversion_revenue_max: null,
    current_conversion_revenue_min: null,
    current_conversion_revenue_increment: 0.25,
    current_conversion_revenue: 99.99,
    current_conversion_duration: 0,
    current_conversion_duplicate_timeframe: 0,
    current_conversion_name: null,
    current_conversion_token_values: null,
    current_conversion_attribution_token_values: 'channel:seo,sub:1',
    buyer_type: 'static',
    rtb_url: null,
    rtb_method: 'POST',
    rtb_body: null,
    rtb_headers: {},
    rtb_timeout_ms: 800,
    rtb_min_bid: null,
    rtb_response_paths: null,
  };
}

function expectWritable(record: Row, expected: Record<string, unknown>): void {
  for (const field of BUYER_WRITABLE_FIELDS) expect(record[field], field).toEqual(expected[field]);
}

describe('every writable field round-trips', () => {
  it('covers exactly the writable fields in the inputs used here', () => {
    const sorted = [...BUYER_WRITABLE_FIELDS].sort();
    for (const fields of [fullCreateInput(1), fullCreateExpected(1), fullUpdateInput(1), fullUpdateExpected(1)]) {
      expect(Object.keys(fields).sort()).toEqual(sorted);
    }
  });

  it('stores every field normalised on create, shows it, and updates every field', async () => {
    const offerId = await createOffer(company, 'Solar');
    const secondOfferId = await createOffer(company, 'Roofing');

    const created = await createBuyer(company, fullCreateInput(offerId));
    expect(created.id).toBe(1);
    expectWritable(created, fullCreateExpected(offerId));
    const shown = await showBuyer(company, created.id);
    expectWritable(shown, fullCreateExpected(offerId));
    // Columns derived from the fields.
    expect(shown).toMatchObject({
      type: 'Buyer',
      context_menu_name: 'Acme Insurance',
      bid_price: 12.34,
      buyer_type: 'rtb',
      token_values: ['zip:!=90210', 'age:<=65', 'state:TX'],
      token_values_hash: { state: 'TX' },
      attribution_token_values: 'channel:ppc',
      attribution_token_values_hash: { channel: 'ppc' },
      record_token_filter_data: ['state:CA|NY', 'age:>=21'],
      record_token_filter_data_count: 2,
      record_token_additional_data: { source: 'web', campaign: 'spring' },
      record_token_additional_data_count: 2,
      routes_show_path: '/api/v1/buyers/1',
      routes_edit_path: '/api/v1/buyers/1',
    });
    expect(shown.created_at).toMatch(TIME);

    const updated = await updateBuyer(company, created.id, fullUpdateInput(secondOfferId));
    expectWritable(updated, fullUpdateExpected(secondOfferId));
    const reshown = await showBuyer(company, created.id);
    expectWritable(reshown, fullUpdateExpected(secondOfferId));
    expect(reshown).toMatchObject({
      context_menu_name: 'Acme Renamed',
      bid_price: 99.99,
      buyer_type: 'static',
      token_values: [],
      token_values_hash: {},
      attribution_token_values_hash: { channel: 'seo', sub: '1' },
      record_token_filter_data: ['tier:gold'],
      record_token_filter_data_count: 1,
      record_token_additional_data: {},
      record_token_additional_data_count: 0,
    });
    // The buyer is now found by its new external id only.
    expect((await api(company, 'GET', `${BUYERS}/crm-002/by_user_buyer_id`)).body.buyer.id).toBe(created.id);
    expect((await api(company, 'GET', `${BUYERS}/crm-001/by_user_buyer_id`)).status).toBe(404);
  });

  it('leaves the fields an update does not name as they were', async () => {
    const offerId = await createOffer(company);
    const created = await createBuyer(company, fullCreateInput(offerId));
    await updateBuyer(company, created.id, { name: 'Only the name' });
    expectWritable(await showBuyer(company, created.id), { ...fullCreateExpected(offerId), name: 'Only the name' });
  });

  it('accepts the fields wrapped in the root node', async () => {
    const created = await createBuyer(company, { buyer: { name: 'Wrapped', timeout_seconds: 30 } });
    expect(created).toMatchObject({ name: 'Wrapped', timeout_seconds: 30 });
    const updated = await updateBuyer(company, created.id, { buyer: { name: 'Still wrapped' } });
    expect(updated.name).toBe('Still wrapped');
  });

  it('accepts a form-encoded body with bracketed lists', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: BUYERS,
      authorization: company.authorization,
      form: 'name=Form&number=%2B14155552671&paused=1&buyer_suppression_ids[]=5&buyer_suppression_ids[]=6&business_hours_schedule[0][attempt_hourly_limit]=2&business_hours_schedule[0][schedule][0][day]=3&business_hours_schedule[0][schedule][0][times][]=10:00..11:00',
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.buyer).toMatchObject({
      name: 'Form',
      number: '+14155552671',
      paused: true,
      buyer_suppression_ids: [5, 6],
      business_hours_schedule: [{ attempt_hourly_limit: 2, schedule: [{ day: 3, times: ['10:00..11:00'] }] }],
    });
  });
});

// ---------------------------------------------------------------------------------------------
// The endpoints
// ---------------------------------------------------------------------------------------------

describe('create, show, new and delete', () => {
  it('creates a buyer with the defaults and answers with the record envelope', async () => {
    const reply = await api(company, 'POST', BUYERS, { name: 'Plain' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: 200, errors: {}, metadata: { root: 'buyer' } });
    expect(reply.body.checksum).toMatch(/^[0-9a-f]{32}$/);
    const buyer = reply.body.buyer as Row;
    expect(buyer).toMatchObject({
      id: 1,
      name: 'Plain',
      timeout_seconds: 120,
      time_zone: 'UTC',
      paused: false,
      record_calls: false,
      generate_team: false,
      route_by_type: 'tier',
      display_caller_id_type: 'display_caller_id',
      current_conversion_duration: 0,
      number: null,
      user_buyer_id: null,
      buyer_type: 'static',
      concurrency_cap_used: 0,
      maxed_out_by: null,
      last_call_at: null,
      attempt_daily_used: 0,
      attempt_daily_limit: null,
      buyer_group_ids: [],
      buyer_group_names: [],
      deleted_at: null,
    });
    for (const field of CAP_FIELDS) expect(buyer[field], field).toBeNull();
    expect(buyer.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(buyer)).toEqual(allColumns(buyers));
  });

  it('numbers buyers per company', async () => {
    expect((await createBuyer(company)).id).toBe(1);
    expect((await createBuyer(company)).id).toBe(2);
    expect((await createBuyer(other)).id).toBe(1);
  });

  it('shows a buyer only to its company, and 404s for unknown or malformed ids', async () => {
    const buyer = await createBuyer(company, { name: 'Mine' });
    expect((await showBuyer(company, buyer.id)).name).toBe('Mine');
    for (const path of [`${BUYERS}/${buyer.id + 1}`, `${BUYERS}/abc`, `${BUYERS}/-1`]) {
      const reply = await api(company, 'GET', path);
      expect(reply.status, path).toBe(404);
      expect(reply.body.status).toBe(404);
    }
    expect((await api(other, 'GET', `${BUYERS}/${buyer.id}`)).status).toBe(404);
    expect((await api(other, 'PUT', `${BUYERS}/${buyer.id}`, { name: 'Theirs' })).status).toBe(404);
    expect((await api(other, 'DELETE', `${BUYERS}/${buyer.id}`)).status).toBe(404);
    expect((await showBuyer(company, buyer.id)).name).toBe('Mine');
  });

  it('needs credentials', async () => {
    const reply = await call(gateway, { path: BUYERS });
    expect(reply.status).toBe(401);
  });

  it('serves defaults from /buyers/new without storing anything, prefilled from the parameters', async () => {
    const reply = await api(company, 'GET', `${BUYERS}/new?name=Draft&timeout_seconds=15`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.metadata).toEqual({ root: 'buyer' });
    expect(reply.body.buyer).toMatchObject({
      id: null,
      type: 'Buyer',
      name: 'Draft',
      timeout_seconds: 15,
      time_zone: 'UTC',
      paused: false,
      route_by_type: 'tier',
      display_caller_id_type: 'display_caller_id',
      current_conversion_duration: 0,
    });
    expect(Object.keys(reply.body.buyer)).toEqual(allColumns(buyers));
    expect((await api(company, 'GET', `${BUYERS}/new?serializer=buyer_grid`)).status).toBe(200);
    const invalid = await api(company, 'GET', `${BUYERS}/new?timeout_seconds=5`);
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.errors)).toEqual(['timeout_seconds']);
    const list = await api(company, 'GET', BUYERS);
    expect(list.body.metadata.total_count).toBe(0);
  });

  it('deletes a buyer, answering with it, and frees its user_buyer_id', async () => {
    const buyer = await createBuyer(company, { name: 'Gone', user_buyer_id: 'ext-1' });
    const kept = await createBuyer(company, { name: 'Kept' });
    const reply = await api(company, 'DELETE', `${BUYERS}/${buyer.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body.buyer).toMatchObject({ id: buyer.id, name: 'Gone', user_buyer_id: 'ext-1' });
    expect((await api(company, 'GET', `${BUYERS}/${buyer.id}`)).status).toBe(404);
    expect((await api(company, 'DELETE', `${BUYERS}/${buyer.id}`)).status).toBe(404);
    expect((await api(company, 'GET', `${BUYERS}/ext-1/by_user_buyer_id`)).status).toBe(404);
    const list = await api(company, 'GET', BUYERS);
    expect(list.body.metadata.total_count).toBe(1);
    expect((list.body.buyers as Row[]).map((row) => row.id)).toEqual([kept.id]);
    // The external id can be given to another buyer now.
    const again = await createBuyer(company, { user_buyer_id: 'ext-1' });
    expect((await api(company, 'GET', `${BUYERS}/ext-1/by_user_buyer_id`)).body.buyer.id).toBe(again.id);
  });
});

describe('GET /api/v1/buyers/:user_buyer_id/by_user_buyer_id', () => {
  it('finds the buyer of the caller\'s company by its external id', async () => {
    await createBuyer(company, { name: 'First', user_buyer_id: 'crm-1' });
    const second = await createBuyer(company, { name: 'Second', user_buyer_id: 'crm 2' });
    const reply = await api(company, 'GET', `${BUYERS}/${encodeURIComponent('crm 2')}/by_user_buyer_id`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.metadata).toEqual({ root: 'buyer' });
    expect(reply.body.buyer).toMatchObject({ id: second.id, name: 'Second', user_buyer_id: 'crm 2' });
    expect((await api(company, 'GET', `${BUYERS}/crm-1/by_user_buyer_id?serializer=buyer_grid`)).body.buyer.name).toBe('First');
    expect((await api(company, 'GET', `${BUYERS}/crm-1/by_user_buyer_id?serializer=nope`)).status).toBe(422);
  });

  it('404s for an unknown id and for another company\'s buyer', async () => {
    await createBuyer(company, { user_buyer_id: 'crm-1' });
    expect((await api(company, 'GET', `${BUYERS}/crm-9/by_user_buyer_id`)).status).toBe(404);
    expect((await api(other, 'GET', `${BUYERS}/crm-1/by_user_buyer_id`)).status).toBe(404);
  });

  it('lets each company use the same external id for its own buyer', async () => {
    const mine = await createBuyer(company, { name: 'Mine', user_buyer_id: 'shared-id' });
    const theirs = await createBuyer(other, { name: 'Theirs', user_buyer_id: 'shared-id' });
    expect((await api(company, 'GET', `${BUYERS}/shared-id/by_user_buyer_id`)).body.buyer).toMatchObject({ id: mine.id, name: 'Mine' });
    expect((await api(other, 'GET', `${BUYERS}/shared-id/by_user_buyer_id`)).body.buyer).toMatchObject({ id: theirs.id, name: 'Theirs' });
  });
});

describe('user_buyer_id is unique within the company', () => {
  it('answers a duplicate on create with 409 naming the field, and stores nothing', async () => {
    await createBuyer(company, { user_buyer_id: 'dup' });
    const reply = await api(company, 'POST', BUYERS, { name: 'Second', user_buyer_id: ' dup ' });
    expect(reply.status).toBe(409);
    expect(reply.body.status).toBe(409);
    expect(Object.keys(reply.body.errors)).toEqual(['user_buyer_id']);
    const list = await api(company, 'GET', BUYERS);
    expect(list.body.metadata.total_count).toBe(1);
  });

  it('answers an update to a taken value with 409, and moves the lookup on a free one', async () => {
    await createBuyer(company, { user_buyer_id: 'a' });
    const second = await createBuyer(company, { user_buyer_id: 'b' });
    const taken = await api(company, 'PUT', `${BUYERS}/${second.id}`, { user_buyer_id: 'a' });
    expect(taken.status).toBe(409);
    expect(Object.keys(taken.body.errors)).toEqual(['user_buyer_id']);
    expect((await showBuyer(company, second.id)).user_buyer_id).toBe('b');
    // Same value again is not a conflict with itself.
    expect((await updateBuyer(company, second.id, { user_buyer_id: 'b', name: 'Same' })).user_buyer_id).toBe('b');
    await updateBuyer(company, second.id, { user_buyer_id: 'c' });
    // 'b' is free now; blanking a value frees it as well.
    const third = await createBuyer(company, { user_buyer_id: 'b' });
    await updateBuyer(company, third.id, { user_buyer_id: '' });
    expect((await showBuyer(company, third.id)).user_buyer_id).toBeNull();
    expect((await api(company, 'GET', `${BUYERS}/b/by_user_buyer_id`)).status).toBe(404);
    expect((await createBuyer(company, { user_buyer_id: 'b' })).user_buyer_id).toBe('b');
  });

  it('allows buyers without an external id side by side', async () => {
    await createBuyer(company, { user_buyer_id: '' });
    await createBuyer(company, {});
    const third = await createBuyer(company, { user_buyer_id: null });
    expect(third.user_buyer_id).toBeNull();
  });

  it('lets another company use the same value', async () => {
    await createBuyer(company, { user_buyer_id: 'same' });
    expect((await createBuyer(other, { user_buyer_id: 'same' })).user_buyer_id).toBe('same');
  });
});

// ---------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------

const ALL_DAY = [{ day: 0, times: ['00:00..24:00'] }];

/** [what, body, field the 422 must name]. Nested errors are named with dotted keys. */
const REJECTED: Array<[string, Record<string, unknown>, string]> = [
  ['a number without country code', { number: '4155552671' }, 'number'],
  ['a number that is not a phone number', { number: 'call me' }, 'number'],
  ['an impossible E.164 number', { number: '+1 555' }, 'number'],
  ['a bare sip:', { number: 'sip:' }, 'number'],
  ['a sip URI with spaces', { number: 'sip:a b@example.com' }, 'number'],
  ['a number that is not a string', { number: 14155552671 }, 'number'],
  ['timeout_seconds below 12', { timeout_seconds: 11 }, 'timeout_seconds'],
  ['timeout_seconds 11.9', { timeout_seconds: '11.9' }, 'timeout_seconds'],
  ['timeout_seconds that is not a number', { timeout_seconds: 'ten' }, 'timeout_seconds'],
  ['dtmf_tones with letters', { dtmf_tones: '12a' }, 'dtmf_tones'],
  ['dtmf_tones with a space', { dtmf_tones: '1 2' }, 'dtmf_tones'],
  ['an unknown route_by_type', { route_by_type: 'random' }, 'route_by_type'],
  ['an unknown buyer_type', { buyer_type: 'dynamic' }, 'buyer_type'],
  ['an rtb buyer without rtb_url', { buyer_type: 'rtb' }, 'rtb_url'],
  ['an rtb_url that is not a URL', { rtb_url: 'bids.example.com' }, 'rtb_url'],
  ['an rtb_url on a private address', { buyer_type: 'rtb', rtb_url: 'http://10.1.2.3/bid' }, 'rtb_url'],
  ['an rtb_url on the metadata address', { buyer_type: 'rtb', rtb_url: 'http://169.254.169.254/latest' }, 'rtb_url'],
  ['an rtb_method other than POST or GET', { rtb_method: 'PUT' }, 'rtb_method'],
  ['rtb_timeout_ms above 5000', { rtb_timeout_ms: 5001 }, 'rtb_timeout_ms'],
  ['rtb_timeout_ms that is not a whole number', { rtb_timeout_ms: '800.5' }, 'rtb_timeout_ms'],
  ['a negative rtb_min_bid', { rtb_min_bid: -1 }, 'rtb_min_bid'],
  ['rtb_headers setting Host', { rtb_headers: { Host: 'x' } }, 'rtb_headers'],
  ['rtb_response_paths naming an unknown fact', { rtb_response_paths: { price: 'a.b' } }, 'rtb_response_paths.price'],
  ['rtb_response_paths with a path that is not a dot path', { rtb_response_paths: { bid: 'a..b' } }, 'rtb_response_paths.bid'],
  ['an unknown display_caller_id_type', { display_caller_id_type: 'display_nothing' }, 'display_caller_id_type'],
  ['display_service_number_id type without the id', { display_caller_id_type: 'display_service_number_id' }, 'display_service_number_id'],
  ['display_service_number_id type with a blank id', { display_caller_id_type: 'display_service_number_id', display_service_number_id: '' }, 'display_service_number_id'],
  ['a display_service_number_id that is not an id', { display_service_number_id: 'x' }, 'display_service_number_id'],
  ['an invalid time zone', { time_zone: 'Mars/Olympus' }, 'time_zone'],
  ['a blank time zone', { time_zone: '' }, 'time_zone'],
  ['a non-boolean paused', { paused: 'maybe' }, 'paused'],
  ['a non-boolean record_calls', { record_calls: 'sometimes' }, 'record_calls'],
  ['a non-boolean press_one_to_accept', { press_one_to_accept: 'y' }, 'press_one_to_accept'],
  ['a non-boolean generate_team', { generate_team: 2 }, 'generate_team'],
  ['a negative weight', { weight: -1 }, 'weight'],
  ['a tier that is not a number', { tier: 'top' }, 'tier'],
  ['a negative epc_timeframe', { epc_timeframe: -1 }, 'epc_timeframe'],
  ['an epc_assumed_amount that is not a number', { epc_assumed_amount: 'lots' }, 'epc_assumed_amount'],
  ['a negative epc_assumed_calls_count', { epc_assumed_calls_count: '-3' }, 'epc_assumed_calls_count'],
  ['buyer_suppression_ids that are not ids', { buyer_suppression_ids: ['a'] }, 'buyer_suppression_ids.0'],
  ['an invalid team e-mail', { team_users_emails: ['ann@example.com', 'not-an-email'] }, 'team_users_emails.1'],
  ['team_users_emails that are not a list', { team_users_emails: { ann: 'ann@example.com' } }, 'team_users_emails'],
  ['team_offer_ids that are not ids', { team_offer_ids: 'x' }, 'team_offer_ids.0'],
  ['team_offer_ids naming no offer', { team_offer_ids: [987654] }, 'team_offer_ids'],
  ['a filter without a colon', { record_token_filter_list: ['state'] }, 'record_token_filter_list'],
  ['a filter with an unsupported operator', { record_token_filter_list: 'age:>21' }, 'record_token_filter_list'],
  ['a filter list that is not a list', { record_token_filter_list: 12 }, 'record_token_filter_list'],
  ['a token value filter without a value', { current_conversion_token_values: ['zip:'] }, 'current_conversion_token_values'],
  ['a token value filter with an empty alternative', { current_conversion_token_values: 'state:CA||NY' }, 'current_conversion_token_values'],
  ['an additional token without a colon', { record_token_additional_list: 'source' }, 'record_token_additional_list'],
  ['an additional token with an operator', { record_token_additional_list: 'age:>=21' }, 'record_token_additional_list'],
  ['an additional token list repeating a key', { record_token_additional_list: 'a:1,A:2' }, 'record_token_additional_list'],
  ['an attribution token without a colon', { current_conversion_attribution_token_values: 'channel' }, 'current_conversion_attribution_token_values'],
  ['current_conversion_revenue in steps below 0.01', { current_conversion_revenue: 12.345 }, 'current_conversion_revenue'],
  ['current_conversion_revenue that is not a number', { current_conversion_revenue: 'free' }, 'current_conversion_revenue'],
  ['current_conversion_revenue below _min', { current_conversion_revenue_min: 5, current_conversion_revenue: 4.99 }, 'current_conversion_revenue'],
  ['current_conversion_revenue above _max', { current_conversion_revenue_max: 10, current_conversion_revenue: 10.01 }, 'current_conversion_revenue'],
  ['current_conversion_revenue_min above _max', { current_conversion_revenue_min: 11, current_conversion_revenue_max: 10 }, 'current_conversion_revenue_min'],
  ['a current_conversion_revenue_max that is not a number', { current_conversion_revenue_max: 'x' }, 'current_conversion_revenue_max'],
  ['a current_conversion_revenue_increment that is not a number', { current_conversion_revenue_increment: 'x' }, 'current_conversion_revenue_increment'],
  ['a negative current_conversion_duration', { current_conversion_duration: -1 }, 'current_conversion_duration'],
  ['a blank current_conversion_duration', { current_conversion_duration: '' }, 'current_conversion_duration'],
  ['a negative current_conversion_duplicate_timeframe', { current_conversion_duplicate_timeframe: -60 }, 'current_conversion_duplicate_timeframe'],
  ['a current_conversion_name that is not a string', { current_conversion_name: 5 }, 'current_conversion_name'],
  ['a name that is not a string', { name: ['x'] }, 'name'],
  ['a user_buyer_id that is not a string', { user_buyer_id: { id: 1 } }, 'user_buyer_id'],
  ['business_hours_schedule that is not a list', { business_hours_schedule: 'always' }, 'business_hours_schedule'],
  ['a business hours item without a schedule', { business_hours_schedule: [{ attempt_hourly_limit: 1 }] }, 'business_hours_schedule.0.schedule'],
  ['a malformed time range (single-digit hour)', { business_hours_schedule: [{ schedule: [{ day: 1, times: ['9:00..17:00'] }] }] }, 'business_hours_schedule.0.schedule.0.times.0'],
  ['a malformed time range (dash)', { business_hours_schedule: [{ schedule: [{ day: 1, times: ['09:00-17:00'] }] }] }, 'business_hours_schedule.0.schedule.0.times.0'],
  ['a time range past 24:00', { business_hours_schedule: [{ schedule: [{ day: 1, times: ['23:00..25:00'] }] }] }, 'business_hours_schedule.0.schedule.0.times.0'],
  ['a time range starting at 24:00', { business_hours_schedule: [{ schedule: [{ day: 1, times: ['24:00..02:00'] }] }] }, 'business_hours_schedule.0.schedule.0.times.0'],
  ['a time range with the same start and end', { business_hours_schedule: [{ schedule: [{ day: 1, times: ['09:00..09:00'] }] }] }, 'business_hours_schedule.0.schedule.0.times.0'],
  ['a day above 6', { business_hours_schedule: [{ schedule: [{ day: 7, times: ['09:00..17:00'] }] }] }, 'business_hours_schedule.0.schedule.0.day'],
  ['a negative day', { business_hours_schedule: [{ schedule: [{ day: -1, times: ['09:00..17:00'] }] }] }, 'business_hours_schedule.0.schedule.0.day'],
  ['a day name', { business_hours_schedule: [{ schedule: [{ day: 'Monday', times: ['09:00..17:00'] }] }] }, 'business_hours_schedule.0.schedule.0.day'],
  ['a fractional day', { business_hours_schedule: [{ schedule: [{ day: 1.5, times: ['09:00..17:00'] }] }] }, 'business_hours_schedule.0.schedule.0.day'],
  ['times that are not a list', { business_hours_schedule: [{ schedule: [{ day: 1, times: '09:00..17:00' }] }] }, 'business_hours_schedule.0.schedule.0.times'],
  ['a negative hourly limit', { business_hours_schedule: [{ revenue_hourly_limit: -5, schedule: ALL_DAY }] }, 'business_hours_schedule.0.revenue_hourly_limit'],
  ['an hourly limit that is not a number', { business_hours_schedule: [{ attempt_hourly_limit: 'many', schedule: ALL_DAY }] }, 'business_hours_schedule.0.attempt_hourly_limit'],
  ['buyer_conversions_schedule that is not a list', { buyer_conversions_schedule: { a: 1 } }, 'buyer_conversions_schedule'],
  [
    'a conversion without a name',
    { buyer_conversions_schedule: [{ buyer_conversions_attributes: [{ duration: 60, revenue: 10, duplicate_timeframe: 0 }], schedule: ALL_DAY }] },
    'buyer_conversions_schedule.0.buyer_conversions_attributes.0.name',
  ],
  [
    'a conversion with a blank name',
    { buyer_conversions_schedule: [{ buyer_conversions_attributes: [{ name: ' ', duration: 60, revenue: 10, duplicate_timeframe: 0 }], schedule: ALL_DAY }] },
    'buyer_conversions_schedule.0.buyer_conversions_attributes.0.name',
  ],
  [
    'a conversion with a negative duration',
    { buyer_conversions_schedule: [{ buyer_conversions_attributes: [{ name: 'Sale', duration: -1, revenue: 10, duplicate_timeframe: 0 }], schedule: ALL_DAY }] },
    'buyer_conversions_schedule.0.buyer_conversions_attributes.0.duration',
  ],
  [
    'a conversion with a revenue that is not a number',
    { buyer_conversions_schedule: [{ buyer_conversions_attributes: [{ name: 'Sale', duration: 1, revenue: 'ten', duplicate_timeframe: 0 }], schedule: ALL_DAY }] },
    'buyer_conversions_schedule.0.buyer_conversions_attributes.0.revenue',
  ],
  [
    'a conversion with a negative duplicate_timeframe',
    { buyer_conversions_schedule: [{ buyer_conversions_attributes: [{ name: 'Sale', duration: 1, revenue: 1, duplicate_timeframe: -1 }], schedule: ALL_DAY }] },
    'buyer_conversions_schedule.0.buyer_conversions_attributes.0.duplicate_timeframe',
  ],
  [
    'a conversions item without attributes',
    { buyer_conversions_schedule: [{ schedule: ALL_DAY }] },
    'buyer_conversions_schedule.0.buyer_conversions_attributes',
  ],
  [
    'a conversions schedule with a malformed range',
    { buyer_conversions_schedule: [{ buyer_conversions_attributes: [], schedule: [{ day: 2, times: ['noon..night'] }] }] },
    'buyer_conversions_schedule.0.schedule.0.times.0',
  ],
  [
    'a conversions schedule with a day outside 0..6',
    { buyer_conversions_schedule: [{ buyer_conversions_attributes: [], schedule: [{ day: 8, times: ['09:00..10:00'] }] }] },
    'buyer_conversions_schedule.0.schedule.0.day',
  ],
  [
    'a conversions schedule with the same start and end',
    { buyer_conversions_schedule: [{ buyer_conversions_attributes: [], schedule: [{ day: 2, times: ['00:00..00:00'] }] }] },
    'buyer_conversions_schedule.0.schedule.0.times.0',
  ],
  ...CAP_FIELDS.flatMap((field): Array<[string, Record<string, unknown>, string]> => [
    [`a negative ${field}`, { [field]: -1 }, field],
    [`a ${field} that is not a number`, { [field]: 'unlimited' }, field],
  ]),
];

describe('rules: each failing input is a 422 naming the field', () => {
  it.each(REJECTED)('rejects %s on create', async (_what, body, field) => {
    const reply = await api(company, 'POST', BUYERS, { name: 'Rejected', ...body });
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual([field]);
    expect(reply.body.errors[field].length).toBeGreaterThan(0);
  });

  it.each(REJECTED)('rejects %s on update and keeps the buyer', async (_what, body, field) => {
    const buyer = await createBuyer(company, { name: 'Before' });
    const reply = await api(company, 'PUT', `${BUYERS}/${buyer.id}`, { name: 'After', ...body });
    expect(reply.status, reply.text).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual([field]);
    expect((await showBuyer(company, buyer.id)).name).toBe('Before');
  });

  it('writes nothing when create fails', async () => {
    await api(company, 'POST', BUYERS, { name: 'Nope', timeout_seconds: 1 });
    const list = await api(company, 'GET', BUYERS);
    expect(list.body.metadata.total_count).toBe(0);
    expect(list.body.buyers).toEqual([]);
  });

  it('reports every failing field at once', async () => {
    const reply = await api(company, 'POST', BUYERS, { number: 'x', timeout_seconds: 5, dtmf_tones: 'abc', route_by_type: 'best' });
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors).sort()).toEqual(['dtmf_tones', 'number', 'route_by_type', 'timeout_seconds']);
  });

  it('checks display_service_number_id against the buyer as it will be after an update', async () => {
    const buyer = await createBuyer(company, { display_caller_id_type: 'display_service_number_id', display_service_number_id: 4 });
    const blanked = await api(company, 'PUT', `${BUYERS}/${buyer.id}`, { display_service_number_id: '' });
    expect(blanked.status).toBe(422);
    expect(Object.keys(blanked.body.errors)).toEqual(['display_service_number_id']);
    const plain = await createBuyer(company, {});
    const typeOnly = await api(company, 'PUT', `${BUYERS}/${plain.id}`, { display_caller_id_type: 'display_service_number_id' });
    expect(typeOnly.status).toBe(422);
    expect(Object.keys(typeOnly.body.errors)).toEqual(['display_service_number_id']);
    // Switching to another type makes the id optional again.
    const switched = await updateBuyer(company, buyer.id, { display_caller_id_type: 'display_caller_id', display_service_number_id: '' });
    expect(switched).toMatchObject({ display_caller_id_type: 'display_caller_id', display_service_number_id: null });
  });

  it('checks current_conversion_revenue against the bounds already stored', async () => {
    const buyer = await createBuyer(company, { current_conversion_revenue_min: 2, current_conversion_revenue_max: 8, current_conversion_revenue: 5 });
    const above = await api(company, 'PUT', `${BUYERS}/${buyer.id}`, { current_conversion_revenue: 8.01 });
    expect(above.status).toBe(422);
    expect(Object.keys(above.body.errors)).toEqual(['current_conversion_revenue']);
    const below = await api(company, 'PUT', `${BUYERS}/${buyer.id}`, { current_conversion_revenue: 1.99 });
    expect(below.status).toBe(422);
    expect(Object.keys(below.body.errors)).toEqual(['current_conversion_revenue']);
    const narrowed = await api(company, 'PUT', `${BUYERS}/${buyer.id}`, { current_conversion_revenue_max: 4 });
    expect(narrowed.status).toBe(422);
    expect(Object.keys(narrowed.body.errors)).toEqual(['current_conversion_revenue']);
    expect((await updateBuyer(company, buyer.id, { current_conversion_revenue: 8 })).current_conversion_revenue).toBe(8);
    expect((await updateBuyer(company, buyer.id, { current_conversion_revenue: 2 })).current_conversion_revenue).toBe(2);
  });

  it('rejects a team offer of another company on create and update', async () => {
    // Ids are per company: the other company's third offer has an id this company does not use.
    await createOffer(other, 'Theirs 1');
    await createOffer(other, 'Theirs 2');
    const theirs = await createOffer(other, 'Theirs 3');
    const mine = await createOffer(company, 'Mine');
    expect(theirs).not.toBe(mine);
    const created = await api(company, 'POST', BUYERS, { team_offer_ids: [mine, theirs] });
    expect(created.status).toBe(422);
    expect(created.body.errors).toEqual({ team_offer_ids: [`does not exist: ${theirs}`] });
    const buyer = await createBuyer(company, { team_offer_ids: [mine] });
    expect(buyer.team_offer_ids).toEqual([mine]);
    const updated = await api(company, 'PUT', `${BUYERS}/${buyer.id}`, { team_offer_ids: [theirs] });
    expect(updated.status).toBe(422);
    expect(Object.keys(updated.body.errors)).toEqual(['team_offer_ids']);
    expect((await showBuyer(company, buyer.id)).team_offer_ids).toEqual([mine]);
    expect((await updateBuyer(company, buyer.id, { team_offer_ids: '' })).team_offer_ids).toBeNull();
  });
});

describe('rules: accepted edge values', () => {
  it.each([
    ['an E.164 number with spaces and dashes', { number: '+44 20 7946 0000' }, 'number', '+442079460000'],
    ['a sip: URI', { number: 'sip:buyer@pbx.example.com' }, 'number', 'sip:buyer@pbx.example.com'],
    ['a sip: URI without a host part', { number: 'sip:1234' }, 'number', 'sip:1234'],
    ['timeout_seconds of exactly 12', { timeout_seconds: '12' }, 'timeout_seconds', 12],
    ['a blank timeout_seconds (the default ring time)', { timeout_seconds: '' }, 'timeout_seconds', 120],
    ['a null timeout_seconds', { timeout_seconds: null }, 'timeout_seconds', 120],
    ['a fractional timeout_seconds', { timeout_seconds: 12.5 }, 'timeout_seconds', 12.5],
    ['every dtmf character', { dtmf_tones: '0123456789*#wW' }, 'dtmf_tones', '0123456789*#wW'],
    ['a blank dtmf_tones', { dtmf_tones: '' }, 'dtmf_tones', null],
    ['route_by_type tier', { route_by_type: 'tier' }, 'route_by_type', 'tier'],
    ['route_by_type revenue', { route_by_type: 'revenue' }, 'route_by_type', 'revenue'],
    ['route_by_type epc', { route_by_type: 'epc' }, 'route_by_type', 'epc'],
    ['display_caller_id', { display_caller_id_type: 'display_caller_id' }, 'display_caller_id_type', 'display_caller_id'],
    ['display_fake_caller_id', { display_caller_id_type: 'display_fake_caller_id' }, 'display_caller_id_type', 'display_fake_caller_id'],
    [
      'display_service_number_id with an id',
      { display_caller_id_type: 'display_service_number_id', display_service_number_id: 9 },
      'display_caller_id_type',
      'display_service_number_id',
    ],
    ['an IANA time zone', { time_zone: 'Asia/Kolkata' }, 'time_zone', 'Asia/Kolkata'],
    ['a Rails time zone name', { time_zone: 'Pacific Time (US & Canada)' }, 'time_zone', 'America/Los_Angeles'],
    ['current_conversion_duration 0', { current_conversion_duration: 0 }, 'current_conversion_duration', 0],
    ['current_conversion_revenue in whole cents', { current_conversion_revenue: '0.07' }, 'current_conversion_revenue', 0.07],
    ['current_conversion_revenue equal to _min and _max', { current_conversion_revenue_min: 3, current_conversion_revenue_max: 3, current_conversion_revenue: 3 }, 'current_conversion_revenue', 3],
    ['a negative tier', { tier: -10 }, 'tier', -10],
    ['a weight of 0', { weight: 0 }, 'weight', 0],
    ['filters with every operator', { record_token_filter_list: 'a:1, b:>=2, c:<=3, d:!=4, t:>=10:30' }, 'record_token_filter_list', ['a:1', 'b:>=2', 'c:<=3', 'd:!=4', 't:>=10:30']],
    ['a filter list as a JSON array string', { record_token_filter_list: '["state:CA, NY"]' }, 'record_token_filter_list', ['state:CA, NY']],
    ['a blank filter list', { record_token_filter_list: '' }, 'record_token_filter_list', null],
    ['an additional token list with newlines', { record_token_additional_list: 'a:1\nb: two' }, 'record_token_additional_list', 'a:1,b:two'],
    ['team e-mails as a comma-separated string', { team_users_emails: 'a@example.com, b@example.com' }, 'team_users_emails', ['a@example.com', 'b@example.com']],
    [
      'a range ending before its start (spans midnight)',
      { business_hours_schedule: [{ attempt_hourly_limit: 1, schedule: [{ day: 6, times: ['22:00..02:00'] }] }] },
      'business_hours_schedule',
      [{ attempt_hourly_limit: 1, schedule: [{ day: 6, times: ['22:00..02:00'] }] }],
    ],
    [
      'a range ending at 24:00 and day 0 (Sunday)',
      { business_hours_schedule: [{ schedule: [{ day: 0, times: ['18:00..24:00'] }] }] },
      'business_hours_schedule',
      [{ schedule: [{ day: 0, times: ['18:00..24:00'] }] }],
    ],
    ['an empty business hours schedule', { business_hours_schedule: [] }, 'business_hours_schedule', []],
    ['a blank business hours schedule', { business_hours_schedule: '' }, 'business_hours_schedule', null],
    [
      'a conversions schedule spanning midnight on day 6',
      { buyer_conversions_schedule: [{ buyer_conversions_attributes: [{ name: 'Sale', duration: 0, revenue: -1, duplicate_timeframe: 0 }], schedule: [{ day: 6, times: ['23:30..00:30'] }] }] },
      'buyer_conversions_schedule',
      [{ buyer_conversions_attributes: [{ name: 'Sale', duration: 0, revenue: -1, duplicate_timeframe: 0 }], schedule: [{ day: 6, times: ['23:30..00:30'] }] }],
    ],
  ])('accepts %s', async (_what, body, field, stored) => {
    const created = await createBuyer(company, body);
    expect(created[field]).toEqual(stored);
    expect((await showBuyer(company, created.id))[field]).toEqual(stored);
  });

  it.each(CAP_FIELDS.map((field) => [field]))('takes %s as a non-negative decimal, 0, or blank for no cap', async (field) => {
    const buyer = await createBuyer(company, { [field]: '2.5' });
    expect(buyer[field]).toBe(2.5);
    expect((await updateBuyer(company, buyer.id, { [field]: 0 }))[field]).toBe(0);
    expect((await updateBuyer(company, buyer.id, { [field]: '' }))[field]).toBeNull();
    expect((await updateBuyer(company, buyer.id, { [field]: 7 }))[field]).toBe(7);
    expect((await updateBuyer(company, buyer.id, { [field]: null }))[field]).toBeNull();
  });

  it('accepts every boolean word for the flags', async () => {
    for (const [word, value] of [['1', true], ['true', true], ['yes', true], ['on', true], ['0', false], ['false', false], ['no', false], ['off', false]] as const) {
      const buyer = await createBuyer(company, { paused: word, record_calls: word, generate_team: word, press_one_to_accept: word });
      expect(buyer, word).toMatchObject({ paused: value, record_calls: value, generate_team: value, press_one_to_accept: value });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Team invitations and copy_another_buyer
// ---------------------------------------------------------------------------------------------

describe('team_users_emails', () => {
  it('sends each invitee an invitation on create', async () => {
    const buyer = await createBuyer(company, { name: 'Team buyer', team_users_emails: ['Ann@Example.com', 'bob@example.org'] });
    expect((await invitations(company)).sort()).toEqual(['ann@example.com', 'bob@example.org']);
    const sent = (emailPort() as EmailOutbox).sent.find((message) => message.companyId === company.id && message.to === 'ann@example.com')!;
    expect(sent.subject).toContain('Team buyer');
    expect(sent.text).toContain(`id ${buyer.id}`);
  });

  it('invites only newly added addresses on update', async () => {
    const buyer = await createBuyer(company, { team_users_emails: ['ann@example.com', 'bob@example.org'] });
    expect(await invitations(company)).toHaveLength(2);
    await updateBuyer(company, buyer.id, { team_users_emails: ['bob@example.org', 'ANN@example.com', 'carol@example.net'] });
    expect((await invitations(company)).sort()).toEqual(['ann@example.com', 'bob@example.org', 'carol@example.net']);
    // Same list again, other fields, and removals send nothing.
    await updateBuyer(company, buyer.id, { team_users_emails: 'carol@example.net, bob@example.org, ann@example.com' });
    await updateBuyer(company, buyer.id, { name: 'Renamed' });
    await updateBuyer(company, buyer.id, { team_users_emails: ['carol@example.net'] });
    expect(await invitations(company)).toHaveLength(3);
    // An address removed and added again is invited again.
    await updateBuyer(company, buyer.id, { team_users_emails: ['carol@example.net', 'ann@example.com'] });
    expect((await invitations(company)).filter((to) => to === 'ann@example.com')).toHaveLength(2);
  });

  it('keeps each address once and invites it once', async () => {
    const buyer = await createBuyer(company, { team_users_emails: ['ann@example.com', 'ANN@example.com', 'bob@example.org', ' ann@example.com'] });
    expect(buyer.team_users_emails).toEqual(['ann@example.com', 'bob@example.org']);
    expect((await invitations(company)).sort()).toEqual(['ann@example.com', 'bob@example.org']);
    const updated = await updateBuyer(company, buyer.id, { team_users_emails: 'carol@example.net, Carol@example.net, ann@example.com' });
    expect(updated.team_users_emails).toEqual(['carol@example.net', 'ann@example.com']);
    expect((await invitations(company)).sort()).toEqual(['ann@example.com', 'bob@example.org', 'carol@example.net']);
  });

  it('sends nothing when the write is rejected', async () => {
    await api(company, 'POST', BUYERS, { team_users_emails: ['ann@example.com'], timeout_seconds: 3 });
    await api(company, 'POST', BUYERS, { team_users_emails: ['ann@example.com', 'broken'] });
    expect(await invitations(company)).toEqual([]);
  });
});

describe('copy_another_buyer', () => {
  it('copies every writable setting of the other buyer but user_buyer_id, naming the copy', async () => {
    const offerId = await createOffer(company);
    const source = await createBuyer(company, fullCreateInput(offerId));
    const copy = await createBuyer(company, { copy_another_buyer: true, copy_buyer_id: source.id });
    expect(copy.id).not.toBe(source.id);
    expectWritable(copy, { ...fullCreateExpected(offerId), user_buyer_id: null, name: 'Acme Insurance (copy)' });
    expectWritable(await showBuyer(company, copy.id), { ...fullCreateExpected(offerId), user_buyer_id: null, name: 'Acme Insurance (copy)' });
    // The source is untouched and still owns its external id.
    expect((await api(company, 'GET', `${BUYERS}/crm-001/by_user_buyer_id`)).body.buyer.id).toBe(source.id);
  });

  it('lets the fields sent override the copied ones, the name included', async () => {
    const source = await createBuyer(company, { name: 'Source', tier: 3, weight: 2, number: '+14155552671' });
    const copy = await createBuyer(company, { copy_another_buyer: 'yes', copy_buyer_id: String(source.id), name: 'Own name', tier: 9, user_buyer_id: 'copy-1' });
    expect(copy).toMatchObject({ name: 'Own name', tier: 9, weight: 2, number: '+14155552671', user_buyer_id: 'copy-1' });
  });

  it('does not copy without copy_another_buyer', async () => {
    const source = await createBuyer(company, { name: 'Source', tier: 3 });
    const plain = await createBuyer(company, { copy_another_buyer: false, copy_buyer_id: source.id });
    expect(plain).toMatchObject({ name: null, tier: null });
    const unset = await createBuyer(company, { copy_buyer_id: source.id });
    expect(unset).toMatchObject({ name: null, tier: null });
  });

  it('starts the copy with its own counters', async () => {
    const source = await createBuyer(company, { name: 'Source' });
    await applyCounterChange(company.id, source.id, 'UTC', clock().now(), { increments: { attempt: 4 } });
    const copy = await createBuyer(company, { copy_another_buyer: true, copy_buyer_id: source.id });
    expect(copy.attempt_total_used).toBe(0);
    expect((await showBuyer(company, source.id)).attempt_total_used).toBe(4);
  });

  it.each([
    ['without copy_buyer_id', (_id: number) => ({ copy_another_buyer: true })],
    ['with an unknown copy_buyer_id', (id: number) => ({ copy_another_buyer: true, copy_buyer_id: id + 100 })],
    ['with a copy_buyer_id that is not an id', (_id: number) => ({ copy_another_buyer: true, copy_buyer_id: 'first' })],
  ])('rejects a copy %s', async (_what, body) => {
    const source = await createBuyer(company, { name: 'Source' });
    const reply = await api(company, 'POST', BUYERS, body(source.id));
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['copy_buyer_id']);
  });

  it('rejects a non-boolean copy_another_buyer', async () => {
    const reply = await api(company, 'POST', BUYERS, { copy_another_buyer: 'please', copy_buyer_id: 1 });
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['copy_another_buyer']);
  });

  it('cannot copy another company\'s buyer', async () => {
    const theirs = await createBuyer(other, { name: 'Theirs', tier: 5 });
    const reply = await api(company, 'POST', BUYERS, { copy_another_buyer: true, copy_buyer_id: theirs.id });
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['copy_buyer_id']);
  });

  it('is not an update field', async () => {
    const source = await createBuyer(company, { name: 'Source', tier: 5 });
    const target = await createBuyer(company, { name: 'Target' });
    await updateBuyer(company, target.id, { copy_another_buyer: true, copy_buyer_id: source.id });
    expect(await showBuyer(company, target.id)).toMatchObject({ name: 'Target', tier: null });
  });
});

// ---------------------------------------------------------------------------------------------
// Live counters
// ---------------------------------------------------------------------------------------------

describe('live counters', () => {
  it('shows attempts and concurrent calls reserved by routing, and the cap they reach', async () => {
    const zone = quietZone();
    const buyer = await createBuyer(company, { time_zone: zone, attempt_daily_limit: 3 });
    const limits = { caps: { attempt: { daily: 3 } } };
    for (let i = 0; i < 2; i++) expect((await reserveAttempt(company.id, buyer.id, zone, clock().now(), limits)).ok).toBe(true);

    const partway = await showBuyer(company, buyer.id);
    expect(partway).toMatchObject({
      attempt_hourly_used: 2,
      attempt_daily_used: 2,
      attempt_monthly_used: 2,
      attempt_total_used: 2,
      attempt_daily_limit: 3,
      concurrency_cap_used: 2,
      connection_daily_used: 0,
      maxed_out_by: null,
    });
    expect(partway.last_call_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);

    expect((await reserveAttempt(company.id, buyer.id, zone, clock().now(), limits)).ok).toBe(true);
    const full = await showBuyer(company, buyer.id);
    expect(full).toMatchObject({ attempt_daily_used: 3, concurrency_cap_used: 3, maxed_out_by: 'attempt_daily_limit' });
    expect(await reserveAttempt(company.id, buyer.id, zone, clock().now(), limits)).toEqual({ ok: false, reason: 'attempt_daily_limit' });

    // The list shows the same columns, and selects them.
    const [row] = await listBuyers(company, '?columns=id,attempt_daily_used,attempt_daily_limit,concurrency_cap_used,maxed_out_by');
    expect(row).toEqual({ id: buyer.id, attempt_daily_used: 3, attempt_daily_limit: 3, concurrency_cap_used: 3, maxed_out_by: 'attempt_daily_limit' });

    // Raising the cap lifts the buyer out of it.
    expect((await updateBuyer(company, buyer.id, { attempt_daily_limit: 10 })).maxed_out_by).toBeNull();
  });

  it('names the concurrency cap when simultaneous calls reach it', async () => {
    const zone = quietZone();
    const buyer = await createBuyer(company, { time_zone: zone, concurrency_cap_limit: 1 });
    expect((await reserveAttempt(company.id, buyer.id, zone, clock().now(), { caps: {}, concurrency: 1 })).ok).toBe(true);
    expect(await showBuyer(company, buyer.id)).toMatchObject({ concurrency_cap_used: 1, concurrency_cap_limit: 1, maxed_out_by: 'concurrency_cap_limit' });
  });

  it('takes hourly limits from the business hours item in force', async () => {
    const zone = quietZone();
    const allWeek = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, times: ['00:00..24:00'] }));
    const buyer = await createBuyer(company, {
      time_zone: zone,
      business_hours_schedule: [{ attempt_hourly_limit: 1, connection_hourly_limit: 4, revenue_hourly_limit: 50.5, schedule: allWeek }],
    });
    expect(await showBuyer(company, buyer.id)).toMatchObject({
      attempt_hourly_limit: 1,
      connection_hourly_limit: 4,
      revenue_hourly_limit: 50.5,
      buyer_conversion_hourly_limit: null,
      maxed_out_by: null,
    });
    await reserveAttempt(company.id, buyer.id, zone, clock().now(), { caps: { attempt: { hourly: 1 } } });
    expect(await showBuyer(company, buyer.id)).toMatchObject({ attempt_hourly_used: 1, maxed_out_by: 'attempt_hourly_limit' });
    // No item in force: no hourly cap.
    const closed = await updateBuyer(company, buyer.id, { business_hours_schedule: [{ attempt_hourly_limit: 1, schedule: [] }] });
    expect(closed).toMatchObject({ attempt_hourly_limit: null, maxed_out_by: null });
  });

  it('shows every metric and period, and earned_revenue without caps', async () => {
    const zone = quietZone();
    const buyer = await createBuyer(company, {
      time_zone: zone,
      connection_total_limit: 100,
      buyer_conversion_monthly_limit: 50,
      revenue_daily_limit: 20,
    });
    await applyCounterChange(company.id, buyer.id, zone, clock().now(), {
      increments: { attempt: 5, connection: 4, buyer_conversion: 3, revenue: 20, earned_revenue: 7.5 },
    });
    const shown = await showBuyer(company, buyer.id);
    const amounts: Record<Metric, number> = { attempt: 5, connection: 4, buyer_conversion: 3, revenue: 20, earned_revenue: 7.5 };
    for (const metric of METRICS) {
      for (const period of PERIODS) expect(shown[`${metric}_${period}_used`], `${metric}_${period}_used`).toBe(amounts[metric]);
    }
    for (const period of PERIODS) expect(shown[`earned_revenue_${period}_limit`], period).toBeNull();
    expect(shown).toMatchObject({ connection_total_limit: 100, buyer_conversion_monthly_limit: 50, revenue_daily_limit: 20 });
    // revenue_daily_used 20 has reached revenue_daily_limit 20.
    expect(shown.maxed_out_by).toBe('revenue_daily_limit');
  });

  it('orders by attempt_daily_used in both directions', async () => {
    const zone = quietZone();
    const idle = await createBuyer(company, { name: 'Idle', time_zone: zone });
    const busy = await createBuyer(company, { name: 'Busy', time_zone: zone });
    const some = await createBuyer(company, { name: 'Some', time_zone: zone });
    await applyCounterChange(company.id, busy.id, zone, clock().now(), { increments: { attempt: 2 } });
    await reserveAttempt(company.id, some.id, zone, clock().now(), undefined);
    const asc = await listBuyers(company, '?order=attempt_daily_used&order_dir=asc');
    expect(asc.map((row) => [row.id, row.attempt_daily_used])).toEqual([
      [idle.id, 0],
      [some.id, 1],
      [busy.id, 2],
    ]);
    const desc = await listBuyers(company, '?order=attempt_daily_used&order_dir=desc');
    expect(desc.map((row) => row.id)).toEqual([busy.id, some.id, idle.id]);
    // Paging applies after the sort.
    const second = await listBuyers(company, '?order=attempt_daily_used&order_dir=desc&per_page=1&page=2');
    expect(second.map((row) => row.id)).toEqual([some.id]);
  });

  it('reset_total_caps=true zeroes the total counters only', async () => {
    const zone = quietZone();
    const buyer = await createBuyer(company, { name: 'Capped', time_zone: zone });
    await applyCounterChange(company.id, buyer.id, zone, clock().now(), { increments: { attempt: 3, connection: 2, buyer_conversion: 1, revenue: 12.5, earned_revenue: 4 } });
    await reserveAttempt(company.id, buyer.id, zone, clock().now(), undefined);

    // false (or absent) changes nothing.
    const untouched = await updateBuyer(company, buyer.id, { reset_total_caps: 'false', name: 'Still capped' });
    expect(untouched).toMatchObject({ name: 'Still capped', attempt_total_used: 4, revenue_total_used: 12.5 });

    const reset = await updateBuyer(company, buyer.id, { reset_total_caps: 'true' });
    expect(reset).not.toHaveProperty('reset_total_caps');
    for (const metric of METRICS) expect(reset[`${metric}_total_used`], metric).toBe(0);
    expect(reset).toMatchObject({
      attempt_daily_used: 4,
      attempt_monthly_used: 4,
      attempt_hourly_used: 4,
      connection_daily_used: 2,
      buyer_conversion_daily_used: 1,
      revenue_daily_used: 12.5,
      earned_revenue_daily_used: 4,
      concurrency_cap_used: 1,
    });
    const shown = await showBuyer(company, buyer.id);
    expect(shown).toMatchObject({ attempt_total_used: 0, revenue_total_used: 0, attempt_daily_used: 4, revenue_daily_used: 12.5 });
    // Counting carries on from zero.
    await reserveAttempt(company.id, buyer.id, zone, clock().now(), undefined);
    expect(await showBuyer(company, buyer.id)).toMatchObject({ attempt_total_used: 1, attempt_daily_used: 5 });
  });

  it('reset_total_caps on a buyer without counters leaves it at zero', async () => {
    const buyer = await createBuyer(company, { name: 'Fresh' });
    const reset = await updateBuyer(company, buyer.id, { reset_total_caps: 1 });
    expect(reset).toMatchObject({ attempt_total_used: 0, attempt_daily_used: 0, concurrency_cap_used: 0 });
  });

  it('rejects a non-boolean reset_total_caps and does not take it on create', async () => {
    const buyer = await createBuyer(company, { name: 'X' });
    const reply = await api(company, 'PUT', `${BUYERS}/${buyer.id}`, { reset_total_caps: 'please' });
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['reset_total_caps']);
  });

  it('deleting a buyer removes its counters', async () => {
    const buyer = await createBuyer(company, { name: 'Counted' });
    const kept = await createBuyer(company, { name: 'Kept' });
    await applyCounterChange(company.id, buyer.id, 'UTC', clock().now(), { increments: { attempt: 2 } });
    await applyCounterChange(company.id, kept.id, 'UTC', clock().now(), { increments: { attempt: 1 } });
    expect((await readCounterItems(company.id, [buyer.id, kept.id])).size).toBe(2);
    expect((await api(company, 'DELETE', `${BUYERS}/${buyer.id}`)).status).toBe(200);
    const left = await readCounterItems(company.id, [buyer.id, kept.id]);
    expect(left.has(buyer.id)).toBe(false);
    expect(left.has(kept.id)).toBe(true);
  });

  it('keeps counters of one company away from another', async () => {
    const mine = await createBuyer(company, { name: 'Mine' });
    const theirs = await createBuyer(other, { name: 'Theirs' });
    expect(theirs.id).toBe(mine.id);
    await applyCounterChange(company.id, mine.id, 'UTC', clock().now(), { increments: { attempt: 6 } });
    expect((await showBuyer(company, mine.id)).attempt_total_used).toBe(6);
    expect((await showBuyer(other, theirs.id)).attempt_total_used).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// The list: filters, ordering, columns, serializers, CSV
// ---------------------------------------------------------------------------------------------

describe('GET /api/v1/buyers filters', () => {
  it('filters by number given in any format, matching the normalised value', async () => {
    const first = await createBuyer(company, { name: 'First', number: '+14155552671' });
    await createBuyer(company, { name: 'Second', number: '+1 415 555 2672' });
    const sip = await createBuyer(company, { name: 'Sip', number: 'sip:buyer@pbx.example.com' });
    await createBuyer(company, { name: 'None' });
    await createBuyer(other, { name: 'Other company', number: '+14155552671' });

    for (const query of ['+1 415-555-2671', '+1 (415) 555-2671', '+14155552671']) {
      const rows = await listBuyers(company, `?number=${encodeURIComponent(query)}`);
      expect(rows.map((row) => row.id), query).toEqual([first.id]);
    }
    expect((await listBuyers(company, `?number=${encodeURIComponent('sip:buyer@pbx.example.com')}`)).map((row) => row.id)).toEqual([sip.id]);
    expect(await listBuyers(company, `?number=${encodeURIComponent('+14155552679')}`)).toEqual([]);
    const reply = await api(company, 'GET', `${BUYERS}?number=nonsense`);
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['number']);
  });

  it('filters by paused with every boolean word', async () => {
    const active = await createBuyer(company, { name: 'Active' });
    const paused = await createBuyer(company, { name: 'Paused', paused: true });
    const later = await createBuyer(company, { name: 'Paused later' });
    await updateBuyer(company, later.id, { paused: 'yes' });
    for (const word of ['1', 'true', 'yes', 'on']) expect((await listBuyers(company, `?paused=${word}`)).map((row) => row.id), word).toEqual([paused.id, later.id]);
    for (const word of ['0', 'false', 'no', 'off']) expect((await listBuyers(company, `?paused=${word}`)).map((row) => row.id), word).toEqual([active.id]);
    const reply = await api(company, 'GET', `${BUYERS}?paused=maybe`);
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['paused']);
  });

  it('combines filters with each other and with fulltext, and reports the total', async () => {
    await createBuyer(company, { name: 'Alpha', number: '+14155552671', paused: true });
    const match = await createBuyer(company, { name: 'Beta', number: '+14155552671', paused: false, user_buyer_id: 'crm-beta' });
    await createBuyer(company, { name: 'Gamma', number: '+14155552672', paused: false });
    const reply = await api(company, 'GET', `${BUYERS}?number=${encodeURIComponent('+1 415 555 2671')}&paused=false`);
    expect(reply.body.buyers.map((row: Row) => row.id)).toEqual([match.id]);
    expect(reply.body.metadata.total_count).toBe(1);
    expect((await listBuyers(company, '?fulltext=CRM-BE')).map((row) => row.id)).toEqual([match.id]);
    expect((await listBuyers(company, '?fulltext=2672')).map((row) => row.name)).toEqual(['Gamma']);
  });

  it('pages, takes ids and answers without root', async () => {
    const created = [];
    for (let i = 1; i <= 5; i++) created.push(await createBuyer(company, { name: `B${i}` }));
    const page = await api(company, 'GET', `${BUYERS}?per_page=2&page=2`);
    expect(page.body.buyers.map((row: Row) => row.name)).toEqual(['B3', 'B4']);
    expect(page.body.metadata).toMatchObject({ total_count: 5, page: 2, per_page: 2, total_pages: 3 });
    expect((await listBuyers(company, `?ids=${created[4]!.id},${created[0]!.id}`)).map((row) => row.name)).toEqual(['B1', 'B5']);
    const bare = await api(company, 'GET', `${BUYERS}?root=false&columns=name`);
    expect(bare.body).toEqual([1, 2, 3, 4, 5].map((i) => ({ name: `B${i}` })));
  });
});

/**
 * Compares two values of one column the way a client would expect the list to be sorted:
 * numbers numerically, booleans false before true, strings by code unit. Values chosen in these
 * tests avoid nulls and strings where locale collation and code-unit order would differ.
 */
function compareColumn(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  throw new Error(`cannot compare ${JSON.stringify(a)} with ${JSON.stringify(b)}`);
}

/** Order values that are not readable columns (counts kept elsewhere); they sort as equal. */
const NOT_COLUMNS = ['calls_count', 'recent_calls_count', 'outgoing_webhooks_count'];

describe('ordering', () => {
  it('allows exactly the reference\'s order values', () => {
    expect([...BUYER_ORDER_VALUES].sort()).toEqual([...REFERENCE_ORDER_VALUES].sort());
    for (const value of BUYER_ORDER_VALUES) {
      if (!NOT_COLUMNS.includes(value)) expect(allColumns(buyers), value).toContain(value);
    }
  });

  it('orders by every allowed value in both directions', async () => {
    // Four buyers whose values put them in a different order for each column.
    const specs = [
      { name: 'Delta', paused: true, number: '+14155552673', tier: 2, weight: 1, time_zone: 'Europe/London', user_buyer_id: 'u-c' },
      { name: 'Alpha', paused: false, number: '+14155552671', tier: -1, weight: 3, time_zone: 'America/Chicago', user_buyer_id: 'u-a' },
      { name: 'Charlie', paused: true, number: '+14155552674', tier: 5, weight: 0.5, time_zone: 'Asia/Tokyo', user_buyer_id: 'u-d' },
      { name: 'Bravo', paused: false, number: '+14155552672', tier: 0, weight: 2, time_zone: 'Australia/Sydney', user_buyer_id: 'u-b' },
    ];
    const created: Row[] = [];
    for (const spec of specs) created.push(await createBuyer(company, spec));
    const amounts: Record<Metric, number[]> = {
      attempt: [3, 1, 4, 2],
      connection: [2, 4, 1, 3],
      buyer_conversion: [1, 3, 2, 4],
      revenue: [40.5, 10.25, 30, 20],
      earned_revenue: [35, 25, 15, 5],
    };
    const calls = ['2026-01-03T10:00:00.000Z', '2026-01-01T10:00:00.000Z', '2026-01-04T10:00:00.000Z', '2026-01-02T10:00:00.000Z'];
    for (const [index, buyer] of created.entries()) {
      const increments = Object.fromEntries(METRICS.map((metric) => [metric, amounts[metric][index]!]));
      const result = await applyCounterChange(company.id, buyer.id, specs[index]!.time_zone, clock().now(), { increments, at: calls[index] });
      expect(result.ok).toBe(true);
    }
    const ids = created.map((buyer) => buyer.id as number);

    for (const order of BUYER_ORDER_VALUES) {
      for (const direction of ['asc', 'desc'] as const) {
        const label = `${order} ${direction}`;
        const reply = await api(company, 'GET', `${BUYERS}?order=${order}&order_dir=${direction}&per_page=50`);
        expect(reply.status, label).toBe(200);
        const rows = reply.body.buyers as Row[];
        expect(rows.map((row) => row.id).sort(), label).toEqual([...ids].sort());
        const sign = direction === 'asc' ? 1 : -1;
        if (NOT_COLUMNS.includes(order)) {
          // No call data: every buyer ties, and ties keep id order.
          expect(rows.map((row) => row.id), label).toEqual([...ids].sort((a, b) => sign * (a - b)));
          continue;
        }
        const expected = [...rows].sort((a, b) => sign * (compareColumn(a[order], b[order]) || a.id - b.id));
        expect(rows.map((row) => row.id), label).toEqual(expected.map((row) => row.id));
        // Adjacent rows never go against the direction.
        for (let i = 1; i < rows.length; i++) expect(sign * compareColumn(rows[i - 1]![order], rows[i]![order]), `${label} at ${i}`).toBeLessThanOrEqual(0);
      }
    }

    // Columns whose values cannot change with the clock, checked against the order they were given in.
    const byName = (names: string[]) => names.map((name) => created[specs.findIndex((spec) => spec.name === name)]!.id);
    const expectOrder = async (query: string, expected: number[]) =>
      expect((await listBuyers(company, query)).map((row) => row.id), query).toEqual(expected);
    await expectOrder('?order=name', byName(['Alpha', 'Bravo', 'Charlie', 'Delta']));
    await expectOrder('?order=name&order_dir=desc', byName(['Delta', 'Charlie', 'Bravo', 'Alpha']));
    await expectOrder('?order=tier', byName(['Alpha', 'Bravo', 'Delta', 'Charlie']));
    await expectOrder('?order=weight&order_dir=desc', byName(['Alpha', 'Bravo', 'Delta', 'Charlie']));
    await expectOrder('?order=number', byName(['Alpha', 'Bravo', 'Delta', 'Charlie']));
    await expectOrder('?order=user_buyer_id&order_dir=desc', byName(['Charlie', 'Delta', 'Bravo', 'Alpha']));
    await expectOrder('?order=time_zone', byName(['Alpha', 'Charlie', 'Bravo', 'Delta']));
    await expectOrder('?order=paused', byName(['Alpha', 'Bravo', 'Delta', 'Charlie']));
    await expectOrder('?order=paused&order_dir=desc', byName(['Charlie', 'Delta', 'Bravo', 'Alpha']));
    await expectOrder('?order=last_call_at', byName(['Alpha', 'Bravo', 'Delta', 'Charlie']));
    await expectOrder('?order=id&order_dir=desc', [...ids].reverse());
    await expectOrder('?order=attempt_total_used', byName(['Alpha', 'Bravo', 'Delta', 'Charlie']));
    await expectOrder('?order=connection_total_used', byName(['Charlie', 'Delta', 'Bravo', 'Alpha']));
    await expectOrder('?order=buyer_conversion_total_used&order_dir=desc', byName(['Bravo', 'Alpha', 'Charlie', 'Delta']));
    await expectOrder('?order=revenue_total_used', byName(['Alpha', 'Bravo', 'Charlie', 'Delta']));
    await expectOrder('?order=earned_revenue_total_used', byName(['Bravo', 'Charlie', 'Alpha', 'Delta']));
    // order_dir defaults to asc; order defaults to id.
    await expectOrder('?order=tier&order_dir=asc', byName(['Alpha', 'Bravo', 'Delta', 'Charlie']));
    await expectOrder('', ids);
    await expectOrder('?order_dir=desc', [...ids].reverse());
  });

  it('puts blank values last in both directions', async () => {
    const zone = quietZone();
    const low = await createBuyer(company, { name: 'Low', tier: 1, time_zone: zone });
    const blank = await createBuyer(company, { name: 'Blank', time_zone: zone });
    const high = await createBuyer(company, { name: 'High', tier: 3, time_zone: zone });
    expect((await listBuyers(company, '?order=tier&order_dir=asc')).map((row) => row.id)).toEqual([low.id, high.id, blank.id]);
    expect((await listBuyers(company, '?order=tier&order_dir=desc')).map((row) => row.id)).toEqual([high.id, low.id, blank.id]);
    // Most recently called first; a buyer never called comes after every called one.
    await applyCounterChange(company.id, low.id, zone, clock().now(), { increments: { attempt: 1 }, at: '2026-01-01T00:00:00.000Z' });
    await applyCounterChange(company.id, high.id, zone, clock().now(), { increments: { attempt: 1 }, at: '2026-02-01T00:00:00.000Z' });
    expect((await listBuyers(company, '?order=last_call_at&order_dir=desc')).map((row) => row.id)).toEqual([high.id, low.id, blank.id]);
    expect((await listBuyers(company, '?order=last_call_at&order_dir=asc')).map((row) => row.id)).toEqual([low.id, high.id, blank.id]);
  });

  it('rejects an unknown order or order_dir', async () => {
    for (const [query, field] of [
      ['order=email', 'order'],
      ['order=calls', 'order'],
      ['order=name&order_dir=up', 'order_dir'],
    ] as const) {
      const reply = await api(company, 'GET', `${BUYERS}?${query}`);
      expect(reply.status, query).toBe(422);
      expect(Object.keys(reply.body.errors), query).toEqual([field]);
    }
  });
});

describe('columns', () => {
  it('offers every readable column of the reference, and every writable field', () => {
    const columns = allColumns(buyers);
    for (const column of REFERENCE_COLUMNS) expect(columns, column).toContain(column);
    for (const field of BUYER_WRITABLE_FIELDS) expect(columns, field).toContain(field);
    expect(new Set(columns).size).toBe(columns.length);
  });

  it('returns exactly the column asked for, for every column', async () => {
    const offerId = await createOffer(company);
    const buyer = await createBuyer(company, fullCreateInput(offerId));
    const full = await showBuyer(company, buyer.id);
    for (const column of allColumns(buyers)) {
      const reply = await api(company, 'GET', `${BUYERS}?columns=${column}`);
      expect(reply.status, column).toBe(200);
      const rows = reply.body.buyers as Row[];
      expect(rows, column).toHaveLength(1);
      expect(Object.keys(rows[0]!), column).toEqual([column]);
      // Hourly limits come from the business hours item in force, which the clock may change.
      if (!column.endsWith('_hourly_limit')) expect(rows[0]![column], column).toEqual(full[column]);
    }
  });

  it('returns several columns in the order asked, as a list or an array parameter', async () => {
    await createBuyer(company, { name: 'Cols', number: '+14155552671' });
    expect(await listBuyers(company, '?columns=number,name,attempt_daily_used,buyer_group_ids')).toEqual([
      { number: '+14155552671', name: 'Cols', attempt_daily_used: 0, buyer_group_ids: [] },
    ]);
    expect(await listBuyers(company, '?columns[]=name&columns[]=id')).toEqual([{ name: 'Cols', id: 1 }]);
  });

  it('rejects an unknown column', async () => {
    const reply = await api(company, 'GET', `${BUYERS}?columns=name,secret`);
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['columns']);
    expect(reply.body.errors.columns[0]).toContain('secret');
  });
});

describe('serializers', () => {
  it('accepts buyer and buyer_grid on every endpoint', async () => {
    for (const serializer of ['buyer', 'buyer_grid', '']) {
      const q = `?serializer=${serializer}`;
      const created = await api(company, 'POST', `${BUYERS}${q}`, { name: `S-${serializer}`, user_buyer_id: `s-${serializer}` });
      expect(created.status, serializer).toBe(200);
      const id = created.body.buyer.id as number;
      expect(Object.keys(created.body.buyer), serializer).toEqual(allColumns(buyers));
      expect((await api(company, 'GET', `${BUYERS}/${id}${q}`)).body.buyer.name).toBe(`S-${serializer}`);
      expect((await api(company, 'GET', `${BUYERS}/s-${serializer}/by_user_buyer_id${q}`)).body.buyer.id).toBe(id);
      expect((await api(company, 'PUT', `${BUYERS}/${id}${q}`, { tier: 1 })).body.buyer.tier).toBe(1);
      const list = await api(company, 'GET', `${BUYERS}${q}`);
      expect(list.status).toBe(200);
      expect(Object.keys(list.body.buyers[0])).toEqual(allColumns(buyers));
      expect((await api(company, 'GET', `${BUYERS}/new${q}`)).status).toBe(200);
      expect((await api(company, 'DELETE', `${BUYERS}/${id}${q}`)).status).toBe(200);
    }
  });

  it('rejects another serializer on every endpoint, before writing', async () => {
    const buyer = await createBuyer(company, { name: 'Kept', user_buyer_id: 'kept' });
    const q = '?serializer=offer_conversion';
    const replies = [
      await api(company, 'GET', `${BUYERS}${q}`),
      await api(company, 'GET', `${BUYERS}/${buyer.id}${q}`),
      await api(company, 'GET', `${BUYERS}/kept/by_user_buyer_id${q}`),
      await api(company, 'GET', `${BUYERS}/new${q}`),
      await api(company, 'POST', `${BUYERS}${q}`, { name: 'Not stored' }),
      await api(company, 'PUT', `${BUYERS}/${buyer.id}${q}`, { name: 'Not renamed' }),
      await api(company, 'DELETE', `${BUYERS}/${buyer.id}${q}`),
    ];
    for (const [index, reply] of replies.entries()) {
      expect(reply.status, String(index)).toBe(422);
      expect(Object.keys(reply.body.errors), String(index)).toEqual(['serializer']);
    }
    const list = await api(company, 'GET', BUYERS);
    expect(list.body.metadata.total_count).toBe(1);
    expect(list.body.buyers[0].name).toBe('Kept');
  });
});

describe('CSV', () => {
  it('lists buyers as CSV with every column, nested values as JSON', async () => {
    const offerId = await createOffer(company);
    const first = await createBuyer(company, fullCreateInput(offerId));
    const second = await createBuyer(company, { name: 'Comma, "quoted"', paused: true });
    await applyCounterChange(company.id, second.id, 'UTC', clock().now(), { increments: { attempt: 2 } });
    const reply = await api(company, 'GET', `${BUYERS}.csv`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(reply.headers.get('content-disposition')).toContain('buyers.csv');
    const [header, ...rows] = parseCsv(reply.text) as string[][];
    expect(header).toEqual(allColumns(buyers));
    expect(rows).toHaveLength(2);
    const cell = (row: string[], column: string) => row[header!.indexOf(column)];
    expect(cell(rows[0]!, 'id')).toBe(String(first.id));
    expect(cell(rows[0]!, 'number')).toBe('+14155552671');
    expect(cell(rows[0]!, 'time_zone')).toBe('America/New_York');
    expect(JSON.parse(cell(rows[0]!, 'team_users_emails')!)).toEqual(['ann@example.com', 'bob@example.org']);
    expect(JSON.parse(cell(rows[0]!, 'business_hours_schedule')!)).toEqual(fullCreateExpected(offerId).business_hours_schedule);
    expect(cell(rows[1]!, 'name')).toBe('Comma, "quoted"');
    expect(cell(rows[1]!, 'paused')).toBe('true');
    expect(cell(rows[1]!, 'number')).toBe('');
    expect(cell(rows[1]!, 'attempt_total_used')).toBe('2');
  });

  it('takes columns, filters, order and format=csv', async () => {
    await createBuyer(company, { name: 'A', number: '+14155552671', tier: 2 });
    await createBuyer(company, { name: 'B', number: '+14155552672', tier: 1, paused: true });
    await createBuyer(company, { name: 'C', number: '+14155552673', tier: 0 });
    const sorted = await api(company, 'GET', `${BUYERS}.csv?columns=name,tier&order=tier&order_dir=asc&paused=false`);
    expect(parseCsv(sorted.text)).toEqual([
      ['name', 'tier'],
      ['C', '0'],
      ['A', '2'],
    ]);
    const format = await api(company, 'GET', `${BUYERS}?format=csv&columns=name&number=${encodeURIComponent('+1 415 555 2672')}`);
    expect(format.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(parseCsv(format.text)).toEqual([['name'], ['B']]);
    const bad = await api(company, 'GET', `${BUYERS}?format=xml`);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['format']);
  });
});
