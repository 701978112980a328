import { callsOfCaller, CALLS, liveCalls, storedCall, type CallRecord } from '../../shared/calls/call-store.js';
import { callView } from '../../shared/calls/call-view.js';
import { dayRecordKey, firstIdAt, lastIdAt, queryDayRecords } from '../../shared/db/day-records.js';
import { timeOfId } from '../../shared/db/ids.js';
import { getItems } from '../../shared/db/records.js';
import { listEnvelope } from '../../shared/http/envelope.js';
import { jsonResponse } from '../../shared/http/middleware/responses.js';
import type { OperationResult } from '../../shared/http/request.js';
import { pickColumns } from '../../shared/resources/serialize.js';
import type { CallExternalIds } from './call-external-ids.js';

/**
 * Reading calls newest first, a page at a time, from wherever they are indexed: the day
 * partitions (every call), gsi2 (one caller's calls), gsi3 (calls in progress) or by id. Every
 * source reads only as far as the page needs. Cursors are signed and bound to the company and
 * to the list (`resource`), like every cursor of the service (shared/http/list-cursor.ts).
 */
export interface CallRead {
  companyId: number;
  /** Strictly before this call id (a cursor's position). */
  beforeId?: number;
  /** Creation-time bounds, epoch ms, inclusive. */
  fromMs: number;
  toMs: number;
  /** Stop after this many calls that pass `accept`. */
  limit: number;
  accept?: (call: Record<string, unknown>) => boolean;
  /** The days of the window with calls (from the day counts): the day walk queries only these. */
  days?: ReadonlySet<string>;
}

/** Calls read for a page, and where the next page resumes when the walk stopped at its day limit. */
export interface CallsRead {
  calls: CallRecord[];
  resumeBeforeId?: number;
}

/** Calls of every kind: one Query per UTC-day partition (per non-empty one when `days` is known), newest day first. */
export async function callsByDay(read: CallRead): Promise<CallsRead> {
  const page = await queryDayRecords({ companyId: read.companyId, resource: CALLS, beforeId: read.beforeId, fromMs: read.fromMs, toMs: read.toMs, limit: read.limit, accept: read.accept, read: storedCall, days: read.days });
  return { calls: page.records as CallRecord[], resumeBeforeId: page.resumeBeforeId };
}

type IndexRead = (limit: number, beforeId?: number) => Promise<CallRecord[]>;

/** Calls of an index keyed by call id (live calls, a caller's calls), read in batches below the window's top. */
async function callsOfIndex(index: IndexRead, read: CallRead): Promise<CallRecord[]> {
  const found: CallRecord[] = [];
  const firstId = firstIdAt(read.fromMs);
  let before = Math.min(lastIdAt(read.toMs) + 1, read.beforeId ?? Number.MAX_SAFE_INTEGER);
  while (found.length < read.limit && before > firstId) {
    const batch = Math.max(read.limit - found.length, read.accept ? 100 : 1);
    const calls = await index(batch, before);
    for (const call of calls) {
      if (call.id < firstId) return found;
      if (read.accept && !read.accept(call)) continue;
      found.push(call);
      if (found.length >= read.limit) return found;
    }
    const last = calls[calls.length - 1];
    if (calls.length < batch || !last) break;
    before = last.id;
  }
  return found;
}

/** A caller's calls (gsi2, through their carrier-call lookups). */
export function callsByCaller(caller: string, read: CallRead): Promise<CallRecord[]> {
  return callsOfIndex((limit, beforeId) => callsOfCaller(read.companyId, caller, limit, beforeId), read);
}

/**
 * Calls in progress (the sparse gsi3, then the calls by key). The index follows the table a moment
 * later, so a call that just ended is checked against its own flag.
 */
export function callsInProgress(read: CallRead): Promise<CallRecord[]> {
  const accept = read.accept;
  return callsOfIndex((limit, beforeId) => liveCalls(read.companyId, limit, beforeId), {
    ...read,
    accept: (call) => call.in_progress === true && (!accept || accept(call)),
  });
}

/** Calls named by id (BatchGetItem: the day is in the id), newest first. */
export async function callsById(ids: readonly number[], read: CallRead): Promise<CallRecord[]> {
  const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && (read.beforeId === undefined || id < read.beforeId));
  const items = await getItems(wanted.map((id) => dayRecordKey(read.companyId, CALLS, id)));
  return items
    .map(storedCall)
    .filter((call) => {
      const created = timeOfId(call.id);
      return created >= read.fromMs && created <= read.toMs && (!read.accept || read.accept(call));
    })
    .sort((a, b) => b.id - a.id)
    .slice(0, read.limit);
}

/** A call as a list row: the API view in `timeZone`, only `columns` when asked; `external`: its external ids (call-external-ids.ts). */
export function callRow(call: Record<string, unknown>, timeZone: string, columns?: readonly string[], external?: CallExternalIds): Record<string, unknown> {
  return pickColumns(callView(call, timeZone, external), columns);
}

/**
 * A cursor-paged list answer. `metadata.next_cursor` is also sent as the `x-next-cursor` header,
 * so a client asking for the bare array (`root=false`) or CSV can still page on.
 */
export function cursorListResult(plural: string, records: Record<string, unknown>[], metadata: Record<string, unknown> & { next_cursor: string | 0 }, bare: boolean): OperationResult {
  const response = jsonResponse(200, listEnvelope(plural, records, metadata, bare));
  return { kind: 'raw', response: { ...response, headers: { ...response.headers, 'x-next-cursor': String(metadata.next_cursor) } } };
}
