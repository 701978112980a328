import type { LargeFieldLimit } from '../../http/large-field-limit.js';
import type { RouteGroup } from '../../http/route-groups.js';

/** The six operations of Conventions item 3. */
export type CrudOperation = 'list' | 'new' | 'create' | 'show' | 'update' | 'delete';
export const ALL_OPERATIONS: readonly CrudOperation[] = ['list', 'new', 'create', 'show', 'update', 'delete'];

/**
 * A registry resource's routing facts: its name, the route group (Lambda) serving it, its
 * operations and their paths. Each group's facts are declared once, in routing/<group>.ts.
 */
export interface ResourceRouting {
  /** Path segment under /api/v1 and storage partition name, e.g. `offer_conversions`. */
  name: string;
  /** The Lambda serving it. */
  group: RouteGroup;
  /** Operations served; the others have no route (404, or 405 where the path exists). */
  operations: readonly CrudOperation[];
  /** Path of `new` when it is not `/<name>/new` (subscriptions use webhook_subscriptions/new). */
  newPath?: string;
  /** Path of `create` when it is not `POST /<name>` (buyer groups are created at `/<name>/{id}`). */
  createPath?: string;
  /** Lists also answer as CSV (`format=csv` or a `.csv` path). */
  csv?: boolean;
  /** Create takes one large field (an upload), with a larger body than other requests. */
  createLargeField?: LargeFieldLimit;
  /** Operations buyer team members may use on their own records (shared/auth/authorize.ts `BUYER_TEAM_RIGHTS`). */
  buyerTeam?: readonly CrudOperation[];
}

/** Keeps a resource's literal facts (its name's type) while checking them. */
export const routing = <const Facts extends ResourceRouting>(facts: Facts): Facts => facts;
