import { ID_EPOCH_MS } from '../../shared/db/ids.js';
import { ValidationError } from '../../shared/http/errors.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { normalizeCallerNumber } from '../../shared/phone.js';
import { callPageSchema, CLOCK_SLACK_MS } from './call-filters.js';
import { externalIdsOf } from './call-external-ids.js';
import { callRow, callsByCaller, cursorListResult } from './call-pages.js';
import { cursorKey, cursorPosition, nextCursor } from '../../shared/http/list-cursor.js';

const RESOURCE = 'calls_by_caller_number';

/**
 * `GET /api/v1/calls/:caller_number/by_caller_number`: every call of one caller, newest first,
 * from gsi2 (one Query a page, then one BatchGetItem of the calls its entries name, however old
 * they are). The number may be written in any common shape; it is compared in E.164.
 */
export const callsByCallerNumber: Operation = async (request) => {
  const caller = normalizeCallerNumber(request.pathParams.caller_number);
  if (!caller) throw new ValidationError({ caller_number: ['is not a phone number'] });
  const params = validate(callPageSchema, request.params);
  const companyId = request.auth.companyId;
  const key = await cursorKey();
  const beforeId = cursorPosition(params.cursor, key, companyId, RESOURCE);
  const found = await callsByCaller(caller, { companyId, beforeId, fromMs: ID_EPOCH_MS, toMs: request.now.getTime() + CLOCK_SLACK_MS, limit: params.per_page + 1 });
  const calls = found.slice(0, params.per_page);
  const external = await externalIdsOf(companyId, calls, params.columns);
  return cursorListResult(
    'calls',
    calls.map((call) => callRow(call, params.time_zone ?? 'UTC', params.columns, external.get(call.id))),
    {
      caller_number: caller,
      per_page: params.per_page,
      cursor: params.cursor ?? '-1',
      next_cursor: nextCursor(found.length > params.per_page, calls[calls.length - 1], key, companyId, RESOURCE),
    },
    !params.root,
  );
};
