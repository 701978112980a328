import { getRecord, getRecords, type StoredRecord } from '../db/records.js';
import { NotFoundError, ValidationError, type FieldErrors } from '../http/errors.js';
import type { OperationRequest, Params } from '../http/request.js';
import { assertSees } from '../auth/authorize.js';
import { author } from './change-log.js';
import { checkedForeignKeys, type HookContext, type ResourceDefinition } from './define.js';

/**
 * The record a request names and the input it writes (shared/resources/engine.ts runs the CRUD
 * operations with these): the path id, the writable fields as sent, the hooks' context, and the
 * checks a record passes before it is written.
 */

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
export function sentFields(output: Record<string, unknown>, input: Params): Record<string, unknown> {
  return Object.fromEntries(Object.entries(output).filter(([key]) => key in input));
}

export function hookContext(request: OperationRequest): HookContext {
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
export function withoutInstructions(resource: ResourceDefinition, fields: Record<string, unknown>): Record<string, unknown> {
  if (!resource.instructions?.length) return fields;
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !resource.instructions!.includes(key)));
}

export function checkRecord(resource: ResourceDefinition, record: Record<string, unknown>): void {
  const errors = resource.check?.(record);
  if (errors && Object.keys(errors).length) throw new ValidationError(errors);
}

/** Every foreign key set in `fields` (associations' id lists too) must name a record of the caller's company. */
export async function checkForeignKeys(resource: ResourceDefinition, companyId: number, fields: Record<string, unknown>): Promise<void> {
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
