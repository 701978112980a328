import { ID_EPOCH_MS } from '../../shared/db/ids.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { callPageSchema, CLOCK_SLACK_MS } from './call-filters.js';
import { externalIdsOf } from './call-external-ids.js';
import { callRow, callsInProgress, cursorListResult } from './call-pages.js';
import { cursorKey, cursorPosition, nextCursor } from '../../shared/http/list-cursor.js';

const RESOURCE = 'live_calls';

/**
 * `GET /api/v1/calls/live_calls`: the calls in progress, newest first, from the sparse gsi3
 * (only live calls carry its keys, so the Query reads nothing else), then the calls by key.
 */
export const listLiveCalls: Operation = async (request) => {
  const params = validate(callPageSchema, request.params);
  const companyId = request.auth.companyId;
  const key = await cursorKey();
  const beforeId = cursorPosition(params.cursor, key, companyId, RESOURCE);
  const found = await callsInProgress({ companyId, beforeId, fromMs: ID_EPOCH_MS, toMs: request.now.getTime() + CLOCK_SLACK_MS, limit: params.per_page + 1 });
  const calls = found.slice(0, params.per_page);
  const external = await externalIdsOf(companyId, calls, params.columns);
  return cursorListResult(
    'calls',
    calls.map((call) => callRow(call, params.time_zone ?? 'UTC', params.columns, external.get(call.id))),
    {
      per_page: params.per_page,
      cursor: params.cursor ?? '-1',
      next_cursor: nextCursor(found.length > params.per_page, calls[calls.length - 1], key, companyId, RESOURCE),
    },
    !params.root,
  );
};
