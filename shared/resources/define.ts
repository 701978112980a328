import type * as v from 'valibot';

/** A valibot schema for a resource's writable fields (an object in, an object out). */
export type FieldsSchema = v.GenericSchema<unknown, Record<string, unknown>>;

/**
 * One declaration per API resource. The CRUD engine serves every operation from this, so a
 * resource is data plus, where it has behaviour, hooks rather than a copy of the engine.
 */
export interface ResourceDefinition {
  /** Path segment under /api/v1 and storage partition name, e.g. `subscriptions`. */
  name: string;
  /** Envelope root node of one record, e.g. `subscription`. */
  root: string;
  /** Envelope root node of a list. */
  plural: string;
  /** The `type` column. */
  type: string;
  createSchema: FieldsSchema;
  updateSchema: FieldsSchema;
  /** Field values `new` shows (not persisted). */
  defaults: Record<string, unknown>;
  /** Readable columns beyond the common ones, in the order they are shown. */
  columns: readonly string[];
  /** Allowed `order` values and the default; ordering is by the stored attribute of that name. */
  order: { values: readonly [string, ...string[]]; default: string };
}

/** The columns every resource begins with (the reference's common columns). */
export const COMMON_COLUMNS = [
  'id',
  'legacy_id',
  'type',
  'uuid',
  'created_at',
  'updated_at',
  'deleted_at',
  'user_updated_at',
  'routes_show_path',
  'routes_edit_path',
  'external_record_id',
] as const;

export function defineResource(definition: ResourceDefinition): ResourceDefinition {
  return definition;
}

/** Every column a resource can show, common columns first. */
export function allColumns(resource: ResourceDefinition): string[] {
  return [...COMMON_COLUMNS, ...resource.columns];
}
