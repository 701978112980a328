import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import type { Key } from '../db/keys.js';
import { createRecord, deleteRecord, nextId, updateRecord, type LookupWrite, type StoredRecord } from '../db/records.js';
import { assertItemWithin } from '../db/item-limits.js';
import { csvResponse, toCsv } from '../http/csv.js';
import { ConflictError, NotFoundError, ValidationError } from '../http/errors.js';
import type { Operation } from '../http/request.js';
import type { RouteGroup } from '../http/route-groups.js';
import { validate } from '../http/validation.js';
import { publishStaged, stageMessages } from '../events/outbox.js';
import { logger } from '../logger.js';
import { assertFieldsGranted } from '../auth/authorize.js';
import { changeLogWrites, retryLogCollision } from './change-log.js';
import { envelopeAssociations } from './associations.js';
import { allColumns, rootOfRecord, supports, type CreateCheck, type CrudOperation, type ResourceDefinition } from './define.js';
import { conditionAttributes, recordPredicate, withoutHidden, type ListConditions } from './list-conditions.js';
import { cursorPage, numberedPage, timeOrError, type Serializer } from './list-pages.js';
import { resourceListSchema } from './list-schema.js';
import { indexChanges, lookupAttributesChanged, lookupsOf } from './record-lookups.js';
import { isGrid, recordResult, revealedBy, serializeMany, serializerOf } from './record-results.js';
import { checkForeignKeys, checkRecord, findVisible, hookContext, pathId, sentFields, withoutInstructions, writableInput } from './request-records.js';
import { pickColumns, serializeDefaults } from './serialize.js';

// The engine's parts, where their importers have always found them.
export { indexChanges, lookupAttributesChanged, lookupsOf } from './record-lookups.js';
export { recordResult, serializeMany } from './record-results.js';
export { findOrThrow, findVisible, pathId, writableInput } from './request-records.js';

/**
 * Largest configuration record (DynamoDB's item size): a quarter of DynamoDB's 400 KB, so
 * records stay cheap to read in whole partitions and far from the limit. Over it: 413 naming
 * the largest field.
 */
export const RECORD_BUDGET_BYTES = 100_000;

/** Creates whose acquire hook chose a value that a concurrent create took first try again this often. */
const MAX_ACQUIRE_ATTEMPTS = 10;

/** The 422 of the create check whose condition cancelled the transaction, if one did (`offset`: the transaction's index of the first check). */
function refusedCheck(error: unknown, checks: readonly CreateCheck[], offset: number): ValidationError | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  const failed = checks.findIndex((_, index) => error.CancellationReasons?.[offset + index]?.Code === 'ConditionalCheckFailed');
  return failed === -1 ? undefined : new ValidationError(checks[failed]!.errors);
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

