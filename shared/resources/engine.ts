import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { keys, type Key } from '../db/keys.js';
import {
  countRecords,
  createRecord,
  deleteRecord,
  getRecord,
  getRecords,
  nextId,
  queryAllRecords,
  queryRecordsToPick,
  queryRecordPage,
  updateRecord,
  type LookupWrite,
  type StoredRecord,
} from '../db/records.js';
import { assertItemWithin } from '../db/item-limits.js';
import { cursorKey, cursorPosition, nextCursor } from '../http/list-cursor.js';
import { csvResponse, toCsv } from '../http/csv.js';
import { ConflictError, NotFoundError, ValidationError, type FieldErrors } from '../http/errors.js';
import { paginate, sortRecords, type ListParams } from '../http/list-params.js';
import type { Operation, OperationRequest, OperationResult, Params } from '../http/request.js';
import type { RouteGroup } from '../http/route-groups.js';
import { rowsWithinBudget } from '../http/response-budget.js';
import { validate } from '../http/validation.js';
import { publishStaged, stageMessages } from '../events/outbox.js';
import { logger } from '../logger.js';
import { parseApiTime } from '../time.js';
import { assertFieldsGranted, assertSees } from '../auth/authorize.js';
import { author, changeLogWrites, retryLogCollision } from './change-log.js';
import { envelopeAssociations } from './associations.js';
import { allColumns, checkedForeignKeys, rootOfRecord, supports, type CreateCheck, type CrudOperation, type HookContext, type ResourceDefinition, type ResourceView } from './define.js';
import { conditionAttributes, recordPredicate, withoutHidden, type ListConditions } from './list-conditions.js';
import { resourceListSchema } from './list-schema.js';
import { pickColumns, serializeDefaults, serializeRecord, type AssociationValues, type SerializeOptions } from './serialize.js';

const ID_TEXT = /^\d{1,15}$/;

/**
 * Largest configuration record (DynamoDB's item size): a quarter of DynamoDB's 400 KB, so
 * records stay cheap to read in whole partitions and far from the limit. Over it: 413 naming
 * the largest field.
 */
export const RECORD_BUDGET_BYTES = 100_000;

/** Creates whose acquire hook chose a value that a concurrent create took first try again this often. */
const MAX_ACQUIRE_ATTEMPTS = 10;

/** The `:id` path parameter; anything that is not an id cannot name a record: 404. */

/** The 422 of the create check whose condition cancelled the transaction, if one did (`offset`: the transaction's index of the first check). */
function refusedCheck(error: unknown, checks: readonly CreateCheck[], offset: number): ValidationError | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  const failed = checks.findIndex((_, index) => error.CancellationReasons?.[offset + index]?.Code === 'ConditionalCheckFailed');
  return failed === -1 ? undefined : new ValidationError(checks[failed]!.errors);
}

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

function hookContext(request: OperationRequest): HookContext {
  return { companyId: request.auth.companyId, userId: request.auth.userId, now: request.now, author: author(request) };
}

export async function findOrThrow(resource: ResourceDefinition, companyId: number, id: number): Promise<StoredRecord> {
  const record = await getRecord(companyId, resource.name, id);
  // A record waiting to be removed in the background is gone for the API already.
  if (!record || (resource.hiddenRecords && (await resource.hiddenRecords(companyId))?.hides(record))) throw new NotFoundError();
  return record;
}

/** The record the path names, if the caller's grant lets them see it; 404 otherwise, as for another company's. */
export async function findVisible(resource: ResourceDefinition, request: OperationRequest): Promise<StoredRecord> {
  const record = await findOrThrow(resource, request.auth.companyId, pathId(request));
  assertSees(request.auth.grant, record);
  return record;
}

/** Drops the fields that instruct the write instead of being stored. */
function withoutInstructions(resource: ResourceDefinition, fields: Record<string, unknown>): Record<string, unknown> {
  if (!resource.instructions?.length) return fields;
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !resource.instructions!.includes(key)));
}

function checkRecord(resource: ResourceDefinition, record: Record<string, unknown>): void {
  const errors = resource.check?.(record);
  if (errors && Object.keys(errors).length) throw new ValidationError(errors);
}

/** Every foreign key set in `fields` (associations' id lists too) must name a record of the caller's company. */
async function checkForeignKeys(resource: ResourceDefinition, companyId: number, fields: Record<string, unknown>): Promise<void> {
  const errors: FieldErrors = {};
  for (const [field, foreignKey] of Object.entries(checkedForeignKeys(resource))) {
    const value = fields[field];
    if (value === null || value === undefined) continue;
    const ids = (Array.isArray(value) ? value : [value]) as number[];
    const found = await getRecords(companyId, foreignKey.resource, ids);
    const missing = ids.filter((id) => !found.some((record) => record.id === id));
    if (missing.length) errors[field] = [`does not exist: ${missing.join(', ')}`];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

function lookupKey(resource: ResourceDefinition, companyId: number, field: string, scope: 'company' | 'global', value: unknown): Key {
  return scope === 'global'
    ? keys.globalLookup(resource.name, field, String(value))
    : keys.lookup(companyId, resource.name, field, String(value));
}

/** The unique lookup items of a record, each carrying the resource's lookup attributes. */
export function lookupsOf(resource: ResourceDefinition, companyId: number, record: Record<string, unknown>): LookupWrite[] {
  const attributes = resource.lookupAttributes?.(record);
  return (resource.unique ?? [])
    .filter(({ field }) => record[field] !== null && record[field] !== undefined && record[field] !== '')
    .map(({ field, scope }) => ({ field, key: lookupKey(resource, companyId, field, scope, record[field]), ...(attributes ? { attributes } : {}) }));
}

/** Whether a write changes what the record's lookup items copy (so they must be re-written). */
export function lookupAttributesChanged(resource: ResourceDefinition, before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  if (!resource.lookupAttributes) return false;
  return JSON.stringify(resource.lookupAttributes(before)) !== JSON.stringify(resource.lookupAttributes(after));
}

/**
 * The index entries an update stores (`set`, from the record as it will be) and those it removes
 * (entries the record had and no longer has), from the resource's `indexAttributes`. Setting them
 * on every update also gives a record stored before its index existed its entries.
 */
export function indexChanges(resource: ResourceDefinition, companyId: number, before: Record<string, unknown>, after: Record<string, unknown>): { set: Record<string, string>; remove: string[] } {
  if (!resource.indexAttributes) return { set: {}, remove: [] };
  const set = resource.indexAttributes(companyId, after);
  return { set, remove: Object.keys(resource.indexAttributes(companyId, before)).filter((name) => !(name in set)) };
}

/** The nested association objects of a page of records, read with one BatchGet per resource. */
async function loadAssociations(resource: ResourceView, companyId: number, records: readonly StoredRecord[]): Promise<Map<number, AssociationValues>> {
  const byRecord = new Map<number, AssociationValues>(records.map((record) => [record.id, {}]));
  for (const [field, foreignKey] of Object.entries(resource.foreignKeys ?? {})) {
    if (!foreignKey.association) continue;
    const ids = records.map((record) => record[field]).filter((id): id is number => typeof id === 'number');
    const related = new Map((await getRecords(companyId, foreignKey.resource, ids)).map((record) => [record.id, record]));
    for (const record of records) {
      const target = related.get(record[field] as number);
      byRecord.get(record.id)![foreignKey.association] = target ? { id: target.id, name: target.name ?? null } : null;
    }
  }
  return byRecord;
}

/** A page of stored records as the API shows them; reads only the resource's view. */
export async function serializeMany(
  resource: ResourceView,
  context: HookContext,
  records: readonly StoredRecord[],
  options: Omit<SerializeOptions, 'associations' | 'extra'>,
): Promise<Record<string, unknown>[]> {
  const enrich = await resource.enrich?.();
  const [associations, extra] = await Promise.all([
    options.grid ? undefined : loadAssociations(resource, context.companyId, records),
    enrich && records.length ? enrich(context, records) : undefined,
  ]);
  return records.map((record) =>
    serializeRecord(resource, record, { ...options, associations: associations?.get(record.id), extra: extra?.get(record.id) }),
  );
}

function isGrid(serializer: string | undefined): boolean {
  return serializer?.endsWith('_grid') ?? false;
}

/** The serializer named in the params, validated against the resource's list. */
function serializerOf(resource: ResourceDefinition, params: Params): string | undefined {
  const value = params.serializer;
  if (value === undefined || value === '' || value === null) return undefined;
  if (typeof value === 'string' && resource.serializers?.includes(value)) return value;
  throw new ValidationError({ serializer: [resource.serializers ? `is not included in the list (${resource.serializers.join(', ')})` : 'is not a serializer of this resource'] });
}

export async function recordResult(resource: ResourceDefinition, request: OperationRequest, record: StoredRecord, revealed: Record<string, unknown> = {}): Promise<OperationResult> {
  const serializer = serializerOf(resource, request.params);
  const [[serialized], [associations]] = await Promise.all([
    serializeMany(resource, hookContext(request), [record], { grid: isGrid(serializer) }),
    envelopeAssociations(resource, request.auth.companyId, [record]),
  ]);
  return { kind: 'record', root: rootOfRecord(resource, record), record: { ...serialized!, ...revealed }, associations };
}

/** The `revealedOnWrite` attributes this write set (shown in its response only). */
function revealedBy(resource: ResourceDefinition, before: Record<string, unknown> | undefined, after: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries((resource.revealedOnWrite ?? []).filter((name) => after[name] !== undefined && after[name] !== before?.[name]).map((name) => [name, after[name]]));
}

interface ListedPage {
  rows: Record<string, unknown>[];
  metadata: Record<string, unknown>;
}

type Serializer = (records: readonly StoredRecord[]) => Promise<Record<string, unknown>[]>;

/** Cursor paging: newest first, reading only the items this page needs. */
async function cursorPage(
  resource: ResourceDefinition,
  companyId: number,
  params: ListParams,
  accept: ((record: StoredRecord) => boolean) | undefined,
  serialize: Serializer,
): Promise<ListedPage> {
  const key = await cursorKey();
  const afterId = cursorPosition(params.cursor, key, companyId, resource.name);
  // `ids` is a filter like the others here (numbered pages read those records directly).
  const wanted = params.ids ? new Set(params.ids) : undefined;
  const keep = wanted ? (record: StoredRecord) => wanted.has(record.id) && (!accept || accept(record)) : accept;
  const page = await queryRecordPage({ companyId, resource: resource.name, direction: 'desc', limit: params.per_page + 1, afterId, accept: keep });
  const serialized = await serialize(page.records.slice(0, params.per_page));
  // A page stops early when its rows would pass the response budget; the cursor goes on from there.
  const fits = rowsWithinBudget(serialized);
  const records = page.records.slice(0, fits);
  const more = page.records.length > fits;
  const last = records[records.length - 1];
  return {
    rows: serialized.slice(0, fits),
    metadata: {
      per_page: params.per_page,
      cursor: params.cursor,
      next_cursor: nextCursor(more, last, key, companyId, resource.name),
      ...(keep ? {} : { total_count: await countRecords(companyId, resource.name) }),
    },
  };
}

/** Which records a list keeps, and the stored attributes it decides that from. */
interface ListSelection {
  accept: ((record: Record<string, unknown>) => boolean) | undefined;
  attributes: readonly string[];
}

/**
 * Page-number paging. Unfiltered id order reads only up to the page. Other orders and filters
 * pick the page from the stored attributes they need (past the first Query's 1 MB, read with a
 * projected Query of the partition), then read and show only the page's records, so
 * enrichment (live counters, associations) and serialisation cost a page, not the set. Orders by
 * a computed column (`computedOrder`: live counters) show the whole set to sort it by the shown value.
 */
async function numberedPage(
  resource: ResourceDefinition,
  companyId: number,
  params: ListParams,
  filter: ListSelection,
  serialize: Serializer,
): Promise<ListedPage> {
  const { accept } = filter;
  const sort = params.order
    ? { attribute: params.order, direction: params.order_dir ?? 'asc' }
    : { attribute: resource.defaultSort?.attribute ?? 'id', direction: params.order_dir ?? resource.defaultSort?.direction ?? 'asc' };
  const metadata = (total: number) => ({ total_count: total, page: params.page, per_page: params.per_page, total_pages: Math.ceil(total / params.per_page) });

  if (!params.ids && !accept && sort.attribute === 'id') {
    const [{ records }, total] = await Promise.all([
      queryRecordPage({ companyId, resource: resource.name, direction: sort.direction, limit: params.page * params.per_page }),
      countRecords(companyId, resource.name),
    ]);
    return { rows: await serialize(records.slice((params.page - 1) * params.per_page)), metadata: metadata(total) };
  }
  if (resource.computedOrder?.includes(sort.attribute)) {
    const candidates = params.ids ? await getRecords(companyId, resource.name, params.ids) : await queryAllRecords(companyId, resource.name);
    const records = accept ? candidates.filter(accept) : candidates;
    const rows = await serialize(records);
    const keyed = records.map((record, index) => ({ id: record.id, [sort.attribute]: record[sort.attribute] ?? rows[index]![sort.attribute], row: rows[index]! }));
    const page = paginate(sortRecords(keyed, sort.attribute, sort.direction), params.page, params.per_page);
    return { rows: page.items.map((item) => item.row), metadata: metadata(page.total_count) };
  }
  // `ids` names at most MAX_PER_PAGE records, and a set that fits one Query response is read whole:
  // then the candidates are the page's rows, with no second read.
  const { records: candidates, whole } = params.ids
    ? { records: await getRecords(companyId, resource.name, params.ids), whole: true }
    : await queryRecordsToPick(companyId, resource.name, [sort.attribute, ...filter.attributes]);
  const kept = accept ? candidates.filter(accept) : candidates;
  const page = paginate(sortRecords(kept, sort.attribute, sort.direction), params.page, params.per_page);
  const records = whole ? (page.items as StoredRecord[]) : await getRecords(companyId, resource.name, page.items.map((item) => item.id));
  return { rows: await serialize(records), metadata: metadata(page.total_count) };
}

function timeOrError(text: string | undefined, timeZone: string): Date | undefined {
  return text === undefined ? undefined : parseApiTime(text, timeZone);
}

/**
 * The CRUD operations a resource supports, keyed `<resource>.<operation>` as the route table
 * names them.
 */
export function crudOperations(resource: ResourceDefinition): Record<string, Operation> {
  const listSchema = resourceListSchema(resource);

  const operations: Record<CrudOperation, Operation> = {
    list: async (request) => {
      const params = validate(listSchema, request.params);
      const companyId = request.auth.companyId;
      const timeZone = params.time_zone ?? 'UTC';
      const equals = Object.fromEntries(
        Object.keys(resource.filters ?? {})
          .filter((name) => (params as Record<string, unknown>)[name] !== undefined)
          .map((name) => [name, (params as Record<string, unknown>)[name]]),
      );
      const conditions: ListConditions = {
        equals,
        createdFrom: timeOrError(params.created_at_from, timeZone),
        createdTo: timeOrError(params.created_at_to, timeZone),
        fulltext: params.fulltext,
        fulltextFields: resource.fulltextFields ?? [],
        ...(resource.derive ? { derive: resource.derive } : {}),
      };
      const hidden = await resource.hiddenRecords?.(companyId);
      // Records the caller's grant does not reach (a buyer team's other buyers) are not listed, nor counted.
      const sees = request.auth.grant?.sees;
      const filtered = withoutHidden(recordPredicate(conditions), hidden);
      const accept = sees ? (record: Record<string, unknown>) => sees(record) && (!filtered || filtered(record)) : filtered;
      const serialize: Serializer = (records) => serializeMany(resource, hookContext(request), records, { timeZone, grid: isGrid(params.serializer) });
      const listed =
        params.cursor !== undefined
          ? await cursorPage(resource, companyId, params, accept, serialize)
          : await numberedPage(resource, companyId, params, { accept, attributes: [...conditionAttributes(conditions), ...(hidden?.attributes ?? []), ...(request.auth.grant?.seesAttributes ?? [])] }, serialize);
      const rows = listed.rows.map((row) => pickColumns(row, params.columns));
      if (request.route.path.endsWith('.csv') || params.format === 'csv') {
        return { kind: 'raw', response: csvResponse(`${resource.plural}.csv`, toCsv(params.columns ?? allColumns(resource), rows)) };
      }
      return { kind: 'list', plural: resource.plural, records: rows, metadata: listed.metadata, bare: !params.root, ...(resource.listAlsoAs ? { alsoAs: resource.listAlsoAs } : {}) };
    },

    new: async (request) => {
      serializerOf(resource, request.params);
      const input = writableInput(resource, request.params);
      const prefill = sentFields(validate(resource.updateSchema, input), input);
      const draft = { ...resource.defaults, ...prefill };
      const [associations] = await envelopeAssociations(resource, request.auth.companyId, [draft]);
      return { kind: 'record', root: rootOfRecord(resource, draft), record: serializeDefaults(resource, prefill), associations };
    },

    create: async (request) => {
      // An unknown serializer is a 422 before anything is written, not after.
      serializerOf(resource, request.params);
      const companyId = request.auth.companyId;
      const context = hookContext(request);
      const behaviour = await resource.behaviour?.();
      const input = writableInput(resource, request.params);
      const validated = validate(resource.createSchema, input);
      assertFieldsGranted(request.auth.grant, undefined, Object.keys(sentFields(validated, input)), resource.name, 'create');
      const fields = await (behaviour?.prepareCreate?.(context, withoutInstructions(resource, validated)) ?? withoutInstructions(resource, validated));
      const now = request.now.toISOString();
      const draft = { ...resource.defaults, ...fields };
      checkRecord(resource, draft);
      await checkForeignKeys(resource, companyId, fields);
      // The uuid is chosen once, before `acquire`: what it stores may be bound to it (a secret's encryption context).
      const generated = { ...draft, ...resource.generate?.(context, draft), uuid: randomUUID() };
      assertItemWithin(generated, RECORD_BUDGET_BYTES);
      // Something outside the table (a purchased number) that must be given back if the write fails.
      // When the hook chose the value itself and a concurrent create took it first, it chooses again.
      let record: StoredRecord | undefined;
      for (let attempt = 0; !record; attempt++) {
        const acquired = await behaviour?.acquire?.(context, { record: generated, fields: validated, attempt });
        const candidate: StoredRecord = {
          ...generated,
          ...acquired?.fields,
          // Stored with every record (createRecord adds it); here too, so create answers as show will.
          company_id: companyId,
          id: await nextId(companyId, resource.name),
          uuid: generated.uuid,
          created_at: typeof fields.created_at === 'string' ? fields.created_at : now,
          updated_at: typeof fields.updated_at === 'string' ? fields.updated_at : now,
          user_updated_at: now,
        };
        const messages = (await behaviour?.messages?.(context, { after: candidate, fields: validated })) ?? [];
        const { writes, staged } = stageMessages(companyId, messages, request.now);
        const lookups = lookupsOf(resource, companyId, candidate);
        const checks = behaviour?.createChecks?.(context, candidate) ?? [];
        try {
          // The change log entry rides in the same transaction (shared/resources/change-log.ts).
          await retryLogCollision(
            () => changeLogWrites(resource, request, 'create', undefined, candidate),
            (log) =>
              createRecord(companyId, resource.name, { ...candidate, ...resource.indexAttributes?.(companyId, candidate) }, lookups, [...checks.map((each) => each.check), ...writes, ...log]).catch((error: unknown) => {
                // createRecord's items: the record, its lookups, the record count, then ours.
                throw refusedCheck(error, checks, 2 + lookups.length) ?? error;
              }),
          );
          record = candidate;
          await publishStaged(staged);
        } catch (error) {
          if (acquired) {
            await acquired.release().catch((releaseError: unknown) =>
              logger.error('could not give back what a failed create acquired', { error: releaseError, resource: resource.name, companyId }),
            );
          }
          const chosenByHook = error instanceof ConflictError && acquired && Object.keys(error.errors).some((field) => field in acquired.fields && (validated[field] === undefined || validated[field] === null));
          if (!chosenByHook || attempt + 1 >= MAX_ACQUIRE_ATTEMPTS) throw error;
        }
      }
      const stored = await behaviour?.afterWrite?.(context, { after: record, fields: validated });
      if (stored) Object.assign(record, stored);
      return recordResult(resource, request, record, revealedBy(resource, undefined, record));
    },

    show: async (request) => recordResult(resource, request, await findVisible(resource, request)),

    update: async (request) => {
      const companyId = request.auth.companyId;
      const context = hookContext(request);
      const id = pathId(request);
      serializerOf(resource, request.params);
      const input = writableInput(resource, request.params);
      const validated = sentFields(validate(resource.updateSchema, input), input);
      const fields = withoutInstructions(resource, validated);
      const changedUnique = (resource.unique ?? []).filter(({ field }) => field in fields);
      const behaviour = await resource.behaviour?.();
      // Read first: the record as it will be is checked against the record budget and the resource's rules.
      const before = await findVisible(resource, request);
      assertFieldsGranted(request.auth.grant, before, Object.keys(validated), resource.name, 'update');
      Object.assign(fields, await behaviour?.prepareUpdate?.(context, before, validated));
      assertItemWithin({ ...before, ...fields }, RECORD_BUDGET_BYTES);
      checkRecord(resource, { ...before, ...fields });
      await checkForeignKeys(resource, companyId, fields);
      const now = request.now.toISOString();
      let lookups: { remove: Key[]; add: LookupWrite[]; refresh: LookupWrite[] } | undefined;
      if (changedUnique.length || resource.lookupAttributes) {
        const after = { ...before, ...fields };
        const moved = changedUnique.filter(({ field }) => before[field] !== fields[field]);
        const stayed = (resource.unique ?? []).filter((unique) => !moved.includes(unique));
        lookups = {
          remove: lookupsOf({ ...resource, unique: moved }, companyId, before).map((lookup) => lookup.key),
          add: lookupsOf({ ...resource, unique: moved }, companyId, after),
          // Lookups that stay hold copies of the record's lookup attributes: re-written when those change.
          refresh: lookupAttributesChanged(resource, before, after) ? lookupsOf({ ...resource, unique: stayed }, companyId, after) : [],
        };
      }
      const messages = (await behaviour?.messages?.(context, { before, after: { ...before, ...fields }, fields: validated })) ?? [];
      const { writes, staged } = stageMessages(companyId, messages, request.now);
      const changes = { ...fields, updated_at: now, user_updated_at: now };
      // What the record will be (attributes set to undefined are not written), for its change log entry.
      const after = { ...before, ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) };
      const index = indexChanges(resource, companyId, before, after);
      const updated = await retryLogCollision(
        () => changeLogWrites(resource, request, 'update', before, after),
        (log) => updateRecord(companyId, resource.name, id, { ...changes, ...index.set }, lookups, [...writes, ...log], index.remove),
      );
      if (!updated) throw new NotFoundError();
      await publishStaged(staged);
      await behaviour?.afterWrite?.(context, { before, after: updated, fields: validated });
      return recordResult(resource, request, updated, revealedBy(resource, before, updated));
    },

    delete: async (request) => {
      const companyId = request.auth.companyId;
      const record = await findVisible(resource, request);
      serializerOf(resource, request.params);
      const context = hookContext(request);
      const behaviour = await resource.behaviour?.();
      const removed = await retryLogCollision(
        () => changeLogWrites(resource, request, 'delete', record, undefined),
        (log) =>
          deleteRecord(
            companyId,
            resource.name,
            record.id,
            [...lookupsOf(resource, companyId, record).map((lookup) => lookup.key), ...(resource.companions?.(companyId, record.id) ?? [])],
            [...log, ...(behaviour?.deleteWrites?.(context, record) ?? [])],
          ),
      );
      if (!removed) throw new NotFoundError();
      await behaviour?.afterDelete?.(context, record);
      return recordResult(resource, request, record);
    },
  };

  return Object.fromEntries(
    (Object.entries(operations) as [CrudOperation, Operation][])
      .filter(([operation]) => supports(resource, operation))
      .map(([operation, implementation]) => [`${resource.name}.${operation}`, implementation]),
  );
}

/**
 * The CRUD operations of the resources a route group serves. Each function imports only its own
 * definitions (not the registry, which would bundle every resource's schemas and libraries).
 * A resource served by the wrong function fails here at init; one missing from its group's
 * function fails in createRouteGroupHandler, its routes having no operation (not a 404 later).
 */
export function groupOperations(group: RouteGroup, resources: readonly ResourceDefinition[]): Record<string, Operation> {
  const strays = resources.filter((resource) => resource.group !== group).map((resource) => `${resource.name} (${resource.group})`);
  if (strays.length) throw new Error(`Route group ${group} is given resources of other groups: ${strays.join(', ')}`);
  return Object.assign({}, ...resources.map(crudOperations)) as Record<string, Operation>;
}

