import type { LargeFieldLimit } from '../http/input-limits.js';

/**
 * Where an uploaded contact import waits in object storage, and how the background work that
 * runs an import is named (pure: the CDK stack reads the prefix, the lead runner the messages).
 * An upload is one object, `imports/<company id>/<import id>.csv`, in the uploads bucket; the
 * functions that reach it may reach that prefix only.
 */
export const IMPORT_KEY_PREFIX = 'imports/';
/** The largest file an upload may declare (and be read at): 10 MB. */
export const MAX_UPLOAD_BYTES = 10_000_000;
/**
 * The longest CSV a create's body may carry (csv-rows.ts reads it), and the create route's limits:
 * the CSV's characters (up to 4 bytes each in UTF-8 JSON), and room for the other fields. Here,
 * not beside the CSV reader, so the routing facts (shared/resources/routing/contacts.ts) do not bundle the
 * CSV parser into every function.
 */
export const MAX_IMPORT_CSV_CHARS = 1_000_000;
export const CONTACT_IMPORT_UPLOAD: LargeFieldLimit = { field: 'csv', chars: MAX_IMPORT_CSV_CHARS, bodyBytes: 4 * MAX_IMPORT_CSV_CHARS + 100_000 };
/** How long an upload URL works. */
export const UPLOAD_URL_SECONDS = 900;

export interface ImportRef {
  companyId: number;
  importId: number;
}

export function importObjectKey(ref: ImportRef): string {
  return `${IMPORT_KEY_PREFIX}${ref.companyId}/${ref.importId}.csv`;
}

const KEY = /^imports\/([1-9]\d{0,15})\/([1-9]\d{0,15})\.csv$/;

/** The import an object key belongs to, or undefined for any other key. */
export function importOfKey(key: string): ImportRef | undefined {
  const match = KEY.exec(key);
  if (!match) return undefined;
  const ref = { companyId: Number(match[1]), importId: Number(match[2]) };
  return Number.isSafeInteger(ref.companyId) && Number.isSafeInteger(ref.importId) ? ref : undefined;
}

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

/**
 * The import a queued message asks to advance, or undefined when it is not about one:
 * - `{"kind": "contact_import", "companyId": 1, "importId": 2}`, what the service queues itself
 *   (an import that stopped at its time budget);
 * - an EventBridge "Object Created" event of S3 for a key under `imports/` (an upload arrived:
 *   the stack's rule sends those to the same queue).
 */
export function importWorkOf(message: unknown): ImportRef | undefined {
  if (!message || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const value = message as Record<string, unknown>;
  if (value.kind === 'contact_import') return isId(value.companyId) && isId(value.importId) ? { companyId: value.companyId, importId: value.importId } : undefined;
  if (value.source === 'aws.s3' && value['detail-type'] === 'Object Created') {
    const key = (value.detail as { object?: { key?: unknown } } | undefined)?.object?.key;
    // EventBridge gives the key as stored (not URL-encoded, unlike S3's own notifications); ours need no encoding.
    return typeof key === 'string' ? importOfKey(key) : undefined;
  }
  return undefined;
}
