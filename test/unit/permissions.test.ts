import { describe, expect, it } from 'vitest';
import { CHANGEABLE_FIELDS } from '../../functions/calls/call-changes.js';
import { assertFieldsGranted, assertSees, authorize, teamSeesCall } from '../../shared/auth/authorize.js';
import { normalizedPermissions, PERMISSION_GROUPS, permissionProblems, writableFieldsOf } from '../../shared/auth/permission-catalog.js';
import { ADMIN, mayUseOffer, needs, teamsAllow, unionOf, type Access, type BuyerTeam, type Permissions } from '../../shared/auth/permissions.js';
import { isAdminUser } from '../../shared/auth/access.js';
import { CALL_WRITABLE_FIELDS } from '../../shared/calls/call-writable-fields.js';
import { HttpError } from '../../shared/http/errors.js';
import { routeKey, routes } from '../../shared/http/routes.js';

const member = (permissions: Permissions, buyerTeams: BuyerTeam[] = []): Access => ({ kind: 'member', userId: 7, email: 'm@example.com', permissions, buyerTeams });

/** The status and body an authorisation throws, or the grant it returns. */
function outcome(run: () => unknown): { status: number; errors: Record<string, string[]> } | 'granted' {
  try {
    run();
    return 'granted';
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { status: error.statusCode, errors: error.toJSON().errors };
  }
}

describe('the route table declares what every route needs', () => {
  it('gives every basic route a permission group and action, and no other route one', () => {
    const undeclared = routes.filter((route) => route.auth === 'basic' && (route.permission === undefined || (route.permission !== 'company' && !(route.permission.group && route.permission.action))));
    expect(undeclared.map(routeKey)).toEqual([]);
    expect(routes.filter((route) => route.auth !== 'basic' && route.permission !== undefined).map(routeKey)).toEqual([]);
  });

  it('derives resource routes from their CRUD operation, and opens only the declared ones to buyer teams', () => {
    const permissionOf = (key: string) => routes.find((route) => routeKey(route) === key)?.permission;
    expect(permissionOf('GET /api/v1/offers')).toEqual({ group: 'offers', action: 'list' });
    expect(permissionOf('GET /api/v1/offers/new')).toEqual({ group: 'offers', action: 'create' });
    expect(permissionOf('DELETE /api/v1/offer_conversions/{id}')).toEqual({ group: 'offer_conversions', action: 'delete' });
    expect(permissionOf('PUT /api/v1/buyers/{id}')).toEqual({ group: 'buyers', action: 'update', buyerTeam: true });
    expect(permissionOf('DELETE /api/v1/buyers/{id}')).toEqual({ group: 'buyers', action: 'delete' });
    expect(permissionOf('POST /api/v1/calls/{id}')).toEqual(needs('calls', 'update', { buyerTeam: true }));
    const openToBuyerTeams = routes.filter((route) => route.auth === 'basic' && route.permission !== 'company' && route.permission.buyerTeam).map(routeKey);
    expect(openToBuyerTeams.sort()).toEqual(
      [
        'GET /api/v1/buyers',
        'GET /api/v1/buyers.csv',
        'GET /api/v1/buyers.json',
        'GET /api/v1/buyers/{id}',
        'PUT /api/v1/buyers/{id}',
        'GET /api/v1/calls',
        'GET /api/v1/calls.csv',
        'GET /api/v1/calls.json',
        'GET /api/v1/calls/{id}',
        'POST /api/v1/calls/{id}',
        // The buyers' conversion postback by the call's uuid (docs/permissions.md, docs/compatibility.md).
        'POST /api/v1/calls/update_call/{id}',
      ].sort(),
    );
  });

  it('makes every declared group grantable', () => {
    expect(PERMISSION_GROUPS).toContain('calls');
    expect(PERMISSION_GROUPS).toContain('offers');
    expect(PERMISSION_GROUPS).toContain('change_logs');
    expect(PERMISSION_GROUPS).not.toContain('company');
  });

  it("keeps the calls' writable fields the same as the fields a call update accepts", () => {
    expect([...CALL_WRITABLE_FIELDS].sort()).toEqual([...CHANGEABLE_FIELDS].sort());
  });
});

describe('unionOf', () => {
  it('joins actions and fields; a team that limits no field lifts the limit', () => {
    expect(unionOf([{ calls: { actions: ['show'], fields: ['revenue'] } }, { calls: { actions: ['update', 'show'], fields: ['buyer_converted'] }, leads: { actions: ['list'] } }])).toEqual({
      calls: { actions: ['show', 'update'], fields: ['revenue', 'buyer_converted'] },
      leads: { actions: ['list'] },
    });
    expect(unionOf([{ calls: { actions: ['update'], fields: ['revenue'] } }, { calls: { actions: ['update'] } }])).toEqual({ calls: { actions: ['update'] } });
    expect(unionOf([])).toEqual({});
  });
});

describe('authorize', () => {
  const team: BuyerTeam = { buyerId: 5, offerIds: [10], editCaps: false };

  it('lets key pairs, admins and company-wide routes through without limits', () => {
    expect(authorize(needs('offers', 'delete'), ADMIN, false)).toEqual({});
    expect(authorize('company', member({}), false)).toEqual({});
  });

  it('refuses a member without the permission with a 403 naming it', () => {
    expect(outcome(() => authorize(needs('offers', 'delete'), member({ offers: { actions: ['list', 'show'] } }), false))).toEqual({ status: 403, errors: { base: ['needs the offers delete permission'] } });
    expect(outcome(() => authorize(needs('offers', 'list'), member({}), false))).toEqual({ status: 403, errors: { base: ['needs the offers list permission'] } });
  });

  it("grants a member's team permission with its fields", () => {
    const grant = authorize(needs('calls', 'update'), member({ calls: { actions: ['update'], fields: ['revenue'] } }), false);
    expect(grant.sees).toBeUndefined();
    expect(grant.fields?.(undefined)).toEqual(['revenue']);
    expect(authorize(needs('calls', 'update'), member({ calls: { actions: ['update'] } }), false)).toEqual({});
  });

  it('gives a buyer team member their own records on open routes, a 403 on other methods of those paths and a 404 elsewhere', () => {
    const buyerTeam = member({}, [team]);
    const grant = authorize(needs('buyers', 'update', { buyerTeam: true }), buyerTeam, true);
    expect(grant.sees?.({ id: 5 })).toBe(true);
    expect(grant.sees?.({ id: 6 })).toBe(false);
    expect(grant.fields?.({ id: 5 })).toEqual(['paused']);
    expect(outcome(() => authorize(needs('buyers', 'delete'), buyerTeam, true))).toEqual({ status: 403, errors: { base: ['needs the buyers delete permission'] } });
    expect(outcome(() => authorize(needs('offers', 'list'), buyerTeam, false))).toMatchObject({ status: 404 });
    // A route not open to buyer teams stays closed even in their groups.
    expect(outcome(() => authorize(needs('calls', 'list'), buyerTeam, false))).toMatchObject({ status: 404 });
  });

  it('lets a buyer team change caps only when the company allows it for that buyer', () => {
    const grant = authorize(needs('buyers', 'update', { buyerTeam: true }), member({}, [team, { buyerId: 6, offerIds: [], editCaps: true }]), true);
    expect(grant.fields?.({ id: 5 })).toEqual(['paused']);
    expect(grant.fields?.({ id: 6 })).toContain('concurrency_cap_limit');
  });

  it('prefers a team permission to the buyer team scope, and answers 403 to a member who has teams too', () => {
    const both = member({ calls: { actions: ['list'] } }, [team]);
    expect(authorize(needs('calls', 'list', { buyerTeam: true }), both, true)).toEqual({});
    expect(outcome(() => authorize(needs('offers', 'list'), both, false))).toMatchObject({ status: 403 });
  });
});

describe("a buyer team's calls", () => {
  const teams: BuyerTeam[] = [{ buyerId: 5, offerIds: [10, 11], editCaps: false }];
  it.each([
    ['connected to the buyer on a team offer', { offer_id: 10, buyer_id: 5, attempts: [] }, true],
    ['rang the buyer, taken by another', { offer_id: 11, buyer_id: 6, attempts: [{ buyer_id: 5 }, { buyer_id: 6 }] }, true],
    ['on an offer outside the team', { offer_id: 12, buyer_id: 5, attempts: [{ buyer_id: 5 }] }, false],
    ['on a team offer, never dialed for the buyer', { offer_id: 10, buyer_id: 6, attempts: [{ buyer_id: 6 }] }, false],
    ['without an offer', { offer_id: null, buyer_id: 5, attempts: null }, false],
  ])('%s: %s', (_name, call, seen) => {
    expect(teamSeesCall(call, teams)).toBe(seen);
  });
});

describe('field and record checks', () => {
  it('refuses the first field the grant does not allow, naming it', () => {
    const grant = { fields: () => ['buyer_converted', 'revenue'] };
    expect(outcome(() => assertFieldsGranted(grant, {}, ['revenue', 'buyer_converted'], 'calls', 'update'))).toBe('granted');
    expect(outcome(() => assertFieldsGranted(grant, {}, ['revenue', 'payout'], 'calls', 'update'))).toEqual({
      status: 403,
      errors: { base: ['needs the calls update permission for the field payout'], payout: ['may not be changed with these credentials'] },
    });
    expect(outcome(() => assertFieldsGranted({}, {}, ['payout'], 'calls', 'update'))).toBe('granted');
    expect(outcome(() => assertFieldsGranted(undefined, {}, ['payout'], 'calls', 'update'))).toBe('granted');
  });

  it('hides records the grant does not see as a 404', () => {
    expect(outcome(() => assertSees({ sees: (record) => record.id === 1 }, { id: 2 }))).toMatchObject({ status: 404 });
    expect(outcome(() => assertSees({ sees: (record) => record.id === 1 }, { id: 1 }))).toBe('granted');
  });
});

describe('users and offers', () => {
  it('reads stored users without the admin attribute as admins', () => {
    expect(isAdminUser({})).toBe(true);
    expect(isAdminUser({ admin: true })).toBe(true);
    expect(isAdminUser({ admin: false })).toBe(false);
  });

  it('lets admins, members who may show offers and buyer teams of the offer use it', () => {
    expect(mayUseOffer(ADMIN, 3)).toBe(true);
    expect(mayUseOffer(member({ offers: { actions: ['show'] } }), 3)).toBe(true);
    expect(mayUseOffer(member({ offers: { actions: ['list'] } }), 3)).toBe(false);
    expect(mayUseOffer(member({}, [{ buyerId: 1, offerIds: [3], editCaps: false }]), 3)).toBe(true);
    expect(mayUseOffer(member({}, [{ buyerId: 1, offerIds: [4], editCaps: false }]), 3)).toBe(false);
    expect(teamsAllow(member({ leads: { actions: ['update'] } }), 'leads', 'update')).toBe(true);
  });
});

describe('permissionProblems', () => {
  it('accepts groups of the route table with their actions and writable fields', () => {
    expect(permissionProblems({ calls: { actions: ['list', 'show', 'update'], fields: ['buyer_converted', 'revenue'] }, leads: { actions: ['update'] } })).toEqual([]);
    expect(permissionProblems({ offers: { actions: ['update'], fields: ['name'] } })).toEqual([]);
    expect(permissionProblems({})).toEqual([]);
  });

  it.each([
    [[], ['is not a hash of permission groups']],
    [{ rockets: { actions: ['list'] } }, ['rockets is not a permission group']],
    [{ calls: 'all' }, ['calls is not a hash with actions and fields']],
    [{ calls: { actions: ['launch'] } }, ['calls.actions must be a list of list, show, create, update, delete']],
    [{ calls: { actions: ['update'], fields: ['status', 'revenue'] } }, ['calls.fields: status is not a writable field']],
    [{ offers: { actions: ['update'], fields: ['id', 'company_id'] } }, ['offers.fields: id, company_id are not writable fields']],
    [{ leads: { actions: ['update'], fields: ['first_name'] } }, ['leads does not limit fields']],
    [{ calls: { actions: ['list'], scope: 'all' } }, ['calls.scope is not a permission setting (actions, fields)']],
  ])('refuses %j', (value, problems) => {
    expect(permissionProblems(value)).toEqual(problems);
  });

  it('stores actions in their usual order and fields once', () => {
    expect(normalizedPermissions({ calls: { actions: ['update', 'list', 'update'], fields: ['revenue', 'revenue'] } })).toEqual({ calls: { actions: ['list', 'update'], fields: ['revenue'] } });
  });

  it('knows the writable fields of resources and calls, and none of hand-written groups', () => {
    expect(writableFieldsOf('calls')).toContain('payout');
    expect(writableFieldsOf('buyers')).toContain('paused');
    expect(writableFieldsOf('leads')).toBeUndefined();
  });
});
