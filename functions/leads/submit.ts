import { recordEnvelope } from '../../shared/http/envelope.js';
import { submitLead } from '../../shared/leads/lead-submission.js';
import { leadView } from '../../shared/leads/lead-view.js';
import { leadTokenOperation } from './token-response.js';

/**
 * `POST /api/v1/leads`: parameters from the query string, form fields or JSON, mixed; authorised
 * by `lead_token` alone. Answers the lead envelope with `success: true`, plus the numbers asked
 * for (`service_number_plain` and, under the hosted service's name, `trackdrive_number_plain`;
 * `sms_number_plain`) and, with `apply_to=calls`, the calls updated.
 */
export const submit = leadTokenOperation(async (request) => {
  const result = await submitLead(request.params, request.now);
  return {
    ...recordEnvelope('lead', leadView(result.lead)),
    // trackdrive_number_plain: the hosted service's name of the same number (docs/compatibility.md).
    ...(result.serviceNumber ? { service_number_plain: result.serviceNumber, trackdrive_number_plain: result.serviceNumber } : {}),
    ...(result.smsNumber ? { sms_number_plain: result.smsNumber } : {}),
    ...(result.appliedToCallIds ? { applied_to_call_ids: result.appliedToCallIds } : {}),
    created: result.created,
    updated_lead_ids: result.updatedLeadIds,
  };
});
