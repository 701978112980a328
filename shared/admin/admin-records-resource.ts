import * as v from 'valibot';
import { blankable, booleanParam, integerParam, oneOf, presentString } from '../http/param-schemas.js';
import { ValidationError } from '../http/errors.js';
import { routeGroups, type RouteGroup } from '../http/route-groups.js';
import { defineResource } from '../resources/define.js';
import { idListParam, timeZoneParam } from '../resources/field-schemas.js';
import * as routing from '../resources/routing.js';
import { adminTasksView, applicationClustersView, bigintMigrationsView } from './admin-records-view.js';

/**
 * Company administration records (docs/resources.md, "Administration: exports, tasks, clusters,
 * migrations"):
 * - admin_tasks: maintenance tasks an administrator records against a resource. This service has
 *   no task runner: `status`, `counter`, `last_id` and `last_created_at` are the service's own
 *   (stay `pending`/0/null), never written by the API.
 * - application_clusters: what this deployment runs, one record per route group (a Lambda
 *   function) the company names; the facts (role, category, ports, scaling) are derived from
 *   shared/http/route-groups.ts, only the name and display colours are stored.
 * - bigint_migrations: data migrations of the table. None exists (ids are numbers DynamoDB stores
 *   without width), so the progress fields are the service's, and stay at `pending`.
 */

const shortText = v.optional(blankable(v.pipe(v.string('is not a string'), v.trim(), v.maxLength(255, 'is too long (maximum is 255 characters)'))));
const longText = v.optional(blankable(v.pipe(v.string('is not a string'), v.trim(), v.maxLength(2_000, 'is too long (maximum is 2000 characters)'))));
const count = (max: number) =>
  v.optional(blankable(v.pipe(integerParam, v.minValue(1, 'must be greater than or equal to 1'), v.maxValue(max, `must be less than or equal to ${max}`))));
/** A time of day, `HH:MM`. */
const clockTime = v.optional(blankable(v.pipe(v.string('is not a time of day (HH:MM)'), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'is not a time of day (HH:MM)'))));
const colour = v.optional(blankable(v.pipe(v.string('is not a colour'), v.regex(/^#[0-9a-fA-F]{6}$/, 'is not a colour (#rrggbb)'))));

const RESOURCE_NAMES = routing.resourceRoutings.map((facts) => facts.name) as [string, ...string[]];
const ROUTE_GROUPS = Object.keys(routeGroups) as [RouteGroup, ...RouteGroup[]];

const taskFields = {
  active: v.optional(booleanParam),
  method_name: shortText,
  sql_conditions: longText,
  target_company_ids: v.optional(idListParam),
  limit_value: count(1_000_000),
  slice_value: count(10_000),
  business_hours_open: clockTime,
  business_hours_close: clockTime,
  time_zone: v.optional(blankable(timeZoneParam)),
  with_solr_includes: v.optional(booleanParam),
  sql_includes: longText,
  method_arguments: longText,
};

export const adminTasks = defineResource({
  ...routing.adminTasks,
  ...adminTasksView,
  root: 'admin_task',
  plural: 'admin_tasks',
  createSchema: v.object({ ...taskFields, rails_model_name: oneOf(RESOURCE_NAMES) }),
  updateSchema: v.object({ ...taskFields, rails_model_name: v.optional(oneOf(RESOURCE_NAMES)) }),
  defaults: {
    active: false,
    rails_model_name: null,
    method_name: null,
    sql_conditions: null,
    status: 'pending',
    counter: 0,
    last_id: null,
    user_id: null,
    target_company_ids: [],
    limit_value: null,
    slice_value: null,
    business_hours_open: null,
    business_hours_close: null,
    time_zone: null,
    with_solr_includes: false,
    sql_includes: null,
    method_arguments: null,
    last_created_at: null,
  },
  filters: { rails_model_name: { schema: oneOf(RESOURCE_NAMES) }, active: { schema: booleanParam } },
  order: { values: ['id', 'rails_model_name', 'status', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['rails_model_name', 'method_name'],
  generate: (context) => ({ user_id: context.userId ?? null }),
  check: (record): Record<string, string[]> =>
    (record.business_hours_open === null) !== (record.business_hours_close === null) ? { business_hours_close: ['must be given with business_hours_open'] } : {},
  behaviour: async () => ({
    prepareCreate: async (context, fields) => ownCompanyOnly(context.companyId, fields),
    prepareUpdate: async (context, _before, fields) => ownCompanyOnly(context.companyId, fields),
  }),
});

/** A company's administrator acts on its own company only: another company's id is refused like an unknown one. */
function ownCompanyOnly(companyId: number, fields: Record<string, unknown>): Record<string, unknown> {
  const targets = (fields.target_company_ids as number[] | null | undefined) ?? [];
  if (targets.some((id) => id !== companyId)) throw new ValidationError({ target_company_ids: ['may name only your own company'] });
  return fields;
}


export const applicationClusters = defineResource({
  ...routing.applicationClusters,
  ...applicationClustersView,
  root: 'application_cluster',
  plural: 'application_clusters',
  createSchema: v.object({
    name: presentString,
    server_role: oneOf(ROUTE_GROUPS),
    server_role_icon: shortText,
    server_role_background_color: colour,
    server_role_text_color: colour,
  }),
  updateSchema: v.object({
    name: v.optional(presentString),
    server_role_icon: shortText,
    server_role_background_color: colour,
    server_role_text_color: colour,
  }),
  defaults: { name: null, server_role: null, server_role_icon: null, server_role_background_color: null, server_role_text_color: null },
  filters: { server_role: { schema: oneOf(ROUTE_GROUPS) } },
  order: { values: ['id', 'name', 'server_role', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'server_role'],
  // One record per function: a role named twice would be two views of one thing.
  unique: [{ field: 'server_role', scope: 'company' }],
});

export const bigintMigrations = defineResource({
  ...routing.bigintMigrations,
  ...bigintMigrationsView,
  root: 'bigint_migration',
  plural: 'bigint_migrations',
  createSchema: v.object({
    shard_key: shortText,
    migrate_table_name: oneOf(RESOURCE_NAMES),
    migrate_column_name: v.pipe(presentString, v.maxLength(100, 'is too long (maximum is 100 characters)'), v.regex(/^[a-z][a-z0-9_]*$/, 'is not a column name')),
    batch_size: count(10_000),
    paused: v.optional(booleanParam),
  }),
  updateSchema: v.object({ batch_size: count(10_000), paused: v.optional(booleanParam) }),
  defaults: {
    shard_key: null,
    migrate_table_name: null,
    migrate_column_name: null,
    phase: 'pending',
    last_pk_text: null,
    last_pk_value: null,
    total_copied: 0,
    batch_size: 1_000,
    last_sql_ms: null,
    slow_streak: 0,
    started_at: null,
    succeeded_at: null,
    failed_at: null,
    error_message: null,
    paused: false,
    cleaned_up_at: null,
  },
  filters: { migrate_table_name: { schema: oneOf(RESOURCE_NAMES) }, phase: { schema: oneOf(['pending']) } },
  order: { values: ['id', 'migrate_table_name', 'phase', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['migrate_table_name', 'migrate_column_name'],
});
