import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { isJsonTwin } from '../../shared/http/format-suffix.js';
import { routeKey, routes, type RouteDefinition } from '../../shared/http/routes.js';
import { resources } from '../../shared/resources/registry.js';
import { twilioSignature } from '../../shared/voice/twilio-signature.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { useCapturedLogs } from '../fixtures/log-capture.js';
import { authorizationArbitrary, bodyArbitrary, fillPath, knownPathValues, pathParamFor, pathParamNames, plausibleValues, queryArbitrary } from '../fixtures/hostile.js';
import { createThrough } from '../fixtures/records.js';
import { newCallSid, VOICE_TOKEN } from '../fixtures/voice.js';
import { createMember, memberWith } from '../fixtures/members.js';
import { PERMISSION_GROUPS } from '../../shared/auth/permission-catalog.js';
import { PERMISSION_ACTIONS } from '../../shared/auth/permissions.js';


/**
 * Property-based fuzzing of every route in the route table, generated from it so a new route is
 * covered without a line here: hostile path parameters, query strings, bodies and headers must
 * never produce a 5xx, every 4xx must carry a JSON `errors` body, and the service must still
 * answer a normal request afterwards. `FUZZ_RUNS` sets the cases per route (`npm run fuzz`).
 */
/**
 * Default cases per route: a fixed budget for the whole table (at least 15 per route), so `npm
 * test` does not grow with every endpoint added; `npm run fuzz` runs 400 per route.
 */
const FUZZ_BUDGET = 8_000;
/** A `.json` twin shares its route's operation, parameters and handler (shared/http/format-suffix.ts): a few cases prove it is reached. */
const TWIN_RUNS = 3;
const ownRoutes = routes.filter((route) => !isJsonTwin(route));
const RUNS = Number(process.env.FUZZ_RUNS ?? Math.max(15, Math.floor((FUZZ_BUDGET - TWIN_RUNS * (routes.length - ownRoutes.length)) / ownRoutes.length)));
const runsOf = (route: RouteDefinition) => (process.env.FUZZ_RUNS === undefined && isJsonTwin(route) ? TWIN_RUNS : RUNS);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
/** `FUZZ_STATS=1` prints how often each route answered each status, to see how deep the fuzz reaches. */
const STATS = process.env.FUZZ_STATS === '1';

// The service logs its errors in this file (before any module makes the logger): a 5xx's failure
// quotes what the error handler logged for that request, so a rare one names its cause.
vi.hoisted(() => {
  process.env.LOG_LEVEL = 'error';
});

const gateway = useGateway();
const logs = useCapturedLogs('ERROR');

/** The error the service logged for a request (by the request id its 5xx answer carries): name, message and where in our code. */
function loggedError(requestId: unknown): string {
  const line = logs.lines().findLast((candidate) => candidate.function_request_id === requestId) ?? logs.lines().at(-1);
  const error = line?.error;
  if (!error) return 'nothing logged';
  const frames = String(error.stack ?? '').split('\n').slice(1);
  const ours = frames.filter((frame) => !frame.includes('/node_modules/') && !frame.includes('node:internal'));
  return `${line.message}: ${error.name}: ${error.message}\n${(ours.length ? ours : frames).slice(0, 5).join('\n')}`;
}

/** Parameter names the fuzzer aims at: every field a resource declares, plus the shared ones. */
const FIELD_NAMES = [
  ...new Set([
    ...resources.flatMap((resource) => [...Object.keys(resource.defaults), ...resource.columns, ...Object.keys(resource.filters ?? {})]),
    ...['ids', 'page', 'per_page', 'cursor', 'order', 'order_dir', 'root', 'created_at_from', 'created_at_to', 'fulltext', 'time_zone', 'serializer', 'format', 'columns'],
    ...['auth_token', 'caller_id', 'ping_id', 'traffic_source_id', 'data', 'target_url', 'email', 'number', 'vanity_uri', 'user_buyer_id', 'digits', 'key_press'],
    ...['CallSid', 'From', 'To', 'CallStatus', 'DialCallStatus', 'DialCallDuration', 'CallDuration', 'Digits', 'company', 'call', 'attempt'],
  ]),
];

let company: TestCompany;
/**
 * Members' auth_tokens that a third of the cases on basic routes use instead of the key pair
 * (docs/permissions.md): one whose team grants everything (so the fuzz reaches as deep as the key
 * pair's) and a buyer team member (their buyer's records only, 404 or 403 for the rest).
 */
const memberTokens: string[] = [];

/** A resource route's own writable fields and filters, which the fuzzer aims at first. */
function ownFields(route: RouteDefinition): string[] {
  const resource = resources.find((candidate) => route.operation.startsWith(`${candidate.name}.`));
  return resource ? [...Object.keys(resource.defaults), ...Object.keys(resource.filters ?? {})] : [];
}

/**
 * A company with one record of the main resources and a finished call, so fuzzed paths name
 * records that exist and requests reach past the lookups; their ids, names and numbers become
 * plausible values for the generators.
 */
async function seedWorld(): Promise<void> {
  company = await createTestCompany('fuzz');
  const vanity = `fuzz-${randomUUID().slice(0, 8)}`;
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Fuzz buyer', number: '+12125550199', user_buyer_id: 'fuzz-buyer', concurrency_cap: 5 });
  const source = await createThrough(gateway, company, '/api/v1/traffic_sources', { name: 'Fuzz source' });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Fuzz offer', buyer_ids: [buyer.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: vanity, offer_id: offer.id });
  await createThrough(gateway, company, '/api/v1/subscriptions', { target_url: 'https://example.com/hook', event: 'call_ended' });
  await createThrough(gateway, company, '/api/v1/buyer_groups/1', { name: 'Fuzz group', buyer_ids: [buyer.id] });
  const done = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: '+14155552671', to: String(number.number), buyers: [{ answer: true, answerAfter: 2, talk: 30 }], callSid: newCallSid() });
  const shown = await call(gateway, { path: `/api/v1/calls/${done.callId}`, authorization: company.authorization });
  const uuid = String(shown.body?.call?.uuid ?? '');
  // A schedule with a wait and a lead in it, so lead routes reach past their token and id lookups.
  const schedule = await createThrough(gateway, company, '/api/v1/schedules', { name: 'Fuzz schedule', offer_id: offer.id });
  await createThrough(gateway, company, '/api/v1/schedule_actions', { schedule_id: schedule.id, owner_relation: 'actions', action_type: 'wait', action_wait_type: 'hours', wait_hours: 1 });
  const submitted = await call(gateway, { method: 'POST', path: '/api/v1/leads', json: { lead_token: schedule.lead_token, caller_id: '+14155552671', first_name: 'Fuzz' } });
  const lead = submitted.body?.lead ?? {};
  const everything = Object.fromEntries(PERMISSION_GROUPS.map((group) => [group, { actions: [...PERMISSION_ACTIONS] }]));
  const buyerTeam = await createMember(company.id, 'fuzz-buyer-team');
  await call(gateway, { method: 'PUT', path: `/api/v1/buyers/${buyer.id}`, authorization: company.authorization, json: { generate_team: true, team_users_emails: [buyerTeam.email], team_offer_ids: [offer.id] } });
  memberTokens.push((await memberWith(gateway, company, everything, 'fuzz-everything')).authToken, buyerTeam.authToken);
  plausibleValues.push(vanity, 'fuzz-buyer', String(number.number), String(buyer.id), String(source.id), String(offer.id), String(done.callId), uuid, String(schedule.lead_token), String(lead.id), String(lead.uuid));
  Object.assign(knownPathValues, {
    id: ['1', String(buyer.id), String(offer.id), String(done.callId), uuid, String(schedule.id), String(lead.id), String(lead.uuid)],
    lead_token: [String(schedule.lead_token), String(offer.lead_token)],
    vanity_uri: [vanity],
    user_buyer_id: ['fuzz-buyer'],
    caller_number: ['+14155552671', '4155552671'],
    caller_id: ['+14155552671'],
    uuid: [uuid],
    type: ['time_zone'],
    // The reference page's scripts, so the asset route reaches past its name check.
    name: [...(await call(gateway, { path: '/docs' })).text.matchAll(/\/docs\/assets\/([\w.-]+)/g)].map((match) => match[1]!),
  });
}

async function send(route: RouteDefinition, parts: { path: string; query: string; body?: { text: string; contentType?: string }; authorization?: string; extraHeaders: Record<string, string> }) {
  const url = `${parts.path}${parts.query ? `?${parts.query}` : ''}`;
  const headers: Record<string, string> = { ...parts.extraHeaders };
  if (parts.authorization !== undefined) headers.authorization = parts.authorization;
  if (parts.body?.contentType) headers['content-type'] = parts.body.contentType;
  if (route.auth === 'carrier') {
    // Signed as the carrier would, so the fuzz reaches past the signature check.
    const fields = parts.body?.contentType === 'application/x-www-form-urlencoded' ? Object.fromEntries(new URLSearchParams(parts.body.text)) : {};
    headers['x-twilio-signature'] = twilioSignature(VOICE_TOKEN, `${gateway.baseUrl}${url}`, fields);
  }
  const hasBody = parts.body !== undefined && route.method !== 'GET';
  return call(gateway, { method: route.method, path: url, headers, ...(hasBody ? { rawBody: parts.body!.text } : {}) });
}

const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  fc.constant({}),
  fc.constantFrom<Record<string, string>>(
    { 'content-type': 'application/json; charset=utf-16' },
    { 'x-forwarded-proto': 'gopher' },
    { host: 'x'.repeat(200) },
    { 'x-twilio-signature': '' },
    { accept: 'text/csv' },
  ),
);

function caseArbitrary(route: RouteDefinition) {
  return fc.record({
    pathValues: fc.tuple(...pathParamNames(route).map(pathParamFor)),
    query: queryArbitrary(FIELD_NAMES, ownFields(route)),
    body: bodyArbitrary(FIELD_NAMES, ownFields(route)),
    authorization: route.auth === 'basic' ? authorizationArbitrary(company.authorization) : fc.constant(undefined),
    memberToken: route.auth === 'basic' ? fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...memberTokens) }) : fc.constant(undefined),
    extraHeaders,
  });
}

const METHOD_RANK: Record<string, number> = { OPTIONS: 0, GET: 1, POST: 2, PUT: 3, DELETE: 4 };

/** Reads before writes and deletes last, so the seeded records still exist for most routes. */
function fuzzOrder(table: readonly RouteDefinition[]): RouteDefinition[] {
  return [...table].sort((a, b) => METHOD_RANK[a.method]! - METHOD_RANK[b.method]!);
}

describe('route-table fuzz', () => {
  beforeAll(seedWorld);

  it('covers every route of the route table', () => {
    expect(routes.length).toBeGreaterThan(100);
  });

  it.each(fuzzOrder(routes).map((route) => [routeKey(route), route] as const))('%s never answers 5xx to hostile input', async (_key, route) => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(caseArbitrary(route), async (input) => {
        // A member's token goes in the query string, in place of the key pair.
        const query = input.memberToken ? [input.query, `auth_token=${input.memberToken}`].filter(Boolean).join('&') : input.query;
        const authorization = input.memberToken ? undefined : input.authorization;
        logs.clear();
        const reply = await send(route, { path: fillPath(route, input.pathValues), query, body: input.body, authorization, extraHeaders: input.extraHeaders });
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        expect(reply.status, reply.status >= 500 ? `${reply.text.slice(0, 300)}\nlogged: ${loggedError(reply.body?.metadata?.request_id)}` : reply.text.slice(0, 500)).toBeLessThan(500);
        if (reply.status >= 400) {
          expect(reply.body, reply.text.slice(0, 300)).toBeTypeOf('object');
          expect(reply.body.errors, reply.text.slice(0, 300)).toBeTypeOf('object');
        }
      }),
      {
        numRuns: runsOf(route),
        seed: SEED,
        endOnFailure: true,
        // A short report: the failing answer and the input that caused it, cut to a readable size.
        reporter: (details) => {
          if (!details.failed) return;
          const input = JSON.stringify(details.counterexample?.[0], (_key, value: unknown) => (typeof value === 'string' && value.length > 120 ? `${value.slice(0, 120)}…(${value.length})` : value));
          throw new Error(`seed ${details.seed}: ${String(details.errorInstance).slice(0, 1500)}\ninput: ${input?.slice(0, 1500)}`);
        },
      },
    );
    if (STATS) console.log(`${routeKey(route)} ${JSON.stringify(Object.fromEntries(statuses))}`);
    // Still serving a normal request afterwards.
    const healthy = await call(gateway, { path: '/api/v1/offers', authorization: company.authorization });
    expect(healthy.status).toBe(200);
  });
});
