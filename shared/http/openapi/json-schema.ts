import { toJsonSchema, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';

/**
 * Valibot schemas as JSON Schema 2020-12, the dialect of OpenAPI 3.1. The service's schemas
 * accept more than JSON Schema can say, so the converter runs with `errorMode: 'ignore'`: what
 * it cannot express is left out, never guessed (docs/openapi.md lists what that approximates):
 * - transformations (trimming, lower-casing, '' read as null, comma lists split) and checks in
 *   code (`v.check`, `v.rawCheck`) add nothing; the value before them is described;
 * - schemas that check with code of their own (`v.custom`) are described by the `v.metadata`
 *   entry beside them (shared/http/param-schemas.ts), or not at all;
 * - values that arrive as text in forms and query strings (`"12"`, `"true"`) are described by
 *   their JSON type only.
 */
export type { JsonSchema };

export function jsonSchemaOf(schema: v.GenericSchema): JsonSchema {
  const { $schema: _dialect, ...converted } = toJsonSchema(schema, { target: 'draft-2020-12', errorMode: 'ignore' });
  return withoutEmptyRequired(converted);
}

/** Keywords whose value is a schema, a list of schemas or a map of schemas. */
const SCHEMA_KEYWORDS = new Set(['items', 'not', 'additionalProperties', 'propertyNames', 'contains']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs']);

/** `required: []` says nothing; the converter writes it for every object. */
function withoutEmptyRequired(schema: JsonSchema): JsonSchema {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'required' && Array.isArray(value) && value.length === 0) continue;
    out[key] = cleaned(key, value);
  }
  return out as JsonSchema;
}

function cleaned(key: string, value: unknown): unknown {
  const isSchema = (candidate: unknown): candidate is JsonSchema => typeof candidate === 'object' && candidate !== null && !Array.isArray(candidate);
  if (SCHEMA_KEYWORDS.has(key) && isSchema(value)) return withoutEmptyRequired(value);
  if (SCHEMA_LISTS.has(key) && Array.isArray(value)) return value.map((item) => (isSchema(item) ? withoutEmptyRequired(item) : item));
  if (SCHEMA_MAPS.has(key) && isSchema(value)) {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, isSchema(item) ? withoutEmptyRequired(item) : item]));
  }
  return value;
}
