import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes, type RouteDefinition } from '../../shared/http/routes.js';

/**
 * The coverage number: every endpoint of the reference (test/data/reference-endpoints.json, a copy
 * of the seed's endpoint list: the six-operation groups expanded, plus the alternate methods the
 * reference accepts, marked `alt`) against the route table. An endpoint is served when a route
 * has its method and its path, parameter names aside. The number missing is zero and stays zero.
 */
interface ReferenceEndpoint {
  group: string;
  method: string;
  path: string;
  alt: boolean;
}

const endpoints = JSON.parse(readFileSync(new URL('../data/reference-endpoints.json', import.meta.url), 'utf8')) as ReferenceEndpoint[];

/** `/api/v1/buyer_groups/:id (create)` → `/api/v1/buyer_groups/{}`; `{id}` and `:id` alike. */
const shape = (path: string): string => path.replace(/\s*\(.*\)$/, '').replace(/:\w+/g, '{}').replace(/\{\w+\}/g, '{}');
const key = (method: string, path: string): string => `${method} ${shape(path)}`;

const served = new Set(routes.map((route: RouteDefinition) => key(route.method, route.path)));

describe("the reference's endpoints", () => {
  it('are the seed list, copied whole', () => {
    expect(endpoints.length).toBeGreaterThanOrEqual(438);
    expect(endpoints.filter((endpoint) => endpoint.alt).length).toBeGreaterThan(0);
    expect(endpoints.every((endpoint) => /^(GET|POST|PUT|DELETE|PATCH)$/.test(endpoint.method) && endpoint.path.startsWith('/api/v1/'))).toBe(true);
  });

  it('are each served by a route of the route table: none missing', () => {
    const missing = endpoints.filter((endpoint) => !served.has(key(endpoint.method, endpoint.path)));
    console.log(`reference endpoints: ${endpoints.length}; served: ${endpoints.length - missing.length}; missing: ${missing.length}`);
    expect(missing.map((endpoint) => `${endpoint.method} ${endpoint.path}`)).toEqual([]);
  });

  it('tells a missing endpoint apart (the check is not vacuous)', () => {
    expect(served.has(key('GET', '/api/v1/no_such_things/:id'))).toBe(false);
    expect(served.has(key('PUT', '/api/v1/standalone_transcriptions/:id'))).toBe(false);
  });
});
