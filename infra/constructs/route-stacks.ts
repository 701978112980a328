import type { RouteDefinition, RouteGroup } from '../../shared/http/routes.js';

/**
 * The most resources any one template of the stack (the parent or a nested stack) may hold.
 * CloudFormation's limit is 500 per template; the margin keeps room for the resources a change
 * adds before anyone notices (test/infra/stack.test.ts checks every template against it, with the
 * real route table and with one padded to 700 routes).
 */
export const TEMPLATE_RESOURCE_BUDGET = 400;

/**
 * The most routes one nested stack holds: below the budget, so a stack keeps room for what CDK
 * adds to a synthesized template (its CDKMetadata resource) and for a few more resources.
 */
export const ROUTES_PER_STACK = 300;

/** One nested stack of API routes: its construct id's suffix, the group whose routes it holds, and those routes. */
export interface RouteStackAssignment {
  /** `Subscriptions`, then `Subscriptions2`, `Subscriptions3`... only for a group too big for one stack. */
  name: string;
  group: RouteGroup;
  routes: RouteDefinition[];
}

/** `subscriptions` → `Subscriptions`, for readable construct ids. */
export const pascal = (name: string): string =>
  name.replace(/(^|[-_])([a-z0-9])/g, (_match, _sep: string, char: string) => char.toUpperCase());

/**
 * Which nested stack holds each route: one stack per route group, so a route stays in its stack
 * when routes are added anywhere (moving a route between stacks makes CloudFormation create it
 * before deleting the old one, which API Gateway refuses: two routes with one key). A group with
 * more than `maxRoutes` routes is split in route-table order, so routes appended to the group fill
 * its last stack and the others stay where they are. Groups come in the order the table first names them.
 */
export function assignRouteStacks(routes: readonly RouteDefinition[], maxRoutes = ROUTES_PER_STACK): RouteStackAssignment[] {
  if (!Number.isInteger(maxRoutes) || maxRoutes < 1) throw new Error(`maxRoutes must be a positive integer, not ${maxRoutes}`);
  const byGroup = new Map<RouteGroup, RouteDefinition[]>();
  for (const route of routes) {
    const group = byGroup.get(route.group) ?? [];
    group.push(route);
    byGroup.set(route.group, group);
  }
  const stacks: RouteStackAssignment[] = [];
  for (const [group, groupRoutes] of byGroup) {
    for (let start = 0, index = 1; start < groupRoutes.length; start += maxRoutes, index++) {
      stacks.push({ name: `${pascal(group)}${index === 1 ? '' : index}`, group, routes: groupRoutes.slice(start, start + maxRoutes) });
    }
  }
  return stacks;
}
