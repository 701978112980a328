import { assertFieldsGranted } from '../../shared/auth/authorize.js';
import { adjustCall } from '../../shared/calls/call-flow.js';
import type { Operation } from '../../shared/http/request.js';
import { callChanges } from './call-changes.js';
import { callRow } from './call-pages.js';
import { findCompanyCall } from './find-call.js';

/**
 * `POST /api/v1/calls/:id` (id or uuid): changes contact fields, revenue, payout, conversion
 * flags and merges `data`. The change goes through the call state machine's `adjustCall`: one
 * versioned save with the report rollup differences, then the buyer's revenue and conversion
 * counters follow, and `call_changed` is published.
 */
export const updateCall: Operation = async (request) => {
  const companyId = request.auth.companyId;
  const call = await findCompanyCall(request.auth, request.pathParams.id);
  const changes = callChanges(request.params);
  // A postback token (a team limited to some fields, or a buyer team) changes those fields only.
  assertFieldsGranted(request.auth.grant, call, Object.keys(changes), 'calls', 'update');
  const updated = await adjustCall(companyId, call.id, changes, request.now);
  return { kind: 'record', root: 'call', record: callRow(updated, 'UTC') };
};
