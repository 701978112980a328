import { API, type RouteDefinition } from '../route-definition.js';

/**
 * The API describes itself: its OpenAPI document, a reference page over it and the page's scripts;
 * and the operator console, a browser app over the same public API, with its files.
 */
export const docsRoutes: readonly RouteDefinition[] = [
  { method: 'GET', path: `${API}/openapi.json`, group: 'docs', auth: 'none', operation: 'docs.openapi' },
  { method: 'GET', path: '/docs', group: 'docs', auth: 'none', operation: 'docs.page' },
  { method: 'GET', path: '/docs/assets/{name}', group: 'docs', auth: 'none', operation: 'docs.asset' },
  { method: 'GET', path: '/', group: 'docs', auth: 'none', operation: 'docs.home' },
  { method: 'GET', path: '/app', group: 'docs', auth: 'none', operation: 'docs.console' },
  { method: 'GET', path: '/app/assets/{name}', group: 'docs', auth: 'none', operation: 'docs.console_asset' },
];
