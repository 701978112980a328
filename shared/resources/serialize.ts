import { isoWithOffset } from '../time.js';
import type { StoredRecord } from '../db/records.js';
import { allColumns, type ResourceDefinition } from './define.js';

const API_PREFIX = '/api/v1';

function time(value: unknown, timeZone: string): string | null {
  return typeof value === 'string' && value ? isoWithOffset(value, timeZone) : null;
}

/** A stored record as the API shows it: every column, null where unset. */
export function serializeRecord(resource: ResourceDefinition, record: StoredRecord, timeZone = 'UTC'): Record<string, unknown> {
  const path = `${API_PREFIX}/${resource.name}/${record.id}`;
  const common: Record<string, unknown> = {
    id: record.id,
    legacy_id: record.legacy_id ?? null,
    type: resource.type,
    uuid: record.uuid,
    created_at: time(record.created_at, timeZone),
    updated_at: time(record.updated_at, timeZone),
    deleted_at: time(record.deleted_at, timeZone),
    user_updated_at: time(record.user_updated_at, timeZone),
    routes_show_path: path,
    routes_edit_path: path,
    external_record_id: record.external_record_id ?? null,
  };
  const out: Record<string, unknown> = {};
  for (const column of allColumns(resource)) {
    out[column] = column in common ? common[column] : (record[column] ?? null);
  }
  return out;
}

/** The unsaved record `new` returns: defaults for the fields, null for everything else. */
export function serializeDefaults(resource: ResourceDefinition): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of allColumns(resource)) out[column] = resource.defaults[column] ?? null;
  out.type = resource.type;
  return out;
}

/** Keeps only the requested columns, in the order asked. */
export function pickColumns(record: Record<string, unknown>, columns: readonly string[] | undefined): Record<string, unknown> {
  if (!columns) return record;
  return Object.fromEntries(columns.map((column) => [column, record[column] ?? null]));
}
