import type { HttpMethod, RouteDefinition } from './route-definition.js';

/**
 * Matches a request path against the route table the way API Gateway does: a literal segment
 * beats a `{param}` at the same position, so `/subscriptions/new` wins over `/subscriptions/{id}`.
 * Pure, shared by the local gateway and the fallback function.
 */
export type RouteMatch =
  | { kind: 'matched'; route: RouteDefinition; pathParameters: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: HttpMethod[] }
  | { kind: 'not_found' };

function segments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/** Per-segment specificity: 1 for a literal, 0 for a parameter; compared left to right. */
function matchPath(pattern: string[], actual: string[]): { params: Record<string, string>; score: number[] } | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  const score: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!;
    const segment = actual[i]!;
    const param = /^\{(\w+)\}$/.exec(expected);
    if (param) {
      try {
        params[param[1]!] = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
      score.push(0);
    } else if (expected === segment) {
      score.push(1);
    } else {
      return undefined;
    }
  }
  return { params, score };
}

function moreSpecific(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

export function matchRoute(method: string, path: string, table: readonly RouteDefinition[]): RouteMatch {
  const actual = segments(path);
  let best: { route: RouteDefinition; params: Record<string, string>; score: number[] } | undefined;
  const allowed = new Set<HttpMethod>();
  for (const route of table) {
    const matched = matchPath(segments(route.path), actual);
    if (!matched) continue;
    if (route.method !== method.toUpperCase()) {
      allowed.add(route.method);
      continue;
    }
    if (!best || moreSpecific(matched.score, best.score)) best = { route, ...matched };
  }
  if (best) return { kind: 'matched', route: best.route, pathParameters: best.params };
  if (allowed.size) return { kind: 'method_not_allowed', allowed: [...allowed] };
  return { kind: 'not_found' };
}
