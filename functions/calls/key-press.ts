import * as v from 'valibot';
import { telephonyPort } from '../../shared/adapters/index.js';
import { assertFieldsGranted } from '../../shared/auth/authorize.js';
import { recordOnTimeline } from '../../shared/calls/call-flow.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { dataParam } from './call-changes.js';
import { callRow } from './call-pages.js';
import { findCompanyCall } from './find-call.js';

export const keyPressSchema = v.object({
  id: v.pipe(v.union([v.string(), v.number()], 'is not a call uuid'), v.transform(String), v.trim(), v.nonEmpty("can't be blank")),
  digits: v.pipe(
    v.union([v.string(), v.number()], 'is not a string of key presses'),
    v.transform(String),
    v.trim(),
    v.regex(/^[0-9*#]{1,32}$/, 'must be 1 to 32 of the keys 0-9, * and #'),
  ),
  data: v.optional(dataParam),
});

/**
 * `POST /api/v1/calls/send_key_press`: `id` (the call's uuid; its id works too), `digits` and an
 * optional `data` hash. A call in progress gets the digits played into it by the carrier
 * (`telephonyPort().sendDigits`); the key press is recorded on the call's timeline (with
 * `sent_to_carrier`) and `data` merged into the call's data, in one versioned save. A finished
 * call takes the record only.
 */
export const sendKeyPress: Operation = async (request) => {
  const params = validate(keyPressSchema, request.params);
  const companyId = request.auth.companyId;
  const call = await findCompanyCall(request.auth, params.id);
  // `data` is merged into the call: a team limited to other fields may not send it.
  if (params.data !== undefined) assertFieldsGranted(request.auth.grant, call, ['data'], 'calls', 'update');
  const carrierCallId = call.in_progress === true && typeof call.carrier_call_id === 'string' && call.carrier_call_id ? call.carrier_call_id : undefined;
  if (carrierCallId) await telephonyPort().sendDigits(carrierCallId, params.digits);
  const updated = await recordOnTimeline(companyId, call.id, 'key_press', { digits: params.digits, source: 'api', sent_to_carrier: carrierCallId !== undefined }, request.now, params.data);
  return { kind: 'record', root: 'call', record: callRow(updated, 'UTC') };
};
