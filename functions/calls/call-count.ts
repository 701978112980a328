import { callsOfDays, type DayCount } from '../../shared/calls/call-day-counts.js';
import { countCallsInWindow } from '../../shared/calls/call-day-count-store.js';
import { callsByCaller, callsByDay, callsInProgress, type CallRead } from './call-pages.js';

/**
 * `metadata.total_count` of `GET /api/v1/calls`, from the same source the page was read from,
 * without reading every call of the company:
 * - no filter but the creation window: the day counts (already read to skip empty days), plus a
 *   Select COUNT of the parts of at most two hours the window's edges cut;
 * - `ids`: the named calls themselves (at most 500, read anyway);
 * - `caller_number` (gsi2), `in_progress=true` (sparse gsi3) and every other filter (over the day
 *   partitions of the window): the matching calls are read and counted, up to
 *   MAX_CALLS_COUNTED_BY_READING calls; past that, the list answers without `total_count`.
 * A page that already read every matching call (no cursor, fewer than asked for) is its own count.
 */

/** The most calls a filtered list reads to count them (about 1,000 read units at 4 KB a call). */
export const MAX_CALLS_COUNTED_BY_READING = 2_000;

/** Where the list read its page: this decides how its calls are counted. */
export type CallSource = 'ids' | 'caller' | 'live' | 'days';

export interface CountRequest {
  source: Exclude<CallSource, 'ids'>;
  /** The page's read (its window, filters, days); its cursor and limit do not apply to the count. */
  read: CallRead;
  /** The caller (source `caller`). */
  callerNumber?: string;
  /** The window's day counts (source `days`). */
  counts?: ReadonlyMap<string, DayCount>;
  nowMs: number;
  /** The most calls to read for a count (MAX_CALLS_COUNTED_BY_READING). */
  bound?: number;
}

/** The number of calls the list holds over all its pages, or undefined when that would cost more than it is worth. */
export async function countMatchingCalls(request: CountRequest): Promise<number | undefined> {
  const bound = request.bound ?? MAX_CALLS_COUNTED_BY_READING;
  const read: CallRead = { ...request.read, beforeId: undefined, limit: bound + 1 };
  const bounded = (found: readonly unknown[]) => (found.length > bound ? undefined : found.length);
  switch (request.source) {
    case 'caller':
      return bounded(await callsByCaller(request.callerNumber ?? '', read));
    case 'live':
      return bounded(await callsInProgress(read));
    case 'days': {
      const counts = request.counts ?? new Map<string, DayCount>();
      const window = { fromMs: read.fromMs, toMs: read.toMs };
      if (!read.accept) return countCallsInWindow(read.companyId, counts, window, request.nowMs);
      // The day counts bound what a filtered count would read: beyond the bound nothing is read.
      if (callsOfDays(counts, window) > bound) return undefined;
      const found = await callsByDay(read);
      // A walk cut at its day limit (over 120 days with calls) has not seen them all.
      return found.resumeBeforeId === undefined ? found.calls.length : undefined;
    }
  }
}
