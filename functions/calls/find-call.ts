import { createHash, timingSafeEqual } from 'node:crypto';
import * as v from 'valibot';
import { getCall, getCallByUuid, type CallRecord } from '../../shared/calls/call-store.js';
import { NotFoundError } from '../../shared/http/errors.js';
import type { AuthContext, OperationRequest, Params } from '../../shared/http/request.js';
import { assertSees } from '../../shared/auth/authorize.js';
import { validate } from '../../shared/http/validation.js';
import { timeZoneParam } from '../../shared/resources/field-schemas.js';
import { callColumnsParam } from './call-filters.js';

/**
 * Finding one call: by id or uuid for the company's own requests, by uuid and the call's secure
 * token for the secure endpoints. Anything that does not name one of the caller's calls is the
 * same 404, so another company's calls cannot even be confirmed to exist.
 */
const ID_TEXT = /^\d{1,16}$/;
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Is `text` a call id or a uuid (the `{id}` of the call paths)? Pure. */
export function callReference(text: string | undefined): { id: number } | { uuid: string } | undefined {
  if (text === undefined) return undefined;
  if (ID_TEXT.test(text)) {
    const id = Number(text);
    return Number.isSafeInteger(id) && id > 0 ? { id } : undefined;
  }
  return UUID_TEXT.test(text) ? { uuid: text.toLowerCase() } : undefined;
}

/**
 * The caller's call named by id or uuid: one of the company's that the request's grant lets it
 * see (a buyer team sees its buyer's calls only, shared/auth/authorize.ts); 404 for anything else.
 */
export async function findCompanyCall(auth: Pick<AuthContext, 'companyId' | 'grant'>, text: string | undefined): Promise<CallRecord> {
  const call = await companyCall(auth.companyId, text);
  assertSees(auth.grant, call);
  return call;
}

async function companyCall(companyId: number, text: string | undefined): Promise<CallRecord> {
  const reference = callReference(text);
  if (!reference) throw new NotFoundError();
  if ('id' in reference) {
    const call = await getCall(companyId, reference.id);
    if (!call) throw new NotFoundError();
    return call;
  }
  const found = await getCallByUuid(reference.uuid);
  if (!found || found.companyId !== companyId) throw new NotFoundError();
  return found.call;
}

/** Constant-time comparison of two tokens of any length (compares their SHA-256). Pure. */
export function tokensMatch(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * The call of a secure endpoint: the uuid names it, the secure token (from the call's SIP
 * headers) authorises it. A wrong token and an unknown uuid are the same 404.
 */
export async function findSecureCall(request: OperationRequest): Promise<{ companyId: number; call: CallRecord }> {
  const token = request.pathParams.secure_token ?? '';
  const reference = callReference(request.pathParams.uuid);
  if (!token || !reference || !('uuid' in reference)) throw new NotFoundError();
  const found = await getCallByUuid(reference.uuid);
  if (!found || typeof found.call.secure_token !== 'string' || !tokensMatch(token, found.call.secure_token)) throw new NotFoundError();
  return found;
}

export const viewSchema = v.object({ time_zone: v.optional(timeZoneParam), columns: v.optional(callColumnsParam) });

/** `time_zone` and `columns` of the endpoints that answer with one call. */
export function viewParams(params: Params): { timeZone: string; columns?: string[] } {
  const parsed = validate(viewSchema, params);
  return { timeZone: parsed.time_zone ?? 'UTC', columns: parsed.columns };
}
