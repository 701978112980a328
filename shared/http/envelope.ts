import { createHash } from 'node:crypto';
import type { FieldErrors } from './errors.js';

/** A record as the API shows it. */
export type ApiRecord = Record<string, unknown>;

/** 32 hex digits identifying the record's content, so clients can detect change cheaply. */
export function checksum(record: ApiRecord): string {
  return createHash('md5').update(JSON.stringify(record)).digest('hex');
}

/** The single-record envelope of the reference (Conventions, item 5). */
export function recordEnvelope(root: string, record: ApiRecord, associations?: Record<string, unknown>): ApiRecord {
  return {
    status: 200,
    errors: {},
    [root]: record,
    ...(associations && Object.keys(associations).length ? { associations } : {}),
    checksum: checksum(record),
    metadata: { root },
  };
}

/** Paging facts of a list: total_count, page, per_page, total_pages, or cursor and next_cursor. */
export type ListMetadata = Record<string, unknown>;

/**
 * The list envelope (Conventions, item 6); `root=false` gives the bare array. `alsoAs`: the
 * records under a second root too, a name clients of the hosted service read (docs/compatibility.md).
 */
export function listEnvelope(plural: string, records: ApiRecord[], metadata: ListMetadata, bare: boolean, alsoAs?: string): unknown {
  if (bare) return records;
  return { status: 200, errors: {}, [plural]: records, ...(alsoAs ? { [alsoAs]: records } : {}), metadata: { root: plural, ...metadata } };
}

/** The envelope of a failed request: `status` in the body equals the HTTP status. */
export function errorEnvelope(status: number, errors: FieldErrors, requestId?: string): ApiRecord {
  return { status, errors, metadata: requestId ? { request_id: requestId } : {} };
}
