import { describe, expect, it } from 'vitest';
import { handlerModules } from '../../functions/index.js';
import { loadEveryOperation } from '../../shared/http/lazy-operation.js';
import { matchRoute } from '../../shared/http/route-match.js';
import { routeGroups, routeKey, routes, routesByGroup, routesOfGroup } from '../../shared/http/routes.js';
import { resources } from '../../shared/resources/registry.js';
import { resourceRoutings } from '../../shared/resources/routing.js';
import { adminRoutings } from '../../shared/resources/routing/admin.js';
import { buyersRoutings } from '../../shared/resources/routing/buyers.js';
import { configurationRoutings } from '../../shared/resources/routing/configuration.js';
import { contactsRoutings } from '../../shared/resources/routing/contacts.js';
import { inboundRoutings } from '../../shared/resources/routing/inbound.js';
import { integrationsRoutings } from '../../shared/resources/routing/integrations.js';
import { numbersRoutings } from '../../shared/resources/routing/numbers.js';
import { offersRoutings } from '../../shared/resources/routing/offers.js';
import { schedulesRoutings } from '../../shared/resources/routing/schedules.js';
import { subscriptionsRoutings } from '../../shared/resources/routing/subscriptions.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { offers } from '../../shared/offers/offers-resource.js';

/** Every endpoint of the API reference that is implemented so far (grows with each issue). */
const REFERENCE_ENDPOINTS = [
  'GET /api/v1/subscriptions',
  'GET /api/v1/webhook_subscriptions/new',
  'POST /api/v1/subscriptions',
  'GET /api/v1/subscriptions/:id',
  'PUT /api/v1/subscriptions/:id',
  'DELETE /api/v1/subscriptions/:id',
  'DELETE /api/v1/subscriptions',
  'GET /api/v1/phone_numbers',
  'POST /api/v1/phone_numbers',
  'GET /api/v1/phone_numbers/:id',
  'PUT /api/v1/phone_numbers/:id',
  'DELETE /api/v1/phone_numbers/:id',
  'GET /api/v1/phone_numbers/search',
  'GET /api/v1/ring_pools',
  'GET /api/v1/ring_pools/new',
  'POST /api/v1/ring_pools',
  'GET /api/v1/ring_pools/:id',
  'PUT /api/v1/ring_pools/:id',
  'DELETE /api/v1/ring_pools/:id',
  'POST /api/v1/leads',
  'GET /api/v1/leads',
  'GET /api/v1/leads/new',
  'GET /api/v1/leads/reports',
  'GET /api/v1/leads/stats',
  'GET /api/v1/leads/:id',
  'PUT /api/v1/leads/:id',
  'DELETE /api/v1/leads/:id/id',
  'GET /api/v1/leads/:lead_token/:caller_number/by_caller_number',
  'PUT /api/v1/leads/:caller_id/caller_opt_out',
  'GET /api/v1/leads/:caller_id/caller_opt_out',
  'POST /api/v1/leads/:caller_id/caller_remove',
  'DELETE /api/v1/leads/:caller_id/caller_remove',
  'GET /api/v1/leads/:caller_id/caller_remove',
  'PUT /api/v1/leads/:caller_id/caller_move_to_end_of_schedule',
  'POST /api/v1/leads/:caller_id/caller_move_to_end_of_schedule',
  'GET /api/v1/contacts/suppression_list',
  'POST /api/v1/contacts/:caller_id/caller_block',
  'POST /api/v1/contacts/:caller_id/caller_unblock',
  'GET /api/v1/contacts/:id',
  'PUT /api/v1/contacts/:id',
  'DELETE /api/v1/contacts/:id/calls',
];

describe('route table', () => {
  it('declares each route key once', () => {
    const keys = routes.map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('serves every reference endpoint, with :params as {params}', () => {
    for (const endpoint of REFERENCE_ENDPOINTS) {
      const [method, path] = endpoint.split(' ') as [string, string];
      const concrete = path.replace(/:(\w+)/g, '123');
      const match = matchRoute(method, concrete, routes);
      expect(match.kind, endpoint).toBe('matched');
      if (match.kind === 'matched') expect(match.route.path).toBe(path.replace(/:(\w+)/g, '{$1}'));
    }
  });

  it('gives every route group a handler module and every route an operation in it', async () => {
    expect(Object.keys(handlerModules).sort()).toEqual(Object.keys(routeGroups).sort());
    // createRouteGroupHandler throws at module load when a route's operation is missing.
    for (const load of Object.values(handlerModules)) {
      const module = await load();
      expect(typeof module.handler).toBe('function');
    }
    // Operations load their modules on first call: each loads, and each group's resources are its routing facts'.
    await expect(loadEveryOperation()).resolves.toBeUndefined();
  });

  it('refuses to build a group with carrier routes that is given no carrier signature check', async () => {
    const { createRouteGroupHandler } = await import('../../shared/http/handler.js');
    // Never called: the group is only built.
    const unused = async (): Promise<never> => {
      throw new Error('not called');
    };
    const voiceRoutes = routesByGroup.voice;
    const voiceOperations = Object.fromEntries(voiceRoutes.map((route) => [route.operation, unused]));
    expect(voiceRoutes.some((route) => route.auth === 'carrier')).toBe(true);
    expect(() => createRouteGroupHandler('voice', voiceRoutes, voiceOperations)).toThrow('has carrier routes but no carrierSignature check');
    expect(() => createRouteGroupHandler('voice', voiceRoutes, voiceOperations, { carrierSignature: async () => false })).not.toThrow();
  });

  it("refuses to build a group given another group's routes", async () => {
    const { createRouteGroupHandler } = await import('../../shared/http/handler.js');
    const unused = async (): Promise<never> => {
      throw new Error('not called');
    };
    const offersOperations = Object.fromEntries(routesByGroup.offers.map((route) => [route.operation, unused]));
    expect(() => createRouteGroupHandler('integrations', routesByGroup.offers, offersOperations)).toThrow('a route of offers');
  });

  it('reads the same resources from the light routing facts as the registry holds, each definition carrying its own facts', () => {
    expect(resources.map((resource) => resource.name)).toEqual(resourceRoutings.map((routing) => routing.name));
    resources.forEach((resource, index) => {
      const routing = resourceRoutings[index]!;
      expect({ name: resource.name, group: resource.group, operations: resource.operations, newPath: resource.newPath, createPath: resource.createPath, csv: resource.csv }).toEqual({
        name: routing.name,
        group: routing.group,
        operations: routing.operations,
        newPath: routing.newPath,
        createPath: routing.createPath,
        csv: routing.csv,
      });
    });
  });

  // Each function bundles its own group's modules only (shared/http/routes/<group>.ts and
  // shared/resources/routing/<group>.ts); the whole table is assembled from them.
  it("holds only its group's routes in each group's module, and the table is exactly their union", () => {
    for (const [group, groupRoutes] of Object.entries(routesByGroup)) {
      expect(groupRoutes.length, group).toBeGreaterThan(0);
      expect(groupRoutes.filter((route) => route.group !== group).map(routeKey), group).toEqual([]);
      expect(routesOfGroup(group as keyof typeof routesByGroup)).toEqual(groupRoutes);
    }
    const fromModules = Object.values(routesByGroup).flat().map(routeKey).sort();
    expect(routes.map(routeKey).sort()).toEqual(fromModules);
    expect(new Set(fromModules).size).toBe(fromModules.length);
  });

  it("holds only its group's resources in each group's routing module, and every resource's facts once", () => {
    const byGroup = {
      subscriptions: subscriptionsRoutings,
      offers: offersRoutings,
      integrations: integrationsRoutings,
      admin: adminRoutings,
      buyers: buyersRoutings,
      inbound: inboundRoutings,
      numbers: numbersRoutings,
      schedules: schedulesRoutings,
      configuration: configurationRoutings,
      contacts: contactsRoutings,
    };
    for (const [group, facts] of Object.entries(byGroup)) expect(facts.filter((routing) => routing.group !== group).map((routing) => routing.name), group).toEqual([]);
    const names = Object.values(byGroup).flat().map((routing) => routing.name);
    expect(resourceRoutings.map((routing) => routing.name).sort()).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(resourceRoutings.map((routing) => routing.group))).toEqual(new Set(Object.keys(byGroup)));
  });

  it('refuses to serve a resource from another group than its own', () => {
    expect(() => groupOperations('integrations', [offers])).toThrow('offers (offers)');
  });
});
