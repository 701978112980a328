import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../shared/http/route-match.js';
import type { RouteDefinition } from '../../shared/http/routes.js';

const table: RouteDefinition[] = [
  { method: 'GET', path: '/api/v1/things/{id}', group: 'subscriptions', auth: 'basic', operation: 'show', permission: 'company' },
  { method: 'GET', path: '/api/v1/things/new', group: 'subscriptions', auth: 'basic', operation: 'new', permission: 'company' },
  { method: 'PUT', path: '/api/v1/things/{id}', group: 'subscriptions', auth: 'basic', operation: 'update', permission: 'company' },
  { method: 'GET', path: '/api/v1/things/{id}/parts/{part}', group: 'subscriptions', auth: 'basic', operation: 'part', permission: 'company' },
];

describe('matchRoute', () => {
  it('prefers a literal segment over a parameter, whatever the table order', () => {
    const match = matchRoute('GET', '/api/v1/things/new', table);
    expect(match).toMatchObject({ kind: 'matched', route: { operation: 'new' }, pathParameters: {} });
  });
  it('extracts and decodes path parameters', () => {
    expect(matchRoute('GET', '/api/v1/things/a%20b/parts/7', table)).toMatchObject({
      kind: 'matched',
      route: { operation: 'part' },
      pathParameters: { id: 'a b', part: '7' },
    });
  });
  it('answers method_not_allowed with the allowed methods when only the method differs', () => {
    expect(matchRoute('DELETE', '/api/v1/things/3', table)).toEqual({ kind: 'method_not_allowed', allowed: ['GET', 'PUT'] });
  });
  it('answers not_found for a path no route has', () => {
    expect(matchRoute('GET', '/api/v1/things', table)).toEqual({ kind: 'not_found' });
    expect(matchRoute('GET', '/api/v1/things/1/parts', table)).toEqual({ kind: 'not_found' });
  });
  it('does not match a malformed escape', () => {
    expect(matchRoute('GET', '/api/v1/things/%E0%A4%A', table)).toEqual({ kind: 'not_found' });
  });
});
