import * as v from 'valibot';
import { assertFieldsGranted } from '../../shared/auth/authorize.js';
import { adjustCall } from '../../shared/calls/call-flow.js';
import { callsOfCaller, type CallRecord } from '../../shared/calls/call-store.js';
import { keys } from '../../shared/db/keys.js';
import { getLookup } from '../../shared/db/records.js';
import { NotFoundError, ValidationError } from '../../shared/http/errors.js';
import { booleanParam, presentString } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { normalizeCallerNumber } from '../../shared/phone.js';
import { moneyParam } from './call-changes.js';
import { callRow } from './call-pages.js';

export const updateByCallerIdSchema = v.object({
  offer_token: presentString,
  revenue: v.optional(moneyParam),
  buyer_converted: v.optional(booleanParam),
});

/** Calls of a caller read per Query while looking for the newest on an offer. */
const BATCH = 50;

/** The caller's newest call on the offer (gsi2, newest first), if any. */
async function newestCallOnOffer(companyId: number, caller: string, offerId: number): Promise<CallRecord | undefined> {
  let beforeId: number | undefined;
  for (;;) {
    const calls = await callsOfCaller(companyId, caller, BATCH, beforeId);
    const match = calls.find((call) => call.offer_id === offerId);
    if (match) return match;
    const last = calls[calls.length - 1];
    if (calls.length < BATCH || !last) return undefined;
    beforeId = last.id;
  }
}

/**
 * `POST /api/v1/calls/update_by_caller_id/:caller_id`: sets `revenue` and/or `buyer_converted`
 * of the newest call from this caller to the offer whose `offer_token` is given (an offer of the
 * calling company: found by its global token lookup, one GetItem). Applied with `adjustCall`,
 * like `POST /api/v1/calls/:id`. 404 when the caller has no call on that offer.
 */
export const updateByCallerId: Operation = async (request) => {
  const companyId = request.auth.companyId;
  const caller = normalizeCallerNumber(request.pathParams.caller_id);
  const params = validate(updateByCallerIdSchema, request.params);
  if (!caller) throw new ValidationError({ caller_id: ['is not a phone number'] });
  const offer = await getLookup(keys.globalLookup('offers', 'offer_token', params.offer_token));
  if (!offer || offer.company_id !== companyId) throw new ValidationError({ offer_token: ['is not the offer token of one of your offers'] });
  const changes = Object.fromEntries(Object.entries({ revenue: params.revenue, buyer_converted: params.buyer_converted }).filter(([, value]) => value !== undefined));
  if (Object.keys(changes).length === 0) throw new ValidationError({ base: ['nothing to change (fields: revenue, buyer_converted)'] });
  const call = await newestCallOnOffer(companyId, caller, offer.id);
  if (!call) throw new NotFoundError('No call from this caller on that offer');
  assertFieldsGranted(request.auth.grant, call, Object.keys(changes), 'calls', 'update');
  const updated = await adjustCall(companyId, call.id, changes, request.now);
  return { kind: 'record', root: 'call', record: callRow(updated, 'UTC') };
};
