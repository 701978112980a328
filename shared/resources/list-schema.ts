import type * as v from 'valibot';
import { listParamsSchema, type ListParams } from '../http/list-params.js';
import { allColumns, type ResourceDefinition } from './define.js';

/**
 * The list parameters of a resource: the shared ones with its columns, order values,
 * serializers, CSV and filters. Pure, so the engine validates with it and the OpenAPI document
 * describes the same schema.
 */
export function resourceListSchema(resource: ResourceDefinition): v.GenericSchema<unknown, ListParams> {
  return listParamsSchema({
    columns: allColumns(resource),
    order: resource.order,
    serializers: resource.serializers,
    csv: resource.csv,
    filters: Object.fromEntries(Object.entries(resource.filters ?? {}).map(([name, filter]) => [name, filter.schema])),
  });
}
