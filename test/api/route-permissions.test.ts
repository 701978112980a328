import { beforeAll, describe, expect, it } from 'vitest';
import { missingPermission, PERMISSION_ACTIONS, type PermissionAction } from '../../shared/auth/permissions.js';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { routeKey, routes, type RouteDefinition } from '../../shared/http/routes.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway, type ApiReply } from '../fixtures/gateway.js';
import { fillPath, pathParamNames } from '../fixtures/hostile.js';
import { createMember, inBatches, memberWith, withToken, type TestMember } from '../fixtures/members.js';
import { createThrough } from '../fixtures/records.js';
import { newCallSid, VOICE_TOKEN } from '../fixtures/voice.js';

/**
 * Every basic-auth route of the route table, called by four credentials and answered as
 * docs/permissions.md says:
 * - a member with no permissions: 403 naming the route's permission (any credential: the
 *   company-wide routes);
 * - a member granted only the route's action (on every group, so one member per action): past
 *   the check (never 401 or 403; a 404 for the absent id it names, a 422 for the empty body, or
 *   the answer), while the 403 above names the exact group and action the route declares;
 * - a buyer team member (no team): their own buyer's and calls' routes answer, another method of
 *   those paths is a 403, every other route a 404;
 * - another company's admin: never 401 or 403, and a 404 for this company's buyer and call.
 * The table drives it: a route added later is called without a line here, and one whose
 * permission is not declared fails. One company, one setup; requests go a batch at a time.
 */
const gateway = useGateway();

/** Each credential's pass over the table (about 500 requests; a few seconds on an idle machine). */
const TABLE_TIMEOUT_MS = 180_000;
/** Requests in flight at once. */
const BATCH = 8;
/** An id no record of the test has: a route the member may use then answers 404, and changes nothing. */
const ABSENT_ID = '999999999';

const basicRoutes = routes.filter((route): route is RouteDefinition & { auth: 'basic' } => route.auth === 'basic');
const permissionKey = (route: RouteDefinition & { auth: 'basic' }) => (route.permission === 'company' ? 'company' : `${route.permission.group} ${route.permission.action}`);
/** Paths some method of which buyer teams may use. */
const buyerTeamPaths = new Set(basicRoutes.filter((route) => route.permission !== 'company' && route.permission.buyerTeam).map((route) => route.path));

let company: TestCompany;
let other: TestCompany;
let nobody: TestMember;
let buyerTeamMember: TestMember;
/** One member per action, whose only team grants that action and no other, on every group. */
const grantedOnly = new Map<PermissionAction, TestMember>();
let buyerId = 0;
let callId = 0;

beforeAll(async () => {
  [company, other] = await Promise.all([createTestCompany('perm-table'), createTestCompany('perm-table-other')]);
  [nobody, buyerTeamMember] = await Promise.all([createMember(company.id, 'nobody'), createMember(company.id, 'buyer-team')]);
  // Buyers before the team's, so its id is not one the other company's first buyer (made by its create route) has.
  for (const index of [1, 2, 3]) await createThrough(gateway, company, '/api/v1/buyers', { name: `Filler ${index}` });
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Team buyer', number: '+12125550142', concurrency_cap: 5 });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Team offer', buyer_ids: [buyer.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  const invited = await call(gateway, {
    method: 'PUT',
    path: `/api/v1/buyers/${buyer.id}`,
    authorization: company.authorization,
    json: { generate_team: true, team_users_emails: [buyerTeamMember.email], team_offer_ids: [offer.id] },
  });
  expect(invited.status, invited.text).toBe(200);
  buyerId = buyer.id;
  callId = Number((await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: '+14155550142', to: String(number.number), buyers: [{ answer: true, answerAfter: 1, talk: 40 }], callSid: newCallSid() })).callId);
  expect(callId).toBeGreaterThan(0);
  const groups = [...new Set(basicRoutes.flatMap((route) => (route.permission === 'company' ? [] : [route.permission.group])))];
  await Promise.all(
    PERMISSION_ACTIONS.map(async (action) => {
      grantedOnly.set(action, await memberWith(gateway, company, Object.fromEntries(groups.map((group) => [group, { actions: [action] }])), `only-${action}`));
    }),
  );
}, 120_000);

/** The route's path: `ids` for the path parameters it names, the absent id for the others. */
function pathOf(route: RouteDefinition, ids: Record<string, string> = {}): string {
  return fillPath(route, pathParamNames(route).map((name) => ids[name] ?? ABSENT_ID));
}

function send(route: RouteDefinition, path: string, credentials: { token?: string; authorization?: string }): Promise<ApiReply> {
  const hasBody = route.method === 'POST' || route.method === 'PUT';
  return call(gateway, {
    method: route.method,
    path: credentials.token ? withToken(path, credentials.token) : path,
    ...(credentials.authorization ? { authorization: credentials.authorization } : {}),
    ...(hasBody ? { json: {} } : {}),
  });
}

/** The ids a buyer team member's own records have, for the routes open to them. */
function ownIds(route: RouteDefinition & { auth: 'basic' }): Record<string, string> {
  if (route.permission === 'company') return {};
  if (route.permission.group === 'buyers') return { id: String(buyerId) };
  if (route.permission.group === 'calls') return { id: String(callId) };
  return {};
}

interface Expectation {
  /** Statuses the answer may have. */
  allowed?: readonly number[];
  /** Statuses it must not have. */
  refused?: readonly number[];
  base?: string;
}

function check(route: RouteDefinition, who: string, reply: ApiReply, expected: Expectation): string | undefined {
  const problem =
    reply.status >= 500
      ? 'a 5xx'
      : expected.allowed && !expected.allowed.includes(reply.status)
        ? `not one of ${expected.allowed.join(', ')}`
        : expected.refused?.includes(reply.status)
          ? `one of ${expected.refused.join(', ')}`
          : expected.base !== undefined && !reply.body?.errors?.base?.includes(expected.base)
            ? `errors.base without "${expected.base}"`
            : undefined;
  return problem && `${routeKey(route)} as ${who}: ${reply.status} is ${problem}: ${reply.text.slice(0, 200)}`;
}

/** Calls every basic route as `who` and collects each answer that is not as documented. */
async function mismatches(who: string, probe: (route: RouteDefinition & { auth: 'basic' }) => Promise<string | undefined>): Promise<string[]> {
  const found = await inBatches(basicRoutes, BATCH, probe);
  return found.filter((problem): problem is string => problem !== undefined);
}

describe('every basic route, for each kind of credential', () => {
  it('declares a permission (a route without one fails here)', () => {
    expect(basicRoutes.length).toBeGreaterThan(400);
    const undeclared = basicRoutes.filter((route) => route.permission === undefined || (route.permission !== 'company' && (!route.permission.group || !route.permission.action)));
    expect(undeclared.map(routeKey)).toEqual([]);
    // Company-wide routes are few and named: reference data no team owns, and the caller's own company.
    expect(basicRoutes.filter((route) => route.permission === 'company').map(routeKey)).toEqual(['GET /api/v1/collections/{type}', 'GET /api/v1/company', 'GET /api/v1/company.json']);
  });

  it('refuses a member without permissions with a 403 naming the permission', async () => {
    const problems = await mismatches('a member without permissions', async (route) => {
      const reply = await send(route, pathOf(route), { token: nobody.authToken });
      if (route.permission === 'company') return check(route, 'a member without permissions', reply, { refused: [401, 403] });
      return check(route, 'a member without permissions', reply, { allowed: [403], base: missingPermission(route.permission.group, route.permission.action) });
    });
    expect(problems).toEqual([]);
  }, TABLE_TIMEOUT_MS);

  it('lets a member whose team grants only that action past the check', async () => {
    const problems = await mismatches('a member with only that permission', async (route) => {
      const member = route.permission === 'company' ? nobody : grantedOnly.get(route.permission.action);
      if (!member) return `${routeKey(route)}: no member for ${permissionKey(route)}`;
      return check(route, `a member with only ${permissionKey(route)}`, await send(route, pathOf(route), { token: member.authToken }), { refused: [401, 403] });
    });
    expect(problems).toEqual([]);
  }, TABLE_TIMEOUT_MS);

  it("answers a buyer team member on their own buyer's routes only, as if the others did not exist", async () => {
    const problems = await mismatches('a buyer team member', async (route) => {
      const who = 'a buyer team member';
      if (route.permission === 'company') return check(route, who, await send(route, pathOf(route), { token: buyerTeamMember.authToken }), { refused: [401, 403] });
      if (route.permission.buyerTeam) {
        const reply = await send(route, pathOf(route, ownIds(route)), { token: buyerTeamMember.authToken });
        // Their own records answer; an update with nothing in it is a 422.
        return check(route, who, reply, { allowed: route.method === 'GET' ? [200] : [200, 422] });
      }
      const reply = await send(route, pathOf(route, ownIds(route)), { token: buyerTeamMember.authToken });
      return buyerTeamPaths.has(route.path)
        ? check(route, who, reply, { allowed: [403], base: missingPermission(route.permission.group, route.permission.action) })
        : check(route, who, reply, { allowed: [404] });
    });
    expect(problems).toEqual([]);
  }, TABLE_TIMEOUT_MS);

  it("answers another company's admin as any admin of theirs, with this company's buyer and call not found", async () => {
    const problems = await mismatches("another company's admin", async (route) => {
      const ours = route.path.startsWith('/api/v1/buyers/{id}') || route.path.startsWith('/api/v1/calls/{id}');
      const reply = await send(route, pathOf(route, ours ? ownIds(route) : {}), { authorization: other.authorization });
      return check(route, "another company's admin", reply, ours ? { allowed: [404] } : { refused: [401, 403] });
    });
    expect(problems).toEqual([]);
  }, TABLE_TIMEOUT_MS);
});
