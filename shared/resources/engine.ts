import { randomUUID } from 'node:crypto';
import { deleteRecord, getRecord, nextId, putNewRecord, queryAllRecords, updateRecord, type StoredRecord } from '../db/records.js';
import { NotFoundError } from '../http/errors.js';
import { listParamsSchema, paginate, sortRecords } from '../http/list-params.js';
import type { Operation, OperationRequest, Params } from '../http/request.js';
import { validate } from '../http/validation.js';
import { allColumns, type ResourceDefinition } from './define.js';
import { pickColumns, serializeDefaults, serializeRecord } from './serialize.js';

const ID_TEXT = /^\d{1,15}$/;

/** The `:id` path parameter; anything that is not an id cannot name a record: 404. */
export function pathId(request: OperationRequest): number {
  const raw = request.pathParams.id ?? '';
  if (!ID_TEXT.test(raw)) throw new NotFoundError();
  return Number(raw);
}

/**
 * Writable fields from the parameters. Clients may also wrap them in the root node
 * (`{"subscription": {...}}`), as Rails-style clients do.
 */
export function writableInput(resource: ResourceDefinition, params: Params): Params {
  const wrapped = params[resource.root];
  return wrapped && typeof wrapped === 'object' && !Array.isArray(wrapped) ? { ...params, ...(wrapped as Params) } : params;
}

/** Only the keys the caller sent: an update must not blank the fields it did not name. */
function sentFields(output: Record<string, unknown>, input: Params): Record<string, unknown> {
  return Object.fromEntries(Object.entries(output).filter(([key]) => key in input));
}

function recordResult(resource: ResourceDefinition, record: StoredRecord) {
  return { kind: 'record' as const, root: resource.root, record: serializeRecord(resource, record) };
}

export async function findOrThrow(resource: ResourceDefinition, companyId: number, id: number): Promise<StoredRecord> {
  const record = await getRecord(companyId, resource.name, id);
  if (!record) throw new NotFoundError();
  return record;
}

/** list, new, create, show, update and delete for a declared resource. */
export function crudOperations(resource: ResourceDefinition): Record<'list' | 'new' | 'create' | 'show' | 'update' | 'delete', Operation> {
  const listSchema = listParamsSchema({
    orderValues: resource.order.values,
    defaultOrder: resource.order.default,
    columns: allColumns(resource),
  });

  return {
    list: async (request) => {
      const params = validate(listSchema, request.params);
      let records = await queryAllRecords(request.auth.companyId, resource.name);
      if (params.ids) {
        const wanted = new Set(params.ids);
        records = records.filter((record) => wanted.has(record.id));
      }
      const page = paginate(sortRecords(records, params.order, params.order_dir), params.page, params.per_page);
      return {
        kind: 'list',
        plural: resource.plural,
        records: page.items.map((record) => pickColumns(serializeRecord(resource, record), params.columns)),
        metadata: { total_count: page.total_count, page: page.page, per_page: page.per_page, total_pages: page.total_pages },
        bare: !params.root,
      };
    },

    new: async () => ({ kind: 'record', root: resource.root, record: serializeDefaults(resource) }),

    create: async (request) => {
      const input = writableInput(resource, request.params);
      const fields = validate(resource.createSchema, input);
      const now = request.now.toISOString();
      const record: StoredRecord = {
        ...resource.defaults,
        ...fields,
        id: await nextId(request.auth.companyId, resource.name),
        uuid: randomUUID(),
        created_at: now,
        updated_at: now,
        user_updated_at: now,
      };
      await putNewRecord(request.auth.companyId, resource.name, record);
      return recordResult(resource, record);
    },

    show: async (request) => recordResult(resource, await findOrThrow(resource, request.auth.companyId, pathId(request))),

    update: async (request) => {
      const id = pathId(request);
      const input = writableInput(resource, request.params);
      const fields = sentFields(validate(resource.updateSchema, input), input);
      const now = request.now.toISOString();
      const updated = await updateRecord(request.auth.companyId, resource.name, id, { ...fields, updated_at: now, user_updated_at: now });
      if (!updated) throw new NotFoundError();
      return recordResult(resource, updated);
    },

    delete: async (request) => {
      const deleted = await deleteRecord(request.auth.companyId, resource.name, pathId(request));
      if (!deleted) throw new NotFoundError();
      return recordResult(resource, deleted);
    },
  };
}
