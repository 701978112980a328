/**
 * The route table: every endpoint of the service, declared once. The CDK stack creates one API
 * Gateway route per entry, the local gateway serves exactly these, and a test checks that every
 * entry has an operation in its route group's function.
 *
 * Paths use API Gateway's `{param}` syntax so the route key is the same string in every mode.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * How a request is authorised:
 * - basic: `Authorization: Basic base64(public:private)` or a per-user `auth_token` parameter;
 * - lead_token / secure_token / ping: the token in the path or parameters (later issues);
 * - none: public.
 */
export type AuthKind = 'basic' | 'lead_token' | 'secure_token' | 'ping' | 'none';

/** A route group is one Lambda function; its folder under functions/ has the same name. */
export interface RouteGroupDefinition {
  description: string;
  /** DynamoDB actions the group's function needs on the table (least privilege). */
  tableActions: readonly string[];
}

/** DynamoDB actions every authenticated function needs to resolve credentials. */
const authActions = ['dynamodb:GetItem'] as const;

export const routeGroups = {
  subscriptions: {
    description: 'Event subscriptions',
    tableActions: [...authActions, 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'],
  },
} as const satisfies Record<string, RouteGroupDefinition>;

export type RouteGroup = keyof typeof routeGroups;

export interface RouteDefinition {
  method: HttpMethod;
  path: string;
  group: RouteGroup;
  auth: AuthKind;
  /** Name of the operation inside the group's function. */
  operation: string;
}

export const routes = [
  { method: 'GET', path: '/api/v1/subscriptions', group: 'subscriptions', auth: 'basic', operation: 'list' },
  { method: 'GET', path: '/api/v1/webhook_subscriptions/new', group: 'subscriptions', auth: 'basic', operation: 'new' },
  { method: 'POST', path: '/api/v1/subscriptions', group: 'subscriptions', auth: 'basic', operation: 'create' },
  { method: 'GET', path: '/api/v1/subscriptions/{id}', group: 'subscriptions', auth: 'basic', operation: 'show' },
  { method: 'PUT', path: '/api/v1/subscriptions/{id}', group: 'subscriptions', auth: 'basic', operation: 'update' },
  { method: 'DELETE', path: '/api/v1/subscriptions/{id}', group: 'subscriptions', auth: 'basic', operation: 'delete' },
  { method: 'DELETE', path: '/api/v1/subscriptions', group: 'subscriptions', auth: 'basic', operation: 'deleteByTargetUrl' },
] as const satisfies readonly RouteDefinition[];

/** API Gateway's route key, e.g. `GET /api/v1/subscriptions/{id}`. */
export function routeKey(route: Pick<RouteDefinition, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

/** The routes served by one route group. */
export function routesOfGroup(group: RouteGroup): RouteDefinition[] {
  return routes.filter((route) => route.group === group);
}
