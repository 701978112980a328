import { randomUUID } from 'node:crypto';
import { parse as parseCsv } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { isJsonTwin } from '../../shared/http/format-suffix.js';
import { routeKey, routes, type RouteDefinition } from '../../shared/http/routes.js';
import { clock } from '../../shared/adapters/clock.js';
import { webhookAttempt } from '../fixtures/events.js';
import { recordWebhookAttempt, type WebhookAttempt } from '../../shared/events/webhook-logs.js';
import { simulateCall, type SimulationResult } from '../../shared/local/call-simulator.js';
import { simulateText } from '../../shared/local/text-simulator.js';
import { resources } from '../../shared/resources/registry.js';
import type { ResourceDefinition } from '../../shared/resources/define.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { createTestCompany, createTestUser, type TestCompany } from '../fixtures/company.js';
import { call, type ApiReply, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { storeLead } from '../fixtures/stored-leads.js';
import { enterSchedule } from '../fixtures/schedules.js';
import { placedCalls, VOICE_TOKEN } from '../fixtures/voice.js';
import { wavBase64 } from '../fixtures/audio.js';
import { fileNumberRange } from '../fixtures/number-range.js';
import { getRecord } from '../../shared/db/records.js';
import { PERMISSION_GROUPS } from '../../shared/auth/permission-catalog.js';
import { PERMISSION_ACTIONS } from '../../shared/auth/permissions.js';
import { memberWith, withToken } from '../fixtures/members.js';

/**
 * Companies stay apart. Two companies A and B hold records of every resource of the registry
 * with overlapping ids (A has ids 1 to 3, B has 1, and may make a 2nd while probed), calls,
 * pings, logs, webhook log entries, a blacklist entry and a reservation. Then every basic-auth
 * route of the route table is called by B with A's ids, uuids and values: B gets 404 for A's
 * records (or its own record when the id is one both have), and no answer of B's ever contains
 * a value only A has. The route table drives the test: a route added later fails it until it is
 * probed here or listed in EXEMPT with the reason.
 */
const gateway = useGateway();
// One pinned minute for the whole file: the rate-limit probe counts pings per minute.
usePinnedClockForAll(midDayTomorrow);

/** Basic-auth routes this test does not call as B, and why. */
const EXEMPT: Record<string, string> = {
  'GET /api/v1/collections/{type}': 'reference data (time zones, countries...) that no company owns',
};

type Row = Record<string, any>;

interface World {
  company: TestCompany;
  mark: string;
  /** The records this company created, per resource, in order (ids 1 to 3 for A; 1 for B). */
  made: Record<string, Row[]>;
  calls: SimulationResult[];
}

const suffix = () => randomUUID().replace(/-/g, '').slice(0, 6);
/** A caller number no other test of this file uses (a duplicate caller would change payouts). */
let callers = 0;
const newCaller = () => `+1415555${String(1000 + ++callers)}`;

/**
 * A minimal valid create payload per registry resource (`index`: 0 for the first record of the
 * company, 1 for the second). A resource added to the registry needs an entry here, or the
 * coverage test fails.
 */
const PAYLOADS: Record<string, (w: World, index: number) => Row> = {
  traffic_sources: (w) => ({ name: `${w.mark} source` }),
  buyers: (w, index) => ({
    name: `${w.mark} buyer`,
    number: `+1212555${w.mark === A_MARK() ? 1 : 2}${String(index).padStart(3, '0')}`,
    // The first buyers of A and B share a user_buyer_id; A's second has one of its own.
    user_buyer_id: index === 0 ? SHARED_USER_BUYER_ID : `${w.mark}-ubid${index}`,
    current_conversion_revenue: 20,
    current_conversion_duration: 30,
    current_conversion_duplicate_timeframe: 3600,
  }),
  buyer_groups: (w) => ({ name: `${w.mark} group`, buyer_ids: [w.made.buyers![0]!.id] }),
  offers: (w) => ({ name: `${w.mark} offer`, buyer_ids: [w.made.buyers![0]!.id] }),
  offer_conversions: (w) => ({ name: `${w.mark} payout`, offer_id: w.made.offers![0]!.id, payout_type: 'usd', payout: 5, duration: 30, duplicate_timeframe: 3600 }),
  ring_pools: (w) => ({ name: `${w.mark} pool`, offer_id: w.made.offers![0]!.id }),
  phone_numbers: (w) => ({ name: `${w.mark} number`, offer_id: w.made.offers![0]!.id }),
  inbound_webhooks: (w, index) => ({ vanity_uri: `${w.mark}-${index}`, offer_id: w.made.offers![0]!.id, ...(index === 0 ? { rate_limit_per_minute: 1 } : {}) }),
  subscriptions: (w) => ({ target_url: `https://${w.mark}.example.com/hook`, event: 'new_call' }),
  outgoing_webhook_urls: (w) => ({ name: `${w.mark} url`, url: `https://${w.mark}.example.com/{{call_id}}`, headers: { 'X-Mark': w.mark } }),
  outgoing_webhooks: (w) => ({ name: `${w.mark} webhook`, trigger_type: 'call_ended', offer_id: w.made.offers![0]!.id, outgoing_url_ids: [w.made.outgoing_webhook_urls![0]!.id] }),
  integrations: () => ({ integration_type: 'crm_one' }),
  secret_items: (w, index) => ({ name: `${w.mark} secret ${index}`, value: `${w.mark}-secret-value-${index}` }),
  oauth_connections: (w) => ({ integration_id: w.made.integrations![0]!.id, provider: 'crm_one', name: `${w.mark} connection`, access_token: `${w.mark}-token` }),
  app_configs: (w, index) => ({ name: `${w.mark} config`, key: `${w.mark}.key_${index}`, value: index, value_type: 'integer' }),
  unblock_contact_jobs: (w) => ({ description: `${w.mark} job` }),
  webhook_manual_fires: (w) => ({ outgoing_webhook_id: w.made.outgoing_webhooks![0]!.id }),
  access_control_lists: (w) => ({ name: `${w.mark} acl` }),
  // Each export reads the company's traffic sources: one file (a data_export_records row) per exporter.
  admin_table_exporters: (w, index) => ({ data_type: 'traffic_sources', sortable_order: index }),
  admin_tasks: (w) => ({ rails_model_name: 'access_control_lists', method_name: `${w.mark}_touch`, active: true }),
  // One record per function: each of A's clusters names a role of its own.
  application_clusters: (w, index) => ({ name: `${w.mark} cluster`, server_role: ['admin', 'offers', 'calls', 'voice', 'leads', 'numbers', 'buyers', 'inbound', 'contacts', 'schedules'][index] }),
  bigint_migrations: (w) => ({ migrate_table_name: 'access_control_lists', migrate_column_name: 'id', shard_key: `${w.mark} shard` }),
  schedules: (w) => ({ name: `${w.mark} schedule`, offer_id: w.made.offers![0]!.id }),
  schedule_actions: (w) => ({ name: `${w.mark} action`, schedule_id: w.made.schedules![0]!.id, owner_relation: 'actions', action_type: 'wait', action_wait_type: 'days', wait_days: 1, integration_ids: [w.made.integrations![0]!.id] }),
  schedule_action_groups: (w) => ({ name: `${w.mark} action group`, schedule_action_ids: [w.made.schedule_actions![0]!.id] }),
  schedule_triggers: (w) => ({ name: `${w.mark} trigger`, schedule_id: w.made.schedules![0]!.id }),
  schedule_distributions: (w) => ({ name: `${w.mark} split`, schedule_id: w.made.schedules![0]!.id, target_schedule_id: w.made.schedules![0]!.id }),
  // Leads (made by SCHEDULE_LEADS below) before the records that name them.
  leads: () => ({}),
  scheduled_callbacks: (w, index) => ({ lead_id: w.made.leads![Math.min(index, w.made.leads!.length - 1)]!.id, callback_in_seconds: 3600, notes: `${w.mark} callback` }),
  lead_retargets: (w) => ({ name: `${w.mark} retarget`, source_schedule_id: w.made.schedules![0]!.id, target_schedule_id: w.made.retarget_targets![0]!.id }),
  sip_headers: (w) => ({ name: 'X-Mark', value: `${w.mark}-{{caller_number}}`, buyer_id: w.made.buyers![0]!.id, offer_id: w.made.offers![0]!.id }),
  sip_header_parser_groups: (w) => ({ name: `${w.mark} parsers`, offer_id: w.made.offers![0]!.id, phone_number_id: w.made.phone_numbers![0]!.id }),
  sip_header_parsers: (w) => ({ name: `${w.mark} parser`, sip_header_parser_group_id: w.made.sip_header_parser_groups![0]!.id, header_name: 'X-Campaign', token_name: 'campaign' }),
  call_recording_rules: (w) => ({ name: `${w.mark} recording`, offer_id: w.made.offers![0]!.id, buyer_id: w.made.buyers![0]!.id, traffic_source_id: w.made.traffic_sources![0]!.id }),
  state_call_limits: (w) => ({ name: `${w.mark} limit`, state: 'CA', offer_id: w.made.offers![0]!.id, concurrent_limit: 3 }),
  token_matchers: (w) => ({ name: `${w.mark} matcher`, match_field: 'caller_number', match_type: 'prefix', match_value: '+1415', set_tokens: 'region:bay', offer_id: w.made.offers![0]!.id }),
  visitor_token_matchers: (w) => ({ name: `${w.mark} visitor`, param_name: 'utm_source', match_value: 'google', set_tokens: 'source:google', ring_pool_id: w.made.ring_pools![0]!.id }),
  call_routers: (w) => ({ name: `${w.mark} router`, prompt_text: 'Press 1 for sales' }),
  call_router_answers: (w) => ({ name: `${w.mark} answer`, digits: '1', destination_type: 'offer', offer_id: w.made.offers![0]!.id, token_values: { menu: w.mark } }),
  call_router_answer_groups: (w) => ({ name: `${w.mark} answers`, call_router_answer_ids: [w.made.call_router_answers![0]!.id] }),
  call_control_actions: (w) => ({ name: `${w.mark} transfer`, action_type: 'transfer', transfer_buyer_id: w.made.buyers![0]!.id }),
  key_press_flows: (w) => ({ name: `${w.mark} flow`, digits: '9', call_control_action_id: w.made.call_control_actions![0]!.id }),
  key_press_flow_groups: (w) => ({ name: `${w.mark} flows`, key_press_flow_ids: [w.made.key_press_flows![0]!.id] }),
  call_dispositions: (w, index) => ({ name: `${w.mark} outcome`, key: `${w.mark}_${index}`, qualified: true }),
  transcription_keyword_groups: (w) => ({ name: `${w.mark} keywords`, keywords: [w.mark, 'refund'], offer_id: w.made.offers![0]!.id }),
  standalone_transcriptions: (w, index) => ({ recording_url: `recordings/${w.mark}-${index}.wav` }),
  // Made after the world's calls (AFTER_CALLS): a disposition is recorded on a call.
  agent_call_dispositions: (w, index) => ({ call_id: w.made.calls![Math.min(index, w.made.calls!.length - 1)]!.id, call_disposition_id: w.made.call_dispositions![0]!.id, notes: `${w.mark} notes` }),
  // Index 8 is the update probe's payload: the audio and an order's terms cannot be changed (a 422 before the 404).
  sound_files: (w, index) => ({ name: `${w.mark} sound`, ...(index === 8 ? {} : { audio_base64: wavBase64(0.1) }) }),
  sound_playlists: (w) => ({ name: `${w.mark} playlist`, sound_file_ids: [w.made.sound_files![0]!.id], loop: 2 }),
  // One flow per offer: each of A's flows has an offer of its own.
  offer_amd_flows: (w, index) => ({ name: `${w.mark} amd`, offer_id: w.made.offers![Math.min(index, w.made.offers!.length - 1)]!.id, action: 'leave_message', sound_file_id: w.made.sound_files![0]!.id }),
  number_order_prefixes: (w) => ({ name: `${w.mark} prefix`, prefix: `${fileNumberRange().areaCode}555` }),
  number_orders: (w, index) => ({ name: `${w.mark} order`, ...(index === 8 ? {} : { quantity: 1, number_order_prefix_id: w.made.number_order_prefixes![0]!.id, offer_id: w.made.offers![0]!.id }) }),
  contact_fields: (w, index) => ({ name: `${w.mark} field`, key: `${w.mark}_${index}`, field_type: 'string' }),
  // One value per field and owner: each of A's values is of a field of its own, on the world's first lead.
  contact_field_values: (w, index) => ({ contact_field_id: w.made.contact_fields![Math.min(index, w.made.contact_fields!.length - 1)]!.id, lead_id: w.made.leads![0]!.id, value: `${w.mark} value` }),
  contact_field_views: (w) => ({ name: `${w.mark} view`, contact_field_ids: [w.made.contact_fields![0]!.id], applies_to: 'leads' }),
  // Disabled: the world's calls go to its buyers (calls to agents: test/api/agent-calls.test.ts).
  call_centers: (w) => ({ name: `${w.mark} center`, offer_ids: [w.made.offers![0]!.id], enabled: false }),
  agent_statuses: (w, index) => ({ key: `${w.mark}_${index}`, name: `${w.mark} status`, pause_agent: true, schedule_action_group_id: w.made.schedule_action_groups![0]!.id }),
  voice_agents: (w) => ({ name: `${w.mark} agent`, number: '+12125550123', call_center_id: w.made.call_centers![0]!.id }),
  voice_agent_fields: (w, index) => ({ name: `${w.mark} agent field`, key: `${w.mark}_${index}`, voice_agent_id: w.made.voice_agents![0]!.id }),
  voice_agent_flows: (w) => ({ name: `${w.mark} agent flow`, voice_agent_id: w.made.voice_agents![0]!.id, offer_id: w.made.offers![0]!.id, voice_agent_field_ids: [w.made.voice_agent_fields![0]!.id] }),
  voice_agent_keywords: (w) => ({ keyword: `${w.mark} keyword`, voice_agent_flow_id: w.made.voice_agent_flows![0]!.id }),
  schedule_agents: (w) => ({ schedule_id: w.made.schedules![0]!.id, voice_agent_id: w.made.voice_agents![0]!.id }),
  // Index 8 is the update probe's payload: only `read` can change.
  agent_messages: (w, index) => (index === 8 ? { read: true } : { voice_agent_id: w.made.voice_agents![0]!.id, body: `${w.mark} message` }),
  // No create: each agent has its widget (made with it; its update probe's payload).
  agent_widgets: () => ({ system_status: 'available' }),
  data_append_groups: (w, index) => ({ name: `${w.mark} data group ${index}`, data_types: ['caller_name', 'carrier_type'] }),
  // Index 8 is the update probe's payload: only notes can change.
  data_appends: (w, index) =>
    index === 8 ? { notes: `${w.mark} notes` } : { caller_number: `+1303555${w.mark === A_MARK() ? 1 : 2}${String(index).padStart(3, '0')}`, data_append_group_id: w.made.data_append_groups![0]!.id },
  // Index 8 is the update probe's payload: only the name can change.
  contact_imports: (w, index) => (index === 8 ? { name: `${w.mark} import` } : { name: `${w.mark} import`, csv: `phone,first_name\n+1303556${w.mark === A_MARK() ? 1 : 2}${String(index).padStart(3, '0')},${w.mark}` }),
};

/**
 * Resources no API call creates: made by the carrier's webhooks in the world (A 3, B 1), read
 * back into `made` in creation order.
 */
const MADE_BY_CARRIER = new Set(['incoming_text_messages']);

/** Resources the service writes when other records are written: an export's files (A 3, B 1). */
const MADE_BY_EXPORTS = new Set(['data_export_records']);

async function exportFilesOf(world: World, count: number): Promise<void> {
  const listed = await as(world, 'GET', '/api/v1/data_export_records?root=false&order=id&per_page=100');
  expect(listed.body, listed.text).toHaveLength(count);
  world.made.data_export_records = listed.body as Row[];
}

/** Texts from `caller` to the world's first number (the inbound-SMS webhook), and the records they made. */
async function textInto(world: World, caller: string, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const sent = await simulateText({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: caller, to: world.made.phone_numbers![0]!.number, body: `${world.mark} text ${index}` });
    expect(sent.status, sent.response).toBe(200);
  }
  const listed = await as(world, 'GET', '/api/v1/incoming_text_messages?root=false&order=id&per_page=100');
  expect(listed.body, listed.text).toHaveLength(count);
  world.made.incoming_text_messages = listed.body as Row[];
}

/**
 * Resources the service writes: each agent's widget (made with the agent), and the agent
 * timestamps a widget's status change writes; read back into `made` in creation order.
 */
const MADE_BY_SERVICE = new Set(['agent_timestamps']);

async function agentStateInto(world: World): Promise<void> {
  world.made.agent_widgets = [];
  for (const agent of world.made.voice_agents!) {
    const reply = await as(world, 'PUT', `/api/v1/agent_widgets/${agent.id}`, { system_status: 'available' });
    expect(reply.status, reply.text).toBe(200);
    world.made.agent_widgets.push(reply.body.agent_widget as Row);
  }
  const listed = await as(world, 'GET', '/api/v1/agent_timestamps?root=false&order=id&per_page=100');
  expect(listed.body, listed.text).toHaveLength(world.made.voice_agents!.length);
  world.made.agent_timestamps = listed.body as Row[];
}

/** Resources whose payloads name the world's calls, so they are made once the calls exist. */
const AFTER_CALLS = new Set(['agent_call_dispositions']);

/** Schedule leads (entered through the lead store) and a second schedule to retarget them into. */
async function makeScheduleLeads(world: World, count: number): Promise<void> {
  world.made.leads = [];
  for (let index = 0; index < count; index++) world.made.leads.push(await enterSchedule(world.company.id, world.made.schedules![0]!, clock().now(), { caller_id: newCaller() }));
  world.made.retarget_targets = [await createThrough(gateway, world.company, '/api/v1/schedules', { name: `${world.mark} retarget target` })];
}

const SHARED_USER_BUYER_ID = `shared-${suffix()}`;
let a: World;
let b: World;
const A_MARK = () => a.mark;

const creatable = resources.filter((resource) => resource.operations.includes('create'));
const createPathOf = (resource: ResourceDefinition) => (resource.createPath ?? `/api/v1/${resource.name}`).replace('{id}', '0');

async function createRecords(world: World, count: number, afterCalls = false): Promise<void> {
  for (const name of Object.keys(PAYLOADS)) {
    if (AFTER_CALLS.has(name) !== afterCalls) continue;
    if (name === 'leads') {
      await makeScheduleLeads(world, count);
      continue;
    }
    const resource = creatable.find((candidate) => candidate.name === name);
    if (!resource) continue;
    world.made[name] = [];
    for (let index = 0; index < count; index++) {
      const created = await createThrough(gateway, world.company, createPathOf(resource), PAYLOADS[name]!(world, index));
      // What only the create's answer shows (a signing secret) is not part of the record as shown later.
      for (const field of resource.revealedOnWrite ?? []) delete created[field];
      world.made[name]!.push(created);
    }
  }
}

/**
 * B's member (a team granting every permission), whose auth_token `as(b, ...)` uses instead of B's
 * key pair while `bAsMember` is set: the probes run for a member token too.
 */
let bMemberToken = '';
let bAsMember = false;
const as = (world: World, method: string, path: string, json?: unknown): Promise<ApiReply> =>
  world === b && bAsMember ? call(gateway, { method, path: withToken(path, bMemberToken), json }) : call(gateway, { method, path, authorization: world.company.authorization, json });
const ping = (vanity: string, caller: string) => call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${vanity}?caller_id=${encodeURIComponent(caller)}` });
const callInto = (world: World, from: string, talk = 60) =>
  simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from, to: world.made.phone_numbers![0]!.number, buyers: [{ answer: true, answerAfter: 1, talk }] });

/** A delivery attempt of the world's first subscription, to its own URL. */
const logEntry = (world: World): WebhookAttempt =>
  webhookAttempt({
    subscription_id: world.made.subscriptions![0]!.id,
    target_url: world.made.subscriptions![0]!.target_url,
    max_attempts: 1,
    duration_ms: 5,
    response_excerpt: `${world.mark} ok`,
  });
const aLogIds: number[] = [];
let bLogId = 0;

/** Values only A has: its mark (in every name, URL and vanity), numbers, caller, call ids and uuids. */
let aOnly: string[] = [];
const A_CALLER = newCaller();

/** B's answer carries none of A's values. */
function expectNothingOfA(reply: ApiReply, what: string, echoed: string[] = []): void {
  for (const value of aOnly.filter((candidate) => !echoed.includes(candidate))) expect(reply.text.includes(value), `${what} shows A's ${value}: ${reply.text.slice(0, 300)}`).toBe(false);
}

beforeAll(async () => {
  a = { company: await createTestCompany('tenant-a'), mark: `ta${suffix()}`, made: {}, calls: [] };
  b = { company: await createTestCompany('tenant-b'), mark: `tb${suffix()}`, made: {}, calls: [] };
  await createRecords(a, 3);
  await createRecords(b, 1);
  // A's calls, pings (and so their logs) and a blacklisted caller; B has a call of its own.
  a.calls.push(await callInto(a, A_CALLER), await callInto(a, A_CALLER));
  b.calls.push(await callInto(b, newCaller()));
  for (const world of [a, b]) world.made.calls = world.calls.map((placed) => ({ id: placed.callId }));
  await createRecords(a, 3, true);
  await createRecords(b, 1, true);
  await textInto(a, A_CALLER, 3);
  await textInto(b, newCaller(), 1);
  await agentStateInto(a);
  await agentStateInto(b);
  await exportFilesOf(a, 3);
  await exportFilesOf(b, 1);
  expect((await ping(a.made.inbound_webhooks![1]!.vanity_uri, A_CALLER)).status).toBe(200);
  expect((await ping(a.made.inbound_webhooks![1]!.vanity_uri, A_CALLER)).status).toBe(200);
  expect((await as(a, 'POST', `/api/v1/contacts/${encodeURIComponent(A_CALLER)}/caller_block`)).status).toBe(200);
  // Webhook log entries: no delivery writes them yet, so they are recorded as the sender will.
  for (let i = 0; i < 2; i++) aLogIds.push(await recordWebhookAttempt(a.company.id, logEntry(a), clock().now()));
  bLogId = await recordWebhookAttempt(b.company.id, logEntry(b), clock().now());
  const callRows = (await as(a, 'GET', '/api/v1/calls?root=false&columns=id,uuid')).body as Row[];
  expect(callRows).toHaveLength(2);
  aOnly = [
    a.mark,
    A_CALLER,
    ...a.made.phone_numbers!.map((n) => n.number as string),
    ...a.made.buyers!.map((buyer) => buyer.number as string),
    ...callRows.flatMap((row) => [String(row.id), row.uuid as string]),
  ];
}, 120_000);

const basicRoutes = routes.filter((route) => route.auth === 'basic');

/**
 * A `.json` twin (shared/http/format-suffix.ts) runs its route's operation: it is covered by its
 * route's probe or exemption. GET twins are probed again through their own path (reads show the
 * most); a twin that writes is not run twice.
 */
const baseKey = (key: string) => key.replace(/\.json$/, '');
const isTwin = (route: RouteDefinition) => isJsonTwin(route);

function resourceOf(route: RouteDefinition): ResourceDefinition | undefined {
  return resources.find((resource) => route.operation.startsWith(`${resource.name}.`));
}

/**
 * A's record whose id B never reaches (A's third; B makes at most a second; A's calls are two,
 * both A's own: call ids are unique across companies), and the id both have.
 */
const aOnlyRecord = (name: string) => a.made[name]![Math.min(2, a.made[name]!.length - 1)]!;
const sharedId = (name: string) => b.made[name]![0]!.id as number;

async function expectAUnchanged(name: string, record: Row): Promise<void> {
  const reply = await as(a, 'GET', `/api/v1/${name}/${record.id}`);
  expect(reply.status, reply.text).toBe(200);
  const [root] = Object.keys(reply.body).filter((key) => !['status', 'errors', 'checksum', 'metadata', 'associations'].includes(key));
  const now = reply.body[root!] as Row;
  for (const [field, value] of Object.entries(record)) {
    if (field === 'updated_at' || typeof value === 'object') continue;
    expect(now[field], `A's ${name} ${record.id} ${field}`).toEqual(value);
  }
}

/** Every registry route, generically: lists, new, create, show, update, delete. */
async function probeResourceRoute(route: RouteDefinition, resource: ResourceDefinition): Promise<void> {
  const name = resource.name;
  const operation = route.operation.slice(name.length + 1);
  switch (operation) {
    case 'list': {
      const reply = await as(b, 'GET', route.path);
      expect(reply.status, `${routeKey(route)} ${reply.text}`).toBe(200);
      expectNothingOfA(reply, routeKey(route));
      if (!route.path.endsWith('.csv')) {
        // Cursors and pages: B paging one record at a time sees only its own.
        const paged = await as(b, 'GET', `${route.path}?per_page=1&page=2`);
        expectNothingOfA(paged, `${routeKey(route)} page 2`);
        await expectCursorRefused(route.path, name);
      }
      return;
    }
    case 'new': {
      const reply = await as(b, 'GET', route.path);
      expect(reply.status, reply.text).toBe(200);
      expectNothingOfA(reply, routeKey(route));
      return;
    }
    case 'create': {
      if (route.path.includes('{')) {
        // Created at a path id (buyer_groups): A's id gives B a new record of its own.
        const reply = await as(b, 'POST', route.path.replace(/\{[^}]+\}/, String(aOnlyRecord(name).id)), PAYLOADS[name]!(b, 9));
        expect(reply.status, reply.text).toBe(200);
        expectNothingOfA(reply, routeKey(route));
        await expectAUnchanged(name, aOnlyRecord(name));
        return;
      }
      // Pointing at A's records (ids B does not have) is refused; B's own payload would pass.
      const payload = PAYLOADS[name]!(b, 9);
      const foreign = Object.fromEntries(
        Object.entries(payload)
          .filter(([field]) => /_ids?$/.test(field) && field !== 'user_buyer_id')
          .map(([field, value]) => {
            const target = resource.foreignKeys?.[field]?.resource ?? (field.replace(/_ids?$/, '') === 'buyer' ? 'buyers' : `${field.replace(/_ids?$/, '')}s`);
            const id = aOnlyRecord(target).id;
            return [field, Array.isArray(value) ? [id] : id];
          }),
      );
      if (Object.keys(foreign).length) {
        const reply = await as(b, 'POST', route.path, { ...payload, ...foreign });
        expect([404, 422], `${routeKey(route)} with A's ${JSON.stringify(foreign)}: ${reply.text}`).toContain(reply.status);
        expectNothingOfA(reply, routeKey(route));
      }
      return;
    }
    case 'show': {
      const foreign = await as(b, 'GET', route.path.replace('{id}', String(aOnlyRecord(name).id)));
      expect(foreign.status, `${routeKey(route)} ${foreign.text}`).toBe(404);
      expectNothingOfA(foreign, routeKey(route));
      const own = await as(b, 'GET', route.path.replace('{id}', String(sharedId(name))));
      expect(own.status, own.text).toBe(200);
      expectNothingOfA(own, routeKey(route));
      return;
    }
    case 'update':
    case 'delete': {
      const json = operation === 'update' ? PAYLOADS[name]!(b, 8) : undefined;
      const reply = await as(b, route.method, route.path.replace('{id}', String(aOnlyRecord(name).id)), json);
      expect(reply.status, `${routeKey(route)} ${reply.text}`).toBe(404);
      expectNothingOfA(reply, routeKey(route));
      await expectAUnchanged(name, aOnlyRecord(name));
      return;
    }
  }
  throw new Error(`no generic probe for ${routeKey(route)}`);
}

/**
 * A's cursor for a list, replayed by B: refused (422), or B's own records only. `required`: A
 * has more than a page here, so A's first page must carry a cursor.
 */
async function expectCursorRefused(path: string, what: string, required = false, echoed: string[] = []): Promise<void> {
  const first = await as(a, 'GET', `${path}?per_page=1`);
  const cursor = first.body?.metadata?.next_cursor;
  if (required) expect(typeof cursor, `${what}: A's first page has a cursor: ${first.text.slice(0, 300)}`).toBe('string');
  if (typeof cursor !== 'string' || !cursor) return;
  const replayed = await as(b, 'GET', `${path}?per_page=1&cursor=${encodeURIComponent(cursor)}`);
  expect([200, 422], `${what} with A's cursor: ${replayed.text}`).toContain(replayed.status);
  expectNothingOfA(replayed, `${what} with A's cursor`, echoed);
}

const aCall = (index = 0) => a.calls[index]!;
const aCallUuid = async (index = 0) => ((await as(a, 'GET', `/api/v1/calls/${aCall(index).callId}`)).body.call.uuid as string);

/** A's leads (two, so its lists have a second page), submitted with A's offer token once; their ids and uuids are A's only. */
let aLeads: Row[] | undefined;
async function aLeadRows(): Promise<Row[]> {
  if (!aLeads) {
    aLeads = [];
    for (const caller of [A_CALLER, newCaller()]) {
      const reply = await call(gateway, { method: 'POST', path: `/api/v1/leads?lead_token=${a.made.offers![0]!.lead_token}&caller_id=${encodeURIComponent(caller)}&mark=${a.mark}` });
      expect(reply.status, reply.text).toBe(200);
      aLeads.push(reply.body.lead);
    }
    aOnly.push(...aLeads.flatMap((lead) => [String(lead.id), lead.uuid as string]));
  }
  return aLeads;
}

/** Routes with behaviour of their own, by route key. */
const BEHAVIOUR_PROBES: Record<string, (route: RouteDefinition) => Promise<void>> = {
  ...Object.fromEntries(
    ['GET /api/v1/leads', 'GET /api/v1/leads.csv', 'GET /api/v1/leads/new', 'GET /api/v1/leads/reports', 'GET /api/v1/leads/stats'].map((key) => [
      key,
      async (route: RouteDefinition) => {
        await aLeadRows();
        for (const query of ['', '?category=offer', `?caller_id=${encodeURIComponent(A_CALLER)}`]) {
          const reply = await as(b, 'GET', `${route.path}${query}`);
          expect(reply.status, reply.text).toBe(200);
          expectNothingOfA(reply, routeKey(route));
        }
        if (route.path === '/api/v1/leads') await expectCursorRefused(route.path, routeKey(route), true);
      },
    ]),
  ),
  // Credentials name one company: B (key pair or member) gets its own, never A's.
  'GET /api/v1/company': async (route) => {
    const reply = await as(b, 'GET', route.path);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.company.id).toBe(b.company.id);
    expectNothingOfA(reply, routeKey(route));
  },
  'GET /api/v1/leads/{id}': async () => {
    for (const lead of await aLeadRows()) {
      for (const id of [String(lead.id), lead.uuid as string]) expect((await as(b, 'GET', `/api/v1/leads/${id}`)).status).toBe(404);
    }
  },
  'PUT /api/v1/leads/{id}': async () => {
    const [lead] = await aLeadRows();
    for (const id of [String(lead!.id), lead!.uuid as string]) expect((await as(b, 'PUT', `/api/v1/leads/${id}`, { status: 'removed', data: { x: 1 } })).status).toBe(404);
    expect((await as(a, 'GET', `/api/v1/leads/${lead!.id}`)).body.lead).toMatchObject({ status: 'active', data: { mark: a.mark } });
  },
  'DELETE /api/v1/leads/{id}/id': async () => {
    const [lead] = await aLeadRows();
    expect((await as(b, 'DELETE', `/api/v1/leads/${lead!.id}/id`)).status).toBe(404);
    expect((await as(a, 'GET', `/api/v1/leads/${lead!.id}`)).status).toBe(200);
  },
  'GET /api/v1/contacts/{id}': async () => {
    await aLeadRows();
    const reply = await as(b, 'GET', `/api/v1/contacts/${encodeURIComponent(A_CALLER)}`);
    if (!bAsMember) {
      expect(reply.status, reply.text).toBe(404);
      return;
    }
    // The member's pass comes after the key pair's PUT below, which made B's own contact of the number: nothing of A's in it.
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.contact).toMatchObject({ notes: 'b note', lead_ids: [], call_ids: [], blocked: false });
    expectNothingOfA(reply, 'GET contact', [A_CALLER]);
  },
  'PUT /api/v1/contacts/{id}': async () => {
    // B writing the number makes B's own contact: it shows none of A's leads, calls or blacklist entry.
    const reply = await as(b, 'PUT', `/api/v1/contacts/${encodeURIComponent(A_CALLER)}`, { notes: 'b note' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.contact).toMatchObject({ lead_ids: [], call_ids: [], blocked: false });
    expectNothingOfA(reply, 'PUT contact', [A_CALLER]);
    expect((await as(a, 'GET', `/api/v1/contacts/${encodeURIComponent(A_CALLER)}`)).body.contact.notes).toBeNull();
  },
  'DELETE /api/v1/contacts/{id}/calls': async () => {
    const reply = await as(b, 'DELETE', `/api/v1/contacts/${encodeURIComponent(A_CALLER)}/calls`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.contact.hung_up_count).toBe(0);
  },
  'DELETE /api/v1/subscriptions': async () => {
    const target = a.made.subscriptions![0]!.target_url as string;
    const reply = await as(b, 'DELETE', `/api/v1/subscriptions?target_url=${encodeURIComponent(target)}`);
    expectNothingOfA(reply, 'DELETE subscriptions by A target_url');
    await expectAUnchanged('subscriptions', a.made.subscriptions![0]!);
  },
  'PUT /api/v1/integrations/objects/{id}': async () => {
    const reply = await as(b, 'PUT', `/api/v1/integrations/objects/${aOnlyRecord('integrations').id}`, { active: false });
    expect(reply.status, reply.text).toBe(404);
    await expectAUnchanged('integrations', aOnlyRecord('integrations'));
  },
  'GET /api/v1/inbound_webhook_logs': async (route) => {
    const reply = await as(b, 'GET', route.path);
    expect(reply.status, reply.text).toBe(200);
    expectNothingOfA(reply, routeKey(route));
    await expectCursorRefused(route.path, routeKey(route), true);
  },
  'GET /api/v1/webhook_logs': async (route) => {
    for (const query of ['', '?kind=subscription&success=true', `?subscription_id=${a.made.subscriptions![0]!.id}`]) {
      const reply = await as(b, 'GET', `${route.path}${query}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.webhook_logs.map((row: Row) => row.id)).toEqual([bLogId]);
      expectNothingOfA(reply, `${routeKey(route)}${query}`);
    }
    await expectCursorRefused(route.path, routeKey(route), true);
  },
  'GET /api/v1/lead_retarget_logs': async (route) => {
    for (const query of ['', `?lead_retarget_id=${a.made.lead_retargets![0]!.id}`, `?lead_id=${a.made.leads![0]!.id}`]) {
      const reply = await as(b, 'GET', `${route.path}${query}`);
      expect(reply.status, reply.text).toBe(200);
      for (const row of reply.body.lead_retarget_logs as Row[]) expect(row.company_id).toBe(b.company.id);
      expectNothingOfA(reply, `${routeKey(route)}${query}`);
    }
    await expectCursorRefused(route.path, routeKey(route), true);
  },
  'GET /api/v1/webhook_logs/{id}': async () => {
    for (const id of aLogIds) {
      const reply = await as(b, 'GET', `/api/v1/webhook_logs/${id}`);
      expect(reply.status, reply.text).toBe(404);
      expectNothingOfA(reply, `GET webhook_logs/${id}`);
    }
    const own = await as(b, 'GET', `/api/v1/webhook_logs/${bLogId}`);
    expect(own.status, own.text).toBe(200);
    expectNothingOfA(own, 'GET own webhook log');
  },
  'GET /api/v1/change_logs': async (route) => {
    const aRecord = aOnlyRecord('traffic_sources');
    for (const query of ['', '?event=create', `?item_type=traffic_sources&item_id=${aRecord.id}`]) {
      const reply = await as(b, 'GET', `${route.path}${query}`);
      expect(reply.status, reply.text).toBe(200);
      for (const row of reply.body.change_logs as Row[]) expect(row.company_id).toBe(b.company.id);
      expectNothingOfA(reply, `${routeKey(route)}${query}`);
    }
    expect((await as(b, 'GET', `${route.path}?item_type=traffic_sources&item_id=${aRecord.id}`)).body.change_logs).toEqual([]);
    await expectCursorRefused(route.path, routeKey(route), true);
  },
  'GET /api/v1/change_logs/{id}': async () => {
    const aEntries = (await as(a, 'GET', '/api/v1/change_logs?per_page=3')).body.change_logs as Row[];
    expect(aEntries).toHaveLength(3);
    for (const entry of aEntries) {
      const reply = await as(b, 'GET', `/api/v1/change_logs/${entry.id}`);
      expect(reply.status, reply.text).toBe(404);
      expectNothingOfA(reply, `GET change_logs/${entry.id}`);
    }
    const [bEntry] = (await as(b, 'GET', '/api/v1/change_logs?per_page=1')).body.change_logs as Row[];
    const own = await as(b, 'GET', `/api/v1/change_logs/${bEntry!.id}`);
    expect(own.status, own.text).toBe(200);
    expectNothingOfA(own, 'GET own change log');
  },
  'POST /api/v1/contacts/{caller_id}/caller_block': async () => {
    // B blocking the same caller is B's own entry: A's list is untouched by B, B's by A.
    const caller = newCaller();
    expect((await as(b, 'POST', `/api/v1/contacts/${encodeURIComponent(caller)}/caller_block`)).status).toBe(200);
    expect((await as(a, 'GET', '/api/v1/contacts/suppression_list')).text).not.toContain(caller);
  },
  'POST /api/v1/contacts/{caller_id}/caller_unblock': async () => {
    // B unblocking A's blocked caller leaves A's entry: the caller still cannot reach A.
    await as(b, 'POST', `/api/v1/contacts/${encodeURIComponent(A_CALLER)}/caller_unblock`);
    expect((await as(a, 'GET', '/api/v1/contacts/suppression_list')).text).toContain(A_CALLER.slice(2));
  },
  'GET /api/v1/contacts/suppression_list': async (route) => {
    const reply = await as(b, 'GET', route.path);
    expect(reply.status, reply.text).toBe(200);
    expectNothingOfA(reply, routeKey(route));
    expect(reply.text).not.toContain(A_CALLER.slice(2));
  },
  'POST /api/v1/ring_pools/{id}/visitor_number': async () => {
    // A's pool is unknown to B: 404, no number of A handed out.
    const foreign = await as(b, 'POST', `/api/v1/ring_pools/${aOnlyRecord('ring_pools').id}/visitor_number`, { visitor: { utm_source: 'x' } });
    expect(foreign.status, foreign.text).toBe(404);
    expectNothingOfA(foreign, 'visitor_number of A');
  },
  'GET /api/v1/buyers/{user_buyer_id}/by_user_buyer_id': async () => {
    const foreign = await as(b, 'GET', `/api/v1/buyers/${aOnlyRecord('buyers').user_buyer_id}/by_user_buyer_id`);
    expect(foreign.status, foreign.text).toBe(404);
    const shared = await as(b, 'GET', `/api/v1/buyers/${SHARED_USER_BUYER_ID}/by_user_buyer_id`);
    expect(shared.status, shared.text).toBe(200);
    expect(shared.body.buyer.id).toBe(b.made.buyers![0]!.id);
    expectNothingOfA(shared, 'by_user_buyer_id shared');
  },
  'GET /api/v1/buyers/{id}/bids': async () => {
    // A's buyer is unknown to B: 404; B's own buyer lists only its own bids (none here).
    const foreign = await as(b, 'GET', `/api/v1/buyers/${aOnlyRecord('buyers').id}/bids`);
    expect(foreign.status, foreign.text).toBe(404);
    expectNothingOfA(foreign, 'bids of A');
    const own = await as(b, 'GET', `/api/v1/buyers/${sharedId('buyers')}/bids`);
    expect(own.status, own.text).toBe(200);
    expectNothingOfA(own, 'bids of B');
  },
  'POST /api/v1/number_orders/{id}/resume': async () => {
    const reply = await as(b, 'POST', `/api/v1/number_orders/${aOnlyRecord('number_orders').id}/resume`);
    expect(reply.status, reply.text).toBe(404);
    expectNothingOfA(reply, 'resume of A\'s order');
    await expectAUnchanged('number_orders', aOnlyRecord('number_orders'));
  },
  'POST /api/v1/data_append': async (route) => {
    // B names A's group: refused like an unknown group, nothing asked, charged or shown.
    const reply = await as(b, 'POST', route.path, { caller_number: '+13035559999', data_append_group_id: aOnlyRecord('data_append_groups').id });
    expect(reply.status, reply.text).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['data_append_group_id']);
    expectNothingOfA(reply, routeKey(route));
    await expectAUnchanged('data_appends', aOnlyRecord('data_appends'));
  },
  'POST /api/v1/contact_imports/{id}/resume': async () => {
    const reply = await as(b, 'POST', `/api/v1/contact_imports/${aOnlyRecord('contact_imports').id}/resume`);
    expect(reply.status, reply.text).toBe(404);
    expectNothingOfA(reply, "resume of A's import");
    await expectAUnchanged('contact_imports', aOnlyRecord('contact_imports'));
  },
  'GET /api/v1/phone_numbers/search': async (route) => {
    const reply = await as(b, 'GET', `${route.path}?per_page=50`);
    expect(reply.status, reply.text).toBe(200);
    expectNothingOfA(reply, routeKey(route));
  },
  'GET /api/v1/calls': async (route) => {
    for (const query of ['', '?root=false&columns=id,uuid,caller_number,number', `?caller_number=${encodeURIComponent(A_CALLER)}`]) {
      const reply = await as(b, 'GET', `${route.path}${query}`);
      expect(reply.status, reply.text).toBe(200);
      expectNothingOfA(reply, `${routeKey(route)}${query}`);
    }
    await expectCursorRefused(route.path, routeKey(route), true);
  },
  'GET /api/v1/leads/{id}/buyer_is_available': async () => {
    const lead = await storeLead(a.company.id, clock().now(), { caller_id: A_CALLER, offer_id: a.made.offers![0]!.id, data: { mark: a.mark } });
    for (const id of [lead.id, lead.uuid]) {
      const reply = await as(b, 'GET', `/api/v1/leads/${id}/buyer_is_available`);
      expect(reply.status, reply.text).toBe(404);
      expectNothingOfA(reply, `buyer_is_available of A's lead ${id}`);
    }
  },
  'POST /api/v1/schedules/make_call': async (route) => {
    const lead = await storeLead(a.company.id, clock().now(), { caller_id: A_CALLER, offer_id: a.made.offers![0]!.id, data: { mark: a.mark } });
    const placed = placedCalls().length;
    // A's lead through B's schedule: not found; A's schedule: not B's.
    for (const [json, status] of [
      [{ schedule_id: b.made.schedules![0]!.id, lead_id: lead.id }, 404],
      [{ schedule_id: b.made.schedules![0]!.id, lead_id: lead.uuid }, 404],
      [{ schedule_id: aOnlyRecord('schedules').id, caller_id: newCaller() }, 422],
    ] as const) {
      const reply = await as(b, 'POST', route.path, json);
      expect(reply.status, `${JSON.stringify(json)} ${reply.text}`).toBe(status);
      expectNothingOfA(reply, `make_call ${JSON.stringify(json)}`);
    }
    expect(placedCalls().length).toBe(placed);
  },
  'GET /api/v1/calls.csv': async (route) => {
    const reply = await as(b, 'GET', route.path);
    expect(reply.status, reply.text).toBe(200);
    expectNothingOfA(reply, routeKey(route));
  },
  'GET /api/v1/calls/{caller_number}/by_caller_number': async () => {
    const path = `/api/v1/calls/${encodeURIComponent(A_CALLER)}/by_caller_number`;
    const reply = await as(b, 'GET', path);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.calls).toEqual([]);
    // The answer repeats the number B asked for; nothing else of A's.
    expectNothingOfA(reply, 'by_caller_number', [A_CALLER]);
    await expectCursorRefused(path, 'by_caller_number', true, [A_CALLER]);
  },
  'GET /api/v1/calls/live_calls': async (route) => {
    const reply = await as(b, 'GET', route.path);
    expect(reply.status, reply.text).toBe(200);
    expectNothingOfA(reply, routeKey(route));
  },
  'GET /api/v1/calls/reports': async (route) => {
    const reply = await as(b, 'GET', route.path);
    expect(reply.status, reply.text).toBe(200);
    expectNothingOfA(reply, routeKey(route));
  },
  'GET /api/v1/calls/stats': async (route) => {
    const reply = await as(b, 'GET', route.path);
    expect(reply.status, reply.text).toBe(200);
    expectNothingOfA(reply, routeKey(route));
  },
  'GET /api/v1/calls/{id}': async () => {
    for (const id of [String(aCall().callId), await aCallUuid()]) {
      const reply = await as(b, 'GET', `/api/v1/calls/${id}`);
      expect(reply.status, reply.text).toBe(404);
      expectNothingOfA(reply, `GET calls/${id}`);
    }
  },
  'GET /api/v1/calls/{id}/events': async () => {
    for (const id of [String(aCall().callId), await aCallUuid()]) {
      const reply = await as(b, 'GET', `/api/v1/calls/${id}/events`);
      expect(reply.status, reply.text).toBe(404);
    }
  },
  'POST /api/v1/calls/{id}': async () => {
    const before = (await as(a, 'GET', `/api/v1/calls/${aCall().callId}`)).body.call;
    for (const id of [String(aCall().callId), await aCallUuid()]) {
      const reply = await as(b, 'POST', `/api/v1/calls/${id}`, { revenue: 999 });
      expect(reply.status, reply.text).toBe(404);
    }
    expect((await as(a, 'GET', `/api/v1/calls/${aCall().callId}`)).body.call.revenue).toBe(before.revenue);
  },
  // Buyers' postbacks (docs/compatibility.md): B's credentials, or a user auth_token of B's, reach none of A's calls.
  'POST /api/v1/calls/update_call/{id}': async () => {
    const before = (await as(a, 'GET', `/api/v1/calls/${aCall().callId}`)).body.call;
    const reply = await as(b, 'POST', `/api/v1/calls/update_call/${await aCallUuid()}`, { buyer_converted: 'true', revenue: 999 });
    expect(reply.status, reply.text).toBe(404);
    const user = await createTestUser(b.company.id);
    const withToken = await call(gateway, { method: 'POST', path: `/api/v1/calls/update_call/${await aCallUuid()}`, json: { auth_token: user.authToken, revenue: 999 } });
    expect(withToken.status, withToken.text).toBe(404);
    expect((await as(a, 'GET', `/api/v1/calls/${aCall().callId}`)).body.call.revenue).toBe(before.revenue);
  },
  'POST /api/v1/calls/update_by_caller_id/{caller_id}': async () => {
    const offerToken = a.made.offers![0]!.offer_token as string;
    const reply = await as(b, 'POST', `/api/v1/calls/update_by_caller_id/${encodeURIComponent(A_CALLER)}`, { offer_token: offerToken, revenue: 999 });
    expect([404, 422], reply.text).toContain(reply.status);
    expectNothingOfA(reply, 'update_by_caller_id');
    const calls = (await as(a, 'GET', '/api/v1/calls?root=false&columns=revenue')).body as Row[];
    expect(calls.map((row) => row.revenue)).not.toContain(999);
  },
  'POST /api/v1/calls/send_key_press': async () => {
    const reply = await as(b, 'POST', '/api/v1/calls/send_key_press', { id: await aCallUuid(), digits: '1' });
    expect(reply.status, reply.text).toBe(404);
  },
  'DELETE /api/v1/calls/{id}': async () => {
    for (const id of [String(aCall().callId), await aCallUuid()]) {
      const reply = await as(b, 'DELETE', `/api/v1/calls/${id}`);
      expect(reply.status, reply.text).toBe(404);
    }
  },
  'GET /api/v1/call_logs': async (route) => {
    const reply = await as(b, 'GET', route.path);
    expect(reply.status, reply.text).toBe(200);
    expectNothingOfA(reply, routeKey(route));
    const ofACall = await as(b, 'GET', `${route.path}?call_id=${aCall().callId}`);
    expectNothingOfA(ofACall, `${routeKey(route)} of A's call`);
    await expectCursorRefused(route.path, routeKey(route), true);
  },
  'GET /api/v1/charge_rollups': async (route) => {
    const reply = await as(b, 'GET', route.path);
    expect(reply.status, reply.text).toBe(200);
    expectNothingOfA(reply, routeKey(route));
  },
  'GET /api/v1/datasets': async (route) => {
    const reply = await as(b, 'GET', route.path);
    expect(reply.status, reply.text).toBe(200);
    expectNothingOfA(reply, routeKey(route));
  },
  'GET /api/v1/datasets/calls/{stat}': async () => {
    // A has two calls, B one: B's counts never hold A's.
    const reply = await as(b, 'GET', '/api/v1/datasets/calls/count?category=offer');
    expect(reply.status, reply.text).toBe(200);
    expectNothingOfA(reply, 'datasets/calls/count');
    expect((reply.body.dataset as Row[]).reduce((sum, row) => sum + Number(row.value), 0)).toBeLessThanOrEqual(b.calls.length);
  },
  'GET /api/v1/datasets/leads/{stat}': async () => {
    const reply = await as(b, 'GET', '/api/v1/datasets/leads/count?category=offer');
    expect(reply.status, reply.text).toBe(200);
    expectNothingOfA(reply, 'datasets/leads/count');
  },
  'GET /api/v1/datasets/billing': async (route) => {
    const reply = await as(b, 'GET', `${route.path}?category=kind`);
    expect(reply.status, reply.text).toBe(200);
    expectNothingOfA(reply, routeKey(route));
  },
  'GET /api/v1/datasets/number_impressions': async (route) => {
    const reply = await as(b, 'GET', `${route.path}?category=ring_pool`);
    expect(reply.status, reply.text).toBe(200);
    expectNothingOfA(reply, routeKey(route));
  },
  'GET /api/v1/impressions': async (route) => {
    const reply = await as(b, 'GET', `${route.path}?ring_pool_id=${aOnlyRecord('ring_pools').id}`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.impressions).toEqual([]);
    await expectCursorRefused(route.path, routeKey(route));
  },
  'GET /api/v1/dnc_check_logs': async (route) => {
    // A's two lead intakes are two checks of A's (one of A's blacklisted caller).
    await aLeadRows();
    expect((await as(a, 'GET', `${route.path}?caller_number=${encodeURIComponent(A_CALLER)}&source=lead`)).body.dnc_check_logs.length).toBeGreaterThan(0);
    expectNothingOfA(await as(b, 'GET', route.path), routeKey(route));
    const reply = await as(b, 'GET', `${route.path}?caller_number=${encodeURIComponent(A_CALLER)}`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.dnc_check_logs).toEqual([]);
    await expectCursorRefused(route.path, routeKey(route), true);
  },
};

describe('every basic-auth route, called by another company', () => {
  it('is probed here or exempt with a reason (a new route fails this until it is)', () => {
    const missing = basicRoutes
      .map(routeKey)
      .filter((key) => !(baseKey(key) in EXEMPT) && !(baseKey(key) in BEHAVIOUR_PROBES) && !resourceOf(routes.find((route) => routeKey(route) === key)!));
    expect(missing).toEqual([]);
    // Every resource that can be created has a payload, so its routes are probed with records.
    expect(creatable.map((resource) => resource.name).filter((name) => !(name in PAYLOADS))).toEqual([]);
    for (const key of Object.keys(EXEMPT)) expect(basicRoutes.map(routeKey)).toContain(key);
  });

  for (const route of basicRoutes) {
    const key = routeKey(route);
    if (baseKey(key) in EXEMPT || (isTwin(route) && route.method !== 'GET')) continue;
    it(`${key} shows B nothing of A and changes nothing of A`, async () => {
      const probe = BEHAVIOUR_PROBES[baseKey(key)];
      const resource = resourceOf(route);
      if (probe) await probe(route);
      else if (resource) await probeResourceRoute(route, resource);
      else throw new Error(`${key} is neither probed nor exempt`);
    });
  }
});

/**
 * The same probes with B's member token (docs/permissions.md): every read, and the resource
 * routes' updates and deletes, which name A's records only. Creates and the other writes stay
 * with the key pair's pass: a second pass would make B's records past the ids A alone has.
 */
const memberProbed = basicRoutes.filter((route) => {
  const key = routeKey(route);
  // A `.json` twin is its base route's operation, probed under the base route's key.
  if (key in EXEMPT || isTwin(route)) return false;
  if (route.method === 'GET') return true;
  const resource = resourceOf(route);
  return !(key in BEHAVIOUR_PROBES) && resource !== undefined && ['update', 'delete'].includes(route.operation.slice(resource.name.length + 1));
});

describe("every basic-auth read and resource write, called by another company's member", () => {
  beforeAll(async () => {
    const everything = Object.fromEntries(PERMISSION_GROUPS.map((group) => [group, { actions: [...PERMISSION_ACTIONS] }]));
    bMemberToken = (await memberWith(gateway, b.company, everything, 'tenant-b')).authToken;
  });

  it('covers most basic routes', () => {
    expect(memberProbed.length).toBeGreaterThan(basicRoutes.length / 2);
  });

  for (const route of memberProbed) {
    const key = routeKey(route);
    it(`${key} shows B's member nothing of A and changes nothing of A`, async () => {
      bAsMember = true;
      try {
        const probe = BEHAVIOUR_PROBES[key];
        const resource = resourceOf(route);
        if (probe) await probe(route);
        else await probeResourceRoute(route, resource!);
      } finally {
        bAsMember = false;
      }
    });
  }
});

/** Routes without credentials (`auth: 'none'`): nothing they answer may come from a company. */
const publicRoutes = routes.filter((route) => route.auth === 'none');

/**
 * Public routes that answer only for a company's public key in the query: called bare, they refuse.
 * The number lookup answers for an offer's offer_token (a page of that offer shows its numbers);
 * test/api/number-lookup.test.ts shows it answers only that offer's numbers.
 */
const REFUSED_WITHOUT_KEY: Record<string, number> = { 'GET /api/v1/numbers.json': 422 };

describe('every public route, called without credentials', () => {
  /** The values their path parameters are called with: A's where A has one. */
  const pathValues: Record<string, string> = {};
  /** A path parameter's value for one route, where routes share a parameter's name (by route key). */
  const routeValues: Record<string, Record<string, string>> = {};
  /** The bodies of the public routes that take one (by route key). */
  const bodies: Record<string, string> = {};
  beforeAll(async () => {
    routeValues['GET /app/assets/{name}'] = { name: /\/app\/assets\/([\w.-]+)/.exec((await call(gateway, { path: '/app' })).text)![1]! };
    pathValues.vanity_uri = a.made.inbound_webhooks![0]!.vanity_uri as string;
    pathValues.name = /\/docs\/assets\/([\w.-]+)/.exec((await call(gateway, { path: '/docs' })).text)![1]!;
    // A sound file's playback token is never shown by the API (the carrier gets it in <Play> URLs): read from the table.
    pathValues.token = (await getRecord(a.company.id, 'sound_files', a.made.sound_files![0]!.id))!.playback_token as string;
    // An upload import's URL is shown once, by its create: A makes one, whose file the route then takes.
    const file = `phone,first_name\n+13035569999,${A_MARK()}`;
    const upload = await as(a, 'POST', '/api/v1/contact_imports', { source: 'upload', file_size: Buffer.byteLength(file) });
    pathValues.upload_token = /uploads\/([\w-]+)$/.exec(upload.body.contact_import.upload_url as string)![1]!;
    bodies['PUT /api/v1/contact_imports/uploads/{upload_token}'] = file;
  });

  it('has a value for every path parameter (a new public route fails this until it has)', () => {
    const names = publicRoutes.flatMap((route) => [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!));
    expect(names.filter((name) => !(name in pathValues))).toEqual([]);
  });

  for (const route of publicRoutes) {
    it(`${routeKey(route)} answers without showing anything of A`, async () => {
      const path = route.path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(routeValues[routeKey(route)]?.[name] ?? pathValues[name] ?? ''));
      const body = bodies[routeKey(route)];
      const reply = await call(gateway, { method: route.method, path, ...(body === undefined ? {} : { rawBody: body, headers: { 'content-type': 'text/csv' } }) });
      const refused = REFUSED_WITHOUT_KEY[routeKey(route)];
      if (refused) expect(reply.status, reply.text.slice(0, 300)).toBe(refused);
      else expect(reply.status, reply.text.slice(0, 300)).toBeLessThan(400);
      expectNothingOfA(reply, routeKey(route));
    });
  }
});

describe('keyed state stays with its company', () => {
  it('counts rate limits per company even for webhooks of the same id', async () => {
    const [aHook, bHook] = [a.made.inbound_webhooks![0]!, b.made.inbound_webhooks![0]!];
    expect(aHook.id).toBe(bHook.id);
    const caller = newCaller();
    expect((await ping(aHook.vanity_uri, caller)).status).toBe(200);
    expect((await ping(aHook.vanity_uri, caller)).status).toBe(429);
    expect((await ping(bHook.vanity_uri, caller)).status).toBe(200);
  });

  it("does not route a caller to a number reserved in another company", async () => {
    const caller = newCaller();
    const webhook = a.made.inbound_webhooks![1]!;
    const pinged = (await ping(webhook.vanity_uri, caller)).body;
    const posted = await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/post/${webhook.vanity_uri}`, json: { ping_id: pinged.try_all_buyers_ping_id, caller_id: caller } });
    expect(posted.status, posted.text).toBe(200);
    const intoB = await callInto(b, caller);
    expect(intoB.outcome).toBe('completed');
    expect(intoB.dialed).toEqual([b.made.buyers![0]!.number]);
  });

  it("does not block a caller that another company blacklisted", async () => {
    const caller = newCaller();
    expect((await as(a, 'POST', `/api/v1/contacts/${encodeURIComponent(caller)}/caller_block`)).status).toBe(200);
    expect((await callInto(a, caller)).outcome).toBe('rejected');
    expect((await callInto(b, caller)).outcome).toBe('completed');
    const webhook = await createThrough(gateway, b.company, '/api/v1/inbound_webhooks', { vanity_uri: `${b.mark}-open`, offer_id: b.made.offers![0]!.id });
    const pinged = await ping(webhook.vanity_uri, caller);
    expect(pinged.body, pinged.text).toMatchObject({ success: true });
  });

  it("pays a caller's conversion in one company whatever they converted in another (duplicate timeframe)", async () => {
    const caller = newCaller();
    const inA = await callInto(a, caller, 90);
    const inB = await callInto(b, caller, 90);
    const paid = async (world: World, result: SimulationResult) => (await as(world, 'GET', `/api/v1/calls/${result.callId}`)).body.call;
    expect(await paid(a, inA)).toMatchObject({ buyer_converted: true, revenue: 20, offer_converted: true, payout: 5 });
    expect(await paid(b, inB)).toMatchObject({ buyer_converted: true, revenue: 20, offer_converted: true, payout: 5 });
    // Within A the same caller is a duplicate now: the history is A's own.
    expect(await paid(a, await callInto(a, caller, 90))).toMatchObject({ buyer_converted: false, revenue: 0 });
  });
});

describe('every CSV list of the registry', () => {
  // The company's records as CSV equal its JSON list, row by row: CSV is generated from the
  // registry, so a resource declared `csv` answers it with every column (docs/resources.md).
  const csvResources = resources.filter((resource) => resource.csv && resource.operations.includes('list') && (PAYLOADS[resource.name] || MADE_BY_CARRIER.has(resource.name) || MADE_BY_SERVICE.has(resource.name) || MADE_BY_EXPORTS.has(resource.name)));
  it.each(csvResources.map((resource) => [resource.name, resource] as const))('%s.csv holds the rows of the JSON list', async (name, resource) => {
    const json = await as(a, 'GET', `/api/v1/${name}?columns=id&per_page=100`);
    expect(json.status, json.text).toBe(200);
    const ids = (json.body[resource.plural] as Row[]).map((row) => String(row.id));
    expect(ids.length, `${name} has records of A to compare`).toBeGreaterThan(0);
    const reply = await as(a, 'GET', `/api/v1/${name}.csv?per_page=100`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...rows] = parseCsv(reply.text) as string[][];
    expect(header).toContain('id');
    expect(header!.length).toBeGreaterThan(5);
    expect(rows.map((row) => row[header!.indexOf('id')])).toEqual(ids);
  });
});
