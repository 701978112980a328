import * as v from 'valibot';
import { blacklistPage, blockNumber, unblockNumber } from '../../shared/contacts/blacklist.js';
import { NotFoundError, ValidationError } from '../../shared/http/errors.js';
import { booleanParam, integerParam } from '../../shared/http/param-schemas.js';
import { cursorTextParam, DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../../shared/http/list-params.js';
import { cursorKey, cursorPosition, nextCursor } from '../../shared/http/list-cursor.js';
import type { Operation, OperationRequest } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { normalizeCallerNumber } from '../../shared/phone.js';
import { isoWithOffset } from '../../shared/time.js';
import { cursorListResult } from '../calls/call-pages.js';

function callerOf(request: OperationRequest): string {
  const number = normalizeCallerNumber(request.pathParams.caller_id);
  if (!number) throw new ValidationError({ caller_id: ['is not a phone number'] });
  return number;
}

/** `POST /api/v1/contacts/:caller_id/caller_block`: blacklists the caller for the company. */
export const callerBlock: Operation = async (request) => {
  const number = callerOf(request);
  await blockNumber(request.auth.companyId, number, request.now);
  return { kind: 'record', root: 'contact', record: { caller_id: number, blocked: true, blocked_at: isoWithOffset(request.now) } };
};

/** `POST /api/v1/contacts/:caller_id/caller_unblock`: removes the caller from the blacklist; 404 if not on it. */
export const callerUnblock: Operation = async (request) => {
  const number = callerOf(request);
  if (!(await unblockNumber(request.auth.companyId, number))) throw new NotFoundError('Caller is not blacklisted');
  return { kind: 'record', root: 'contact', record: { caller_id: number, blocked: false, blocked_at: null } };
};

export const suppressionListSchema = v.object({
  root: v.optional(booleanParam, true),
  page: v.optional(v.pipe(integerParam, v.minValue(1, 'must be at least 1'), v.maxValue(1000, 'must be at most 1000; page deeper with cursor')), 1),
  per_page: v.optional(v.pipe(integerParam, v.minValue(1, 'must be at least 1'), v.maxValue(MAX_PER_PAGE, `must be at most ${MAX_PER_PAGE}`)), DEFAULT_PER_PAGE),
  cursor: v.optional(cursorTextParam),
});

/** Cursors of this list carry the last number's digits (E.164 has at most 15: a safe integer). */
const RESOURCE = 'suppression_list';

/**
 * `GET /api/v1/contacts/suppression_list`: the company's blacklisted numbers in number order,
 * `per_page` (default 25) at a time: by `cursor` (`metadata.next_cursor`, 0 after the last page)
 * or by `page` (which reads the pages before it).
 */
export const suppressionList: Operation = async (request) => {
  const params = validate(suppressionListSchema, request.params);
  const companyId = request.auth.companyId;
  const key = await cursorKey();
  const position = cursorPosition(params.cursor, key, companyId, RESOURCE);
  let after = position !== undefined ? `+${position}` : undefined;
  let page = await blacklistPage(companyId, after, params.per_page);
  // Numbered pages walk the pages before them (bounded by the page limit).
  for (let skipped = 1; params.cursor === undefined && skipped < params.page && page.more; skipped++) {
    after = page.entries[page.entries.length - 1]!.number;
    page = await blacklistPage(companyId, after, params.per_page);
  }
  const records = page.entries.map((entry) => ({ caller_id: entry.number, blocked: true, blocked_at: isoWithOffset(entry.blocked_at) }));
  const last = page.entries[page.entries.length - 1];
  const next = nextCursor(page.more, last ? { id: Number(last.number.replace(/\D/g, '')) } : undefined, key, companyId, RESOURCE);
  return cursorListResult('contacts', records, { ...(params.cursor === undefined ? { page: params.page } : {}), per_page: params.per_page, cursor: params.cursor ?? '-1', next_cursor: next }, !params.root);
};
