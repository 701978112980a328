import * as v from 'valibot';
import type { CallRecord } from '../../shared/calls/call-store.js';
import { idParam } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { creationWindow, pagingEntries, timeMs } from './call-filters.js';
import { callsByDay, cursorListResult } from './call-pages.js';
import { cursorKey, cursorPosition, nextCursor } from '../../shared/http/list-cursor.js';
import { findCompanyCall } from './find-call.js';
import { timelineOf } from './timeline.js';
import { isoWithOffset, parseApiTime } from '../../shared/time.js';

const RESOURCE = 'call_logs';

const timeText = v.pipe(
  v.string('is not a valid time'),
  v.trim(),
  v.check((text) => parseApiTime(text, 'UTC') !== undefined, 'is not a valid time (use YYYY-MM-DD HH:MM:SS +ZZZZ)'),
);

export const callLogsSchema = v.object({
  ...pagingEntries,
  call_id: v.optional(idParam),
  uuid: v.optional(v.string('is not a uuid')),
  created_at_from: v.optional(timeText),
  created_at_to: v.optional(timeText),
});

/** One log row per timeline entry, with the call it belongs to. Pure. */
export function logRows(calls: readonly CallRecord[], timeZone: string): Record<string, unknown>[] {
  // Entries in UTC (all one format), so their text sorts as their time.
  const rows = calls.flatMap((call) => timelineOf(call).map((entry) => ({ sortAt: entry.at ?? '', call, entry })));
  // Newest first; entries of one moment by call, then later position first.
  rows.sort((a, b) => (a.sortAt < b.sortAt ? 1 : a.sortAt > b.sortAt ? -1 : b.call.id - a.call.id || b.entry.position - a.entry.position));
  return rows.map(({ call, entry }) => {
    const { position, at, type, ...detail } = entry;
    return { call_id: call.id, call_uuid: call.uuid, position, created_at: at === null ? null : isoWithOffset(at, timeZone), type, details: detail };
  });
}

/**
 * Whole calls that fit a page of `perPage` log rows, in the order read (newest call first): a
 * call's entries are never split over pages; a first call longer than a page comes whole. Pure.
 */
export function fitCalls(calls: readonly CallRecord[], perPage: number): { calls: CallRecord[]; full: boolean } {
  const taken: CallRecord[] = [];
  let rows = 0;
  for (const call of calls) {
    const entries = timelineOf(call).length;
    if (taken.length > 0 && rows + entries > perPage) return { calls: taken, full: true };
    taken.push(call);
    rows += entries;
  }
  return { calls: taken, full: false };
}

/**
 * `GET /api/v1/call_logs`: the log of what happened on calls, one row per timeline entry
 * (call_id, call_uuid, position, created_at, type, details), newest first.
 * - With `call_id` or `uuid`: every entry of that call (404 for a call that is not the company's).
 * - Without: the entries of the calls created in the window (`created_at_from` / `_to`, default
 *   the last 30 days), newest call first, at most `per_page` rows a page made of whole calls;
 *   `metadata.next_cursor` continues after the page's last call. Within a page rows are ordered
 *   by time, newest first.
 */
export const listCallLogs: Operation = async (request) => {
  const params = validate(callLogsSchema, request.params);
  const companyId = request.auth.companyId;
  const timeZone = params.time_zone ?? 'UTC';
  if (params.call_id !== undefined || params.uuid !== undefined) {
    const call = await findCompanyCall(request.auth, params.call_id !== undefined ? String(params.call_id) : params.uuid);
    if (params.call_id !== undefined && params.uuid !== undefined && call.uuid !== params.uuid.toLowerCase()) {
      return { kind: 'list', plural: 'call_logs', records: [], metadata: { total_count: 0, next_cursor: 0 }, bare: !params.root };
    }
    const rows = logRows([call], timeZone);
    return { kind: 'list', plural: 'call_logs', records: rows, metadata: { call_id: call.id, total_count: rows.length, next_cursor: 0 }, bare: !params.root };
  }
  const key = await cursorKey();
  const beforeId = cursorPosition(params.cursor, key, companyId, RESOURCE);
  const window = creationWindow({ createdFromMs: timeMs(params.created_at_from, timeZone), createdToMs: timeMs(params.created_at_to, timeZone), nowMs: request.now.getTime() });
  const limit = params.per_page + 1;
  const { calls: found, resumeBeforeId } = await callsByDay({ companyId, beforeId, ...window, limit });
  const page = fitCalls(found, params.per_page);
  const more = page.full || found.length === limit;
  const metadata = { per_page: params.per_page, cursor: params.cursor ?? '-1', next_cursor: nextCursor(more, page.calls[page.calls.length - 1], key, companyId, RESOURCE, resumeBeforeId) };
  return cursorListResult('call_logs', logRows(page.calls, timeZone), metadata, !params.root);
};
