import { keys, type Key } from '../db/keys.js';
import type { LookupWrite } from '../db/records.js';
import type { ResourceDefinition } from './define.js';

/**
 * The items a record keeps beside itself from its declaration: unique lookups (`unique`, with
 * their `lookupAttributes`) and index entries (`indexAttributes`), as a write stores or removes them.
 */

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
