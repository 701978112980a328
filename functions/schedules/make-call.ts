import * as v from 'valibot';
import { callView } from '../../shared/calls/call-view.js';
import { getCall } from '../../shared/calls/call-store.js';
import { getRecord } from '../../shared/db/records.js';
import { NotFoundError, ValidationError } from '../../shared/http/errors.js';
import { idParam, presentString } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { getLead, getLeadByUuid, transitionLead } from '../../shared/leads/lead-store.js';
import { outboundNumber, placeOutboundCall } from '../../shared/leads/outbound-dial.js';
import { validStoredNumber } from '../../shared/phone-validation.js';

export const makeCallSchema = v.object({
  schedule_id: idParam,
  /** A lead of the company (id or uuid); its number and tokens are dialed. */
  lead_id: v.optional(v.union([idParam, presentString], 'is not a lead id or uuid')),
  /** Or a number to call without a lead. */
  caller_id: v.optional(presentString),
});

/**
 * `POST /api/v1/schedules/make_call`: places an outbound call now from the schedule's offer,
 * ignoring the schedule's waits and the dial conditions: to a lead (`lead_id`, its number and
 * tokens; the call is added to the lead's calls) or to a bare `caller_id` (no lead is created;
 * the call has no tokens). 422 when the schedule has no offer or the offer no tracking number to
 * call from; the answer is the call, `dialing`.
 */
export const makeCall: Operation = async (request) => {
  const companyId = request.auth.companyId;
  const params = validate(makeCallSchema, request.params);
  if ((params.lead_id === undefined) === (params.caller_id === undefined)) throw new ValidationError({ lead_id: ['give a lead_id or a caller_id (one of them)'] });
  const schedule = await getRecord(companyId, 'schedules', params.schedule_id);
  if (!schedule) throw new ValidationError({ schedule_id: ['does not exist'] });
  if (typeof schedule.offer_id !== 'number') throw new ValidationError({ schedule_id: ['has no offer to connect the call to'] });
  const number = await outboundNumber(companyId, schedule.offer_id);
  if (!number) throw new ValidationError({ schedule_id: ["has an offer without a tracking number to call from"] });

  let to: string;
  let lead: Awaited<ReturnType<typeof getLead>>;
  if (params.lead_id !== undefined) {
    lead = typeof params.lead_id === 'number' ? await getLead(companyId, params.lead_id) : await getLeadByUuid(companyId, params.lead_id);
    if (!lead) throw new NotFoundError();
    if (!lead.caller_id) throw new ValidationError({ lead_id: ['has no caller_id to call'] });
    to = lead.caller_id;
  } else {
    // A number we dial: valid under the full metadata, not only possible.
    const normalized = validStoredNumber(params.caller_id!);
    if (!normalized) throw new ValidationError({ caller_id: ['is not a phone number'] });
    to = normalized;
  }
  const result = await placeOutboundCall(
    companyId,
    { to, offerId: schedule.offer_id, leadId: lead?.id ?? null, scheduleId: Number(schedule.id), scheduleActionId: null, tokens: lead?.data ?? {} },
    number,
    request.now,
  );
  if (!result.placed) throw new ValidationError({ base: [`the carrier did not place the call (${result.reason})`] });
  if (lead) {
    const callId = result.callId;
    await transitionLead(
      companyId,
      lead.id,
      (fresh) => {
        const callIds = Array.isArray(fresh.call_ids) ? fresh.call_ids : [];
        if (callIds.includes(callId)) return { result: undefined, save: false };
        fresh.call_ids = [...callIds, callId];
        return { result: undefined, save: true };
      },
      request.now,
    );
  }
  const call = await getCall(companyId, result.callId);
  return { kind: 'record', root: 'call', record: callView(call!) };
};
