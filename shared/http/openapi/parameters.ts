import type * as v from 'valibot';
import { jsonSchemaOf, type JsonSchema } from './json-schema.js';
import type { OperationDoc } from './operation-doc.js';

/** An OpenAPI Parameter Object. */
export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
  style?: 'form' | 'deepObject';
  explode?: boolean;
}

/** The `{name}` segments of a route path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

export function pathParameters(path: string, doc: OperationDoc): Parameter[] {
  return pathParamNames(path).map((name) => {
    const declared = doc.pathParams?.[name];
    return { name, in: 'path', required: true, ...(declared ? { description: declared.description } : {}), schema: declared?.schema ?? { type: 'string' } };
  });
}

/** A schema that no value satisfies (`serializer` of a resource without serializers accepts only blank). */
const acceptsNothing = (schema: JsonSchema) => typeof schema.not === 'object' && Object.keys(schema.not).length === 0;

/**
 * Each property of an object schema as a query parameter. Hashes go as `name[key]=value`
 * (deepObject); lists as repeated names (`ids=1&ids=2`; the service also takes `ids=1,2`).
 */
export function queryParameters(schema: v.GenericSchema): Parameter[] {
  const converted = jsonSchemaOf(schema);
  const required = new Set(converted.required ?? []);
  return Object.entries(converted.properties ?? {})
    .filter((entry): entry is [string, JsonSchema] => typeof entry[1] === 'object' && !acceptsNothing(entry[1]))
    .map(([name, property]) => {
      const { description, ...rest } = property;
      const isObject = rest.type === 'object' || (Array.isArray(rest.anyOf) && rest.anyOf.some((option) => typeof option === 'object' && option.type === 'object'));
      return {
        name,
        in: 'query',
        required: required.has(name),
        ...(description ? { description } : {}),
        schema: rest,
        ...(isObject ? { style: 'deepObject', explode: true } : {}),
      };
    });
}

/** Parameters no schema declares, as one free-form query object (`caller_id=...&state=CA`). */
export function freeQueryParameter(description: string): Parameter {
  return { name: 'params', in: 'query', required: false, description, schema: { type: 'object', additionalProperties: true }, style: 'form', explode: true };
}
