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
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  if (schema.anyOf) return schema.anyOf.some((option) => typeof option === 'object' && option.type === 'null') ? schema : { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  return schema;
}

function columnSchema(column: string, writable: Record<string, JsonSchema>): JsonSchema {
  if (COMMON[column]) return COMMON[column];
  if (TIME_ATTRIBUTES.has(column)) return TIME;
  const declared = writable[column];
  return declared ? orNull(declared) : {};
}

export function columnsSchema(columns: readonly string[], writable: Record<string, JsonSchema> = {}): JsonSchema {
  return { type: 'object', properties: Object.fromEntries(columns.map((column) => [column, columnSchema(column, writable)])) };
}

/** A registry resource's record as show and list answer it. */
export function resourceRowSchema(resource: ResourceDefinition): JsonSchema {
  const writable = (jsonSchemaOf(resource.updateSchema).properties ?? {}) as Record<string, JsonSchema>;
  const row = columnsSchema(allColumns(resource), writable);
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
