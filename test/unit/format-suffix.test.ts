import { describe, expect, it } from 'vitest';
import { isJsonTwin, jsonTwins, withoutJsonSuffix } from '../../shared/http/format-suffix.js';
import { needs } from '../../shared/auth/permissions.js';
import { matchRoute } from '../../shared/http/route-match.js';
import type { RouteDefinition } from '../../shared/http/route-definition.js';
import { routeKey, routes } from '../../shared/http/routes.js';

const route = (method: RouteDefinition['method'], path: string, group: RouteDefinition['group'] = 'calls'): RouteDefinition => ({ method, path, group, auth: 'basic', operation: 'x', permission: needs('calls', 'list') });

describe('the .json format suffix', () => {
  it('twins every route ending in a literal segment, not preflights, CSV, the carrier\'s or the docs\' routes', () => {
    const twins = jsonTwins([
      route('GET', '/api/v1/calls'),
      route('GET', '/api/v1/calls.csv'),
      route('GET', '/api/v1/calls/{id}'),
      route('POST', '/api/v1/leads/capture', 'leads'),
      route('OPTIONS', '/api/v1/leads', 'leads'),
      route('POST', '/api/v1/voice/twilio/incoming', 'voice'),
      route('GET', '/docs', 'docs'),
    ]);
    expect(twins.map(routeKey)).toEqual(['GET /api/v1/calls.json', 'POST /api/v1/leads/capture.json']);
    expect(twins.every(isJsonTwin)).toBe(true);
  });

  it('cuts .json from a last path parameter only', () => {
    expect(withoutJsonSuffix(route('GET', '/api/v1/calls/{id}'), { id: '123.json' })).toEqual({ id: '123' });
    expect(withoutJsonSuffix(route('GET', '/api/v1/calls/{id}'), { id: '123' })).toEqual({ id: '123' });
    expect(withoutJsonSuffix(route('GET', '/api/v1/calls/{id}'), { id: '.json' })).toEqual({ id: '.json' });
    expect(withoutJsonSuffix(route('GET', '/api/v1/calls/{id}/events'), { id: '1.json' })).toEqual({ id: '1.json' });
  });

  it('is in the route table: a literal twin beats a parameter, and every twin keeps its route\'s operation', () => {
    const live = matchRoute('GET', '/api/v1/calls/live_calls.json', routes);
    expect(live.kind === 'matched' && live.route.operation).toBe('calls.live');
    const shown = matchRoute('GET', '/api/v1/calls/42.json', routes);
    expect(shown.kind === 'matched' && [shown.route.operation, shown.pathParameters.id]).toEqual(['calls.show', '42.json']);
    const keys = new Set(routes.map(routeKey));
    for (const twin of routes.filter(isJsonTwin)) {
      const base = routes.find((each) => routeKey(each) === `${twin.method} ${twin.path.slice(0, -'.json'.length)}`);
      expect(base?.operation, routeKey(twin)).toBe(twin.operation);
    }
    expect(keys.has('GET /api/v1/buyers.json')).toBe(true);
  });
});
