import { adjustCall } from '../../shared/calls/call-flow.js';
import type { Operation } from '../../shared/http/request.js';
import { callChanges } from './call-changes.js';
import { callRow } from './call-pages.js';
import { findSecureCall } from './find-call.js';
import { hangUp } from './hangup.js';

/**
 * The secure endpoints: no credentials; the call's uuid and its secure token (both handed to the
 * buyer in the call's SIP headers, svc_uuid and svc_secure_token) authorise one call. Their
 * holder is usually the buyer, so they answer with the buyer's side of the call only, never the
 * traffic source payout or profit.
 */
export const SECURE_COLUMNS = [
  'id',
  'uuid',
  'created_at',
  'updated_at',
  'ended_at',
  'status',
  'in_progress',
  'caller_number',
  'revenue',
  'buyer_converted',
  'first_name',
  'last_name',
  'email',
  'address',
  'city',
  'state',
  'zip',
  'data',
] as const;

/** `PUT /api/v1/secure/:secure_token/calls/:uuid`: the changes of `POST /api/v1/calls/:id`. */
export const secureUpdate: Operation = async (request) => {
  const { companyId, call } = await findSecureCall(request);
  const changes = callChanges(request.params);
  const updated = await adjustCall(companyId, call.id, changes, request.now);
  return { kind: 'record', root: 'call', record: callRow(updated, 'UTC', SECURE_COLUMNS) };
};

/** `DELETE /api/v1/secure/:secure_token/calls/:uuid`: hangs up the call (422 when it is not in progress). */
export const secureHangUp: Operation = async (request) => {
  const { companyId, call } = await findSecureCall(request);
  const updated = await hangUp(companyId, call, 'secure', request.now);
  return { kind: 'record', root: 'call', record: callRow(updated, 'UTC', SECURE_COLUMNS) };
};

/** `GET /api/v1/secure/:secure_token/calls/:uuid/data`: the call's uuid and data hash. */
export const secureData: Operation = async (request) => {
  const { call } = await findSecureCall(request);
  const data = call.data && typeof call.data === 'object' ? call.data : {};
  return { kind: 'record', root: 'call', record: { uuid: call.uuid, data } };
};
