import { allColumns, type ResourceDefinition } from '../../resources/define.js';
import { TIME_ATTRIBUTES } from '../../resources/serialize.js';
import { jsonSchemaOf, type JsonSchema } from './json-schema.js';

/**
 * The rows answers carry, as JSON Schema: every column the row can show, typed where a
 * declaration says the type (the common columns, times, the resource's writable fields as its
 * update schema accepts them) and left open otherwise (computed columns, counters). A column
 * without a value is null, and `columns=` leaves some out, so none is required.
 */

const TIME: JsonSchema = { type: ['string', 'null'], format: 'date-time', description: "ISO 8601 with the offset of `time_zone` (UTC by default)." };

/** The common columns the reference gives every record, where their type is fixed. */
const COMMON: Record<string, JsonSchema> = {
  id: { type: 'integer', minimum: 1 },
  uuid: { type: 'string', format: 'uuid' },
  routes_show_path: { type: 'string' },
  routes_edit_path: { type: 'string' },
};

/** A schema that also allows null, as every shown column does. */
function orNull(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema;
  const withNullEnum = Array.isArray(schema.enum) && !schema.enum.includes(null) ? { ...schema, enum: [...schema.enum, null] } : schema;
  if (typeof schema.type === 'string') return { ...withNullEnum, type: [schema.type, 'null'] };
  if (Array.isArray(schema.type)) return schema.type.includes('null') ? withNullEnum : { ...withNullEnum, type: [...schema.type, 'null'] };
  if (schema.anyOf) return schema.anyOf.some((option) => typeof option === 'object' && option.type === 'null') ? schema : { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  if (schema.enum) return withNullEnum;
  return { anyOf: [schema, { type: 'null' }] };
}

/** `{ not: {} }`: what the converter writes for `v.never()`, a field the update refuses (it cannot be changed). */
const refused = (schema: JsonSchema | undefined) => typeof schema?.not === 'object' && Object.keys(schema.not).length === 0;

function columnSchema(column: string, writable: Record<string, JsonSchema>): JsonSchema {
  if (COMMON[column]) return COMMON[column];
  if (TIME_ATTRIBUTES.has(column)) return TIME;
  const declared = writable[column];
  return declared ? orNull(declared) : {};
}

/** The row of these columns; `declared` types columns whose type differs from the rule (a contact's `id` is its phone number). */
export function columnsSchema(columns: readonly string[], writable: Record<string, JsonSchema> = {}, declared: Record<string, JsonSchema> = {}): JsonSchema {
  return { type: 'object', properties: Object.fromEntries(columns.map((column) => [column, declared[column] ?? columnSchema(column, writable)])) };
}

/**
 * The type of each writable field, as the write schemas accept it: the update's, or the
 * create's for a field the update refuses (set once, e.g. a phone number's `number`).
 */
function writableFields(resource: ResourceDefinition): Record<string, JsonSchema> {
  const properties = (schema: typeof resource.updateSchema) => (jsonSchemaOf(schema).properties ?? {}) as Record<string, JsonSchema>;
  const [update, create] = [properties(resource.updateSchema), properties(resource.createSchema)];
  const fields: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries({ ...create, ...update })) {
    const chosen = refused(update[name]) ? create[name] : schema;
    if (chosen && !refused(chosen)) fields[name] = chosen;
  }
  return fields;
}

/** A registry resource's record as show and list answer it. */
export function resourceRowSchema(resource: ResourceDefinition): JsonSchema {
  const row = columnsSchema(allColumns(resource), writableFields(resource));
  const properties = row.properties as Record<string, JsonSchema>;
  properties.type = { const: resource.type };
  // The default serializer nests `{ id, name }` of each associated record; `*_grid` ones do not.
  for (const [field, foreignKey] of Object.entries(resource.foreignKeys ?? {})) {
    if (!foreignKey.association) continue;
    properties[foreignKey.association] = {
      anyOf: [{ type: 'object', properties: { id: { type: 'integer' }, name: {} } }, { type: 'null' }],
      description: `The record \`${field}\` names (not with a \`*_grid\` serializer).`,
    };
  }
  for (const name of resource.revealedOnWrite ?? []) {
    properties[name] = { type: 'string', description: 'Only in the answer of the create or update that set it; never shown again.' };
  }
  return row;
}

/** Lower bounds a write must meet, which the blank defaults of `new` do not. */
const WRITE_MINIMUMS = ['minItems', 'minLength', 'minProperties'];

function withoutMinimums(schema: JsonSchema): JsonSchema {
  const kept = Object.entries(schema).filter(([keyword]) => !WRITE_MINIMUMS.includes(keyword));
  const out = Object.fromEntries(kept) as JsonSchema;
  if (Array.isArray(schema.anyOf)) out.anyOf = schema.anyOf.map((option) => (typeof option === 'object' ? withoutMinimums(option) : option));
  return out;
}

/**
 * A record as `GET .../new` answers it: not saved, so it has no id, uuid or paths yet (null),
 * and its fields hold the defaults (an empty list where a write needs at least one item).
 */
export function unsavedRowSchema(row: JsonSchema): JsonSchema {
  const properties = { ...(row.properties as Record<string, JsonSchema>) };
  for (const column of Object.keys(COMMON)) if (properties[column]) properties[column] = orNull(properties[column]);
  for (const [column, schema] of Object.entries(properties)) properties[column] = withoutMinimums(schema);
  return { ...row, properties, description: 'Not saved: `id`, `uuid` and the paths are null, the fields hold their defaults.' };
}
