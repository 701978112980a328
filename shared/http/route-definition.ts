/**
 * What a route is, and the routes a resource's routing facts make. The route table is declared
 * per route group (routes/<group>.ts): a group's function imports only its own module, and
 * routes.ts assembles them all for what serves or describes every route (the stack, the local
 * gateway, the fallback function, the OpenAPI document). Paths use API Gateway's `{param}` syntax
 * so the route key is the same string in every mode.
 */
import { needs, type PermissionAction, type RoutePermission } from '../auth/permissions.js';
import type { CrudOperation } from '../resources/routing/resource-routing.js';
import type { ResourceRouting } from '../resources/routing/resource-routing.js';
import type { LargeFieldLimit } from './large-field-limit.js';
import type { RouteGroup } from './route-groups.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS';

/**
 * How a request is authorised:
 * - basic: `Authorization: Basic base64(public:private)` or a per-user `auth_token` parameter;
 * - lead_token / secure_token / ping: the token in the path or parameters;
 * - carrier: the voice carrier's request signature (X-Twilio-Signature);
 * - none: public.
 */
export type AuthKind = 'basic' | 'lead_token' | 'secure_token' | 'ping' | 'carrier' | 'none';

interface RouteFacts {
  method: HttpMethod;
  path: string;
  group: RouteGroup;
  auth: AuthKind;
  /** Name of the operation inside the group's function. */
  operation: string;
  /** A larger body and one long field (uploads); others keep INPUT_LIMITS. */
  largeField?: LargeFieldLimit;
  /** The body is not parsed: the operation gets its bytes (a file PUT as is), at most `maxBytes`. */
  rawBody?: { maxBytes: number };
}

/**
 * A route. A `basic` route declares what a user needs to call it (docs/permissions.md): a
 * permission group and action, `needs('calls', 'update')`; resources' routes get theirs from
 * their CRUD operation (`resourceRoutes`). The type refuses a basic route without one, and the
 * route-permission test a route whose declaration names no group. Routes of other auth kinds are
 * authorised by their own token and declare none.
 */
export type RouteDefinition = RouteFacts & ({ auth: 'basic'; permission: RoutePermission } | { auth: Exclude<AuthKind, 'basic'>; permission?: undefined });

/** The permission action of each CRUD operation (`new` shows the form of a create). */
export const CRUD_ACTIONS: Readonly<Record<CrudOperation, PermissionAction>> = { list: 'list', new: 'create', create: 'create', show: 'show', update: 'update', delete: 'delete' };

/** The API's path prefix. */
export const API = '/api/v1';

/**
 * The routes called without credentials from outside: partners' ping, post and one-request
 * ping-and-post, and the number lookup landing pages' visitors' browsers make (the
 * number-replacement script), every method (preflight too). Each gets the tighter partner
 * throttle in AWS (infra/constructs/api.ts).
 */
export function isPartnerRoute(route: RouteDefinition): boolean {
  return /^\/api\/v1\/(inbound_webhooks\/(ping|post|full)\/|numbers\.json$)/.test(route.path);
}

/** The routes of a registry resource: the operations it supports, plus `.csv` for CSV lists. */
export function resourceRoutes(resource: ResourceRouting): RouteDefinition[] {
  const base = `${API}/${resource.name}`;
  const route = (method: HttpMethod, path: string, operation: CrudOperation): RouteDefinition => ({
    method,
    path,
    group: resource.group,
    auth: 'basic',
    operation: `${resource.name}.${operation}`,
    // The resource is its own permission group; buyer teams only where its facts open it to them.
    permission: needs(resource.name, CRUD_ACTIONS[operation], { buyerTeam: resource.buyerTeam?.includes(operation) }),
  });
  const out: RouteDefinition[] = [];
  for (const operation of resource.operations) {
    switch (operation) {
      case 'list':
        out.push(route('GET', base, 'list'));
        if (resource.csv) out.push(route('GET', `${base}.csv`, 'list'));
        break;
      case 'new':
        out.push(route('GET', resource.newPath ?? `${base}/new`, 'new'));
        break;
      case 'create':
        out.push({ ...route('POST', resource.createPath ?? base, 'create'), ...(resource.createLargeField ? { largeField: resource.createLargeField } : {}) });
        break;
      case 'show':
        out.push(route('GET', `${base}/{id}`, 'show'));
        break;
      case 'update':
        out.push(route('PUT', `${base}/{id}`, 'update'));
        break;
      case 'delete':
        out.push(route('DELETE', `${base}/{id}`, 'delete'));
        break;
    }
  }
  return out;
}

/** API Gateway's route key, e.g. `GET /api/v1/subscriptions/{id}`. */
export function routeKey(route: Pick<RouteDefinition, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}
