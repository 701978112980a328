import * as v from 'valibot';
import { blockNumber, listBlacklist, unblockNumber } from '../../shared/contacts/blacklist.js';
import { NotFoundError, ValidationError } from '../../shared/http/errors.js';
import { booleanParam } from '../../shared/http/param-schemas.js';
import type { Operation, OperationRequest } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { normalizeCallerNumber } from '../../shared/phone.js';
import { isoWithOffset } from '../../shared/time.js';

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

export const suppressionListSchema = v.object({ root: v.optional(booleanParam, true) });

/** `GET /api/v1/contacts/suppression_list`: the company's blacklisted numbers. */
export const suppressionList: Operation = async (request) => {
  const { root } = validate(suppressionListSchema, request.params);
  const entries = await listBlacklist(request.auth.companyId);
  const records = entries.map((entry) => ({ caller_id: entry.number, blocked: true, blocked_at: isoWithOffset(entry.blocked_at) }));
  return {
    kind: 'list',
    plural: 'contacts',
    records,
    metadata: { total_count: records.length, page: 1, per_page: records.length, total_pages: 1 },
    bare: !root,
  };
};
