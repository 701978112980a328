import { CALL_COLUMNS } from '../../shared/calls/call-view.js';
import { ID_EPOCH_MS } from '../../shared/db/ids.js';
import { csvResponse, toCsv } from '../../shared/http/csv.js';
import type { Operation } from '../../shared/http/request.js';
import { rowsWithinBudget } from '../../shared/http/response-budget.js';
import { validate } from '../../shared/http/validation.js';
import { callListSchema, callPredicate, conditionsOf, creationWindow, timeMs } from './call-filters.js';
import { callRow, callsByCaller, callsByDay, callsById, callsInProgress, cursorListResult, type CallRead } from './call-pages.js';
import { countMatchingCalls, type CallSource } from './call-count.js';
import { daysWithCalls } from '../../shared/calls/call-day-counts.js';
import { readCallDayCounts } from '../../shared/calls/call-day-count-store.js';
import { cursorKey, cursorPosition, nextCursor } from '../../shared/http/list-cursor.js';
import { externalIdsOf } from './call-external-ids.js';

/** Cursors of this list are bound to this name (and the company). */
const RESOURCE = 'calls';

/**
 * `GET /api/v1/calls` (and `/api/v1/calls.csv`): the company's calls, newest first.
 *
 * Paging is by cursor (`cursor=-1` or none starts at the newest; `metadata.next_cursor` goes on,
 * 0 after the last page). Without a cursor, `page=N` skips the N-1 pages before it (reading
 * them), up to record 10,000. Calls are read from the index that fits the filters: one caller's
 * calls from gsi2, calls in progress from gsi3, `ids` by key, everything else from the day
 * partitions of the creation window (the last 30 days unless `created_at_from` says otherwise):
 * one Query of the window's day counts, then one Query per day with calls. Filters are applied
 * while reading, so a page stops as soon as it is full. `metadata.total_count` is counted as
 * functions/calls/call-count.ts says (omitted when only reading thousands of calls could tell).
 */
export const listCalls: Operation = async (request) => {
  const params = validate(callListSchema, request.params);
  const companyId = request.auth.companyId;
  const timeZone = params.time_zone ?? 'UTC';
  const conditions = conditionsOf(params, timeZone);
  const createdFromMs = timeMs(params.created_at_from, timeZone);
  const createdToMs = timeMs(params.created_at_to, timeZone);
  const key = await cursorKey();
  const beforeId = cursorPosition(params.cursor, key, companyId, RESOURCE);
  const skip = params.cursor === undefined ? (params.page - 1) * params.per_page : 0;
  // A buyer team's grant keeps its buyer's calls only: left out of the page and of total_count.
  const filters = callPredicate(conditions);
  const sees = request.auth.grant?.sees;
  const accept = sees ? (call: Record<string, unknown>) => sees(call) && (!filters || filters(call)) : filters;

  const window = params.ids
    ? // Named calls: only the bounds the client gave.
      { fromMs: createdFromMs ?? ID_EPOCH_MS, toMs: Math.min(createdToMs ?? Number.MAX_SAFE_INTEGER, conditions.endedToMs ?? Number.MAX_SAFE_INTEGER) }
    : creationWindow({ createdFromMs, createdToMs, endedToMs: conditions.endedToMs, nowMs: request.now.getTime() });
  const source: CallSource = params.ids ? 'ids' : params.caller_number !== undefined ? 'caller' : params.in_progress === true ? 'live' : 'days';
  // The day counts of the window: which days to query, and (without filters) the total count.
  const counts = source === 'days' ? await readCallDayCounts(companyId, window) : undefined;
  const read: CallRead = { companyId, beforeId, ...window, limit: skip + params.per_page + 1, accept, days: counts && daysWithCalls(counts, window) };
  // Named calls are read whole (at most 500) and counted; the cursor applies to the page.
  const named = params.ids ? await callsById(params.ids, { ...read, beforeId: undefined, limit: Number.MAX_SAFE_INTEGER }) : undefined;
  const { calls: found, resumeBeforeId } = named
    ? { calls: named.filter((call) => beforeId === undefined || call.id < beforeId).slice(0, read.limit) }
    : params.caller_number !== undefined
      ? { calls: await callsByCaller(params.caller_number, read) }
      : params.in_progress === true
        ? { calls: await callsInProgress(read) }
        : await callsByDay(read);
  const csv = request.route.path.endsWith('.csv') || params.format === 'csv';
  const readAll = beforeId === undefined && resumeBeforeId === undefined && found.length < read.limit;
  // Only the envelope shows total_count: CSV and bare arrays are not counted.
  const totalCount =
    csv || !params.root
      ? undefined
      : source === 'ids'
        ? named?.length
        : readAll
          ? found.length // the page read every matching call: its own count
          : await countMatchingCalls({ source, read, callerNumber: params.caller_number, counts, nowMs: request.now.getTime() });

  const wanted = found.slice(skip, skip + params.per_page);
  const external = await externalIdsOf(companyId, wanted, params.columns);
  const allRows = wanted.map((call) => callRow(call, timeZone, params.columns, external.get(call.id)));
  // A page stops early when its rows would pass the response budget; the cursor goes on from there.
  const fits = rowsWithinBudget(allRows);
  const calls = wanted.slice(0, fits);
  const rows = allRows.slice(0, fits);
  const more = found.length > skip + fits;
  const next = nextCursor(more, calls[calls.length - 1], key, companyId, RESOURCE, resumeBeforeId);

  if (csv) {
    const response = csvResponse('calls.csv', toCsv(params.columns ?? CALL_COLUMNS, rows));
    // The CSV body has no metadata: the next page's cursor travels in a header.
    return { kind: 'raw', response: { ...response, headers: { ...response.headers, 'x-next-cursor': String(next) } } };
  }
  // total_pages beside total_count: clients compute their page loops from it (docs/compatibility.md).
  const counted = totalCount === undefined ? {} : { total_count: totalCount, total_pages: Math.ceil(totalCount / params.per_page) };
  const metadata = { ...counted, ...(params.cursor === undefined ? { page: params.page } : {}), per_page: params.per_page, cursor: params.cursor ?? '-1', next_cursor: next };
  return cursorListResult('calls', rows, metadata, !params.root);
};
