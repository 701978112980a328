import { describe, expect, it } from 'vitest';
import { handlerModules } from '../../functions/index.js';
import { matchRoute } from '../../shared/http/route-match.js';
import { routeGroups, routeKey, routes } from '../../shared/http/routes.js';
import { resources } from '../../shared/resources/registry.js';
import { resourceRoutings } from '../../shared/resources/routing.js';

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
  });

  it('refuses to build a group with carrier routes that is given no carrier signature check', async () => {
    const { createRouteGroupHandler } = await import('../../shared/http/handler.js');
    // Never called: the group is only built.
    const unused = async (): Promise<never> => {
      throw new Error('not called');
    };
    const voiceOperations = Object.fromEntries(routes.filter((route) => route.group === 'voice').map((route) => [route.operation, unused]));
    expect(routes.some((route) => route.group === 'voice' && route.auth === 'carrier')).toBe(true);
    expect(() => createRouteGroupHandler('voice', voiceOperations)).toThrow('has carrier routes but no carrierSignature check');
    expect(() => createRouteGroupHandler('voice', voiceOperations, { carrierSignature: async () => false })).not.toThrow();
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
});
