import { telephonyPort } from '../../shared/adapters/index.js';
import { recordOnTimeline } from '../../shared/calls/call-flow.js';
import type { CallRecord } from '../../shared/calls/call-store.js';
import { ValidationError } from '../../shared/http/errors.js';
import type { Operation } from '../../shared/http/request.js';
import { callRow } from './call-pages.js';
import { findCompanyCall } from './find-call.js';

/**
 * Hangs up a call in progress: asks the carrier to end it (`telephonyPort().hangup`) and records
 * the request on the call's timeline. The call ends as every call does, when the carrier's final
 * status callback arrives (that releases the buyer and counts the call). 422 when the call is
 * not in progress.
 */
export async function hangUp(companyId: number, call: CallRecord, source: 'api' | 'secure', at: Date): Promise<CallRecord> {
  const carrierCallId = call.carrier_call_id;
  if (!call.in_progress || typeof carrierCallId !== 'string' || !carrierCallId) throw new ValidationError({ base: ['call is not in progress'] });
  await telephonyPort().hangup(carrierCallId);
  return recordOnTimeline(companyId, call.id, 'hangup_requested', { source }, at);
}

/** `DELETE /api/v1/calls/:id` (id or uuid): hangs up an ongoing call. */
export const hangUpCall: Operation = async (request) => {
  const companyId = request.auth.companyId;
  const call = await findCompanyCall(request.auth, request.pathParams.id);
  const updated = await hangUp(companyId, call, 'api', request.now);
  return { kind: 'record', root: 'call', record: callRow(updated, 'UTC') };
};
