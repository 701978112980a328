import type { RouteDefinition } from './route-definition.js';

/**
 * The Rails format suffix the hosted service inherits: clients write `GET /api/v1/calls.json`
 * (docs/compatibility.md) as others write `calls.csv`. Every route whose path ends in a literal
 * segment gets a `.json` twin with the same operation; a route ending in a parameter
 * (`/calls/{id}`) takes `123.json` there and the suffix is cut from the value. Pure, shared by the
 * route table (the stack, the local gateway, the OpenAPI document) and the group handlers.
 */
export const JSON_SUFFIX = '.json';

/** Groups whose paths are not the API's: the carrier's webhooks and the documentation. */
const UNSUFFIXED_GROUPS = new Set(['voice', 'docs']);

function endsInParameter(path: string): boolean {
  return path.endsWith('}');
}

/** Does this route get a `.json` twin? */
function takesSuffix(route: RouteDefinition): boolean {
  return route.method !== 'OPTIONS' && !UNSUFFIXED_GROUPS.has(route.group) && !endsInParameter(route.path) && !/\.(csv|json)$/.test(route.path);
}

/** The `.json` twins of these routes (same group, auth and operation). */
export function jsonTwins(routes: readonly RouteDefinition[]): RouteDefinition[] {
  return routes.filter(takesSuffix).map((route) => ({ ...route, path: `${route.path}${JSON_SUFFIX}` }));
}

/** The routes with their `.json` twins after them. */
export function withJsonTwins(routes: readonly RouteDefinition[]): RouteDefinition[] {
  return [...routes, ...jsonTwins(routes)];
}

/** Is this route a `.json` twin? (The fuzz test gives twins fewer cases: they share everything but the path.) */
/** A route's path without its `.json` twin's suffix: the twin and its route are one path to a caller. */
export function pathWithoutJsonSuffix(path: string): string {
  return path.endsWith(JSON_SUFFIX) ? path.slice(0, -JSON_SUFFIX.length) : path;
}

/** Paths that end in `.json` of their own, not as a twin: the number lookup the hosted service's number-replacement script calls. */
const LITERAL_JSON_PATHS: ReadonlySet<string> = new Set(['/api/v1/numbers.json']);

export function isJsonTwin(route: RouteDefinition): boolean {
  return route.path.endsWith(JSON_SUFFIX) && route.group !== 'docs' && !LITERAL_JSON_PATHS.has(route.path);
}

/**
 * The path parameters with `.json` cut from the last one, when the route ends in a parameter:
 * `/calls/{id}` asked as `/calls/123.json` reads id `123`.
 */
export function withoutJsonSuffix(route: RouteDefinition, pathParameters: Record<string, string | undefined>): Record<string, string | undefined> {
  const last = /\{(\w+)\}$/.exec(route.path)?.[1];
  const value = last === undefined ? undefined : pathParameters[last];
  if (value === undefined || !value.endsWith(JSON_SUFFIX) || value.length === JSON_SUFFIX.length) return pathParameters;
  return { ...pathParameters, [last!]: value.slice(0, -JSON_SUFFIX.length) };
}
