import * as v from 'valibot';
import type { CrudOperation, ResourceDefinition } from '../../resources/define.js';
import { resourceListSchema } from '../../resources/list-schema.js';
import { oneOf } from '../param-schemas.js';
import type { RouteDefinition } from '../route-definition.js';
import type { ErrorStatus, OperationDoc } from './operation-doc.js';

/**
 * The documentation of a registry resource's routes, derived from its declaration: the same
 * list schema and write schemas the engine validates with (shared/resources/engine.ts).
 */

const words = (name: string) => name.replaceAll('_', ' ');
const article = (noun: string) => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

/** `serializer`, as the engine reads it on every record answer of a resource that has serializers. */
export function serializerParams(resource: ResourceDefinition): v.GenericSchema | undefined {
  return resource.serializers ? v.object({ serializer: v.optional(oneOf(resource.serializers)) }) : undefined;
}

const RECORD_ID = { id: { description: 'The record id.', schema: { type: 'integer' as const, minimum: 1 } } };
/** A create path with `{id}` (buyer groups, as the reference has them) ignores its value. */
const IGNORED_ID = { id: { description: 'Any value; the new record gets the next id.' } };

export function resourceOperationDoc(resource: ResourceDefinition, route: RouteDefinition): OperationDoc {
  const operation = route.operation.slice(resource.name.length + 1) as CrudOperation;
  const one = words(resource.root);
  const rows = { resource: resource.name };
  const record = { record: resource.root, rows };
  const conflicts: ErrorStatus[] = resource.unique?.length ? [409] : [];
  const pathParams = route.path.includes('{id}') ? (operation === 'create' ? IGNORED_ID : RECORD_ID) : undefined;
  const query = serializerParams(resource);
  switch (operation) {
    case 'list':
      return { summary: `List ${words(resource.plural)}`, params: resourceListSchema(resource), response: { list: resource.plural, rows, csv: resource.csv ? 'also' : undefined, alsoAs: resource.listAlsoAs } };
    case 'new':
      return {
        summary: `Defaults of a new ${one}`,
        description: 'Nothing is saved. Fields of the update body sent as parameters are filled in, as the create would store them.',
        params: query,
        response: { ...record, unsaved: true },
      };
    case 'create':
      return { summary: `Create ${article(one)}`, params: resource.createSchema, query, pathParams, response: record, errors: conflicts };
    case 'show':
      return { summary: `Show ${article(one)}`, params: query, pathParams, response: record };
    case 'update':
      return { summary: `Update ${article(one)}`, description: 'Only the fields sent change.', params: resource.updateSchema, query, pathParams, response: record, errors: conflicts };
    case 'delete':
      return { summary: `Delete ${article(one)}`, description: 'Answers with the record as it was.', params: query, pathParams, response: record };
  }
}
