import { isoWithOffset } from '../time.js';
import type { StoredRecord } from '../db/records.js';
import { allColumns, type ResourceDefinition, type ResourceView } from './define.js';

const API_PREFIX = '/api/v1';

function time(value: unknown, timeZone: string): string | null {
  return typeof value === 'string' && value ? isoWithOffset(value, timeZone) : null;
}

/** Nested objects the default serializer adds for foreign keys, e.g. `offer: { id, name }`. */
export type AssociationValues = Record<string, { id: number; name: unknown } | null>;

export interface SerializeOptions {
  timeZone?: string;
  /** A `*_grid` serializer: flat foreign keys, no nested objects. */
  grid?: boolean;
  associations?: AssociationValues;
  /** Columns loaded by the view's enricher. */
  extra?: Record<string, unknown>;
}

/**
 * Stored attributes that are times (ISO 8601 UTC in storage), shown with the zone's offset like
 * every time of the API (docs/decisions.md), not with the storage form's "Z".
 */
export const TIME_ATTRIBUTES: ReadonlySet<string> = new Set([
  'created_at',
  'updated_at',
  'deleted_at',
  'user_updated_at',
  'succeeded_at',
  'blocked_at_from',
  'blocked_at_to',
  'connected_at',
  'disconnected_at',
  'failing_since',
  'disabled_at',
  'callback_at',
  'received_at',
  'value_updated_at',
  'expires_at',
  'tokens_updated_at',
]);

/** A stored record as the API shows it: every column, null where unset. */
export function serializeRecord(resource: ResourceView, record: StoredRecord, options: SerializeOptions = {}): Record<string, unknown> {
  const timeZone = options.timeZone ?? 'UTC';
  const path = `${API_PREFIX}/${resource.name}/${record.id}`;
  const derived = { ...resource.derive?.(record), ...options.extra };
  const common: Record<string, unknown> = {
    type: resource.type,
    routes_show_path: path,
    routes_edit_path: path,
  };
  const out: Record<string, unknown> = {};
  for (const column of allColumns(resource)) {
    if (column in common) out[column] = common[column];
    else if (column in derived) out[column] = derived[column];
    else if (TIME_ATTRIBUTES.has(column)) out[column] = time(record[column], timeZone);
    else out[column] = record[column] ?? null;
  }
  if (!options.grid && options.associations) Object.assign(out, options.associations);
  return out;
}

/** The unsaved record `new` returns: defaults and prefilled fields, null for everything else. */
export function serializeDefaults(resource: ResourceDefinition, prefill: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const draft = { ...resource.defaults, ...prefill };
  const derived: Record<string, unknown> = resource.derive?.(draft) ?? {};
  for (const column of allColumns(resource)) {
    const value = prefill[column] ?? resource.defaults[column] ?? derived[column] ?? null;
    out[column] = TIME_ATTRIBUTES.has(column) ? time(value, 'UTC') : value;
  }
  out.type = resource.type;
  return out;
}

/** Keeps only the requested columns, in the order asked. */
export function pickColumns(record: Record<string, unknown>, columns: readonly string[] | undefined): Record<string, unknown> {
  if (!columns) return record;
  return Object.fromEntries(columns.map((column) => [column, record[column] ?? null]));
}
