import { getRecords, type StoredRecord } from '../db/records.js';
import { ValidationError } from '../http/errors.js';
import type { OperationRequest, OperationResult, Params } from '../http/request.js';
import { envelopeAssociations } from './associations.js';
import { rootOfRecord, type HookContext, type ResourceDefinition, type ResourceView } from './define.js';
import { hookContext } from './request-records.js';
import { serializeRecord, type AssociationValues, type SerializeOptions } from './serialize.js';

/**
 * Records as the API answers them: serialised with their associations and enrichment, in the
 * serializer a request names, with what a write reveals once.
 */

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

export function isGrid(serializer: string | undefined): boolean {
  return serializer?.endsWith('_grid') ?? false;
}

/** The serializer named in the params, validated against the resource's list. */
export function serializerOf(resource: ResourceDefinition, params: Params): string | undefined {
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
export function revealedBy(resource: ResourceDefinition, before: Record<string, unknown> | undefined, after: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries((resource.revealedOnWrite ?? []).filter((name) => after[name] !== undefined && after[name] !== before?.[name]).map((name) => [name, after[name]]));
}
