import * as v from 'valibot';
import type { EventName } from '../../shared/events/event-names.js';
import { recordEnvelope, listEnvelope } from '../../shared/http/envelope.js';
import { HttpError, ValidationError } from '../../shared/http/errors.js';
import { integerParam } from '../../shared/http/param-schemas.js';
import type { OperationRequest } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { endLead, moveToEndOfSchedule, type LeadTokenOwner, type StepEffect } from '../../shared/leads/lead-changes.js';
import type { LeadRecord } from '../../shared/leads/lead-record.js';
import { cancelPending, schedulePending } from '../../shared/leads/lead-steps.js';
import { leadsOfContact, transitionLead } from '../../shared/leads/lead-store.js';
import { unknownLeadToken } from '../../shared/leads/lead-submission.js';
import { findLeadTokenOwner } from '../../shared/leads/lead-token.js';
import { leadView } from '../../shared/leads/lead-view.js';
import { normalizeCallerNumber } from '../../shared/phone.js';
import { leadTokenOperation } from './token-response.js';

/**
 * The caller path operations, authorised by the `lead_token` query parameter: they act on every
 * active lead of that caller under that token (an offer's or a schedule's), and answer the newest
 * one they changed with `lead_ids` naming all of them; 404 when the caller has no active lead.
 */

async function ownerOfToken(token: unknown): Promise<LeadTokenOwner> {
  const { owner } = await findLeadTokenOwner(token);
  if (!owner) throw unknownLeadToken(token);
  return owner;
}

function callerOfPath(value: string | undefined, field: string): string {
  const caller = normalizeCallerNumber(value);
  if (!caller) throw new ValidationError({ [field]: ['is not a phone number'] });
  return caller;
}

type LeadStep = (lead: LeadRecord, now: Date) => { events: EventName[]; step: StepEffect } | undefined;

async function changeCallerLeads(request: OperationRequest, change: LeadStep, only?: (owner: LeadTokenOwner) => void): Promise<Record<string, unknown>> {
  const owner = await ownerOfToken(request.params.lead_token);
  only?.(owner);
  const caller = callerOfPath(request.pathParams.caller_id, 'caller_id');
  const matches = (await leadsOfContact(owner.companyId, caller, owner.owner)).filter((lead) => lead.status === 'active');
  const changed: LeadRecord[] = [];
  for (const match of matches) {
    const { lead, saved, result } = await transitionLead(
      owner.companyId,
      match.id,
      (lead) => {
        const decided = lead.status === 'active' ? change(lead, request.now) : undefined;
        return decided ? { result: decided.step, save: true, events: decided.events } : { result: undefined, save: false };
      },
      request.now,
    );
    if (!saved || !result) continue;
    await cancelPending(result.cancel);
    if (result.pend) await schedulePending(result.pend.entry, result.pend.at);
    changed.push(lead);
  }
  if (changed.length === 0) throw new HttpError(404, 'No active lead', { caller_id: ['has no active lead for this lead_token'] });
  return { ...recordEnvelope('lead', leadView(changed[0]!)), lead_ids: changed.map((lead) => lead.id) };
}

/** `PUT|GET /api/v1/leads/:caller_id/caller_opt_out`: opted out, nothing pending (lead_opted_out, lead_ended). */
export const callerOptOut = leadTokenOperation((request) =>
  changeCallerLeads(request, (lead, now) => ({ events: ['lead_opted_out', 'lead_ended'], step: { cancel: endLead(lead, 'opted_out', 'opted_out', now) } })),
);

/** `POST|DELETE|GET /api/v1/leads/:caller_id/caller_remove`: removed from its schedule or offer (lead_ended). */
export const callerRemove = leadTokenOperation((request) =>
  changeCallerLeads(request, (lead, now) => ({ events: ['lead_ended'], step: { cancel: endLead(lead, 'removed', 'removed', now) } })),
);

/** `PUT|POST /api/v1/leads/:caller_id/caller_move_to_end_of_schedule`: its end-of-schedule actions, from the first, now. */
export const callerMoveToEnd = leadTokenOperation((request) =>
  changeCallerLeads(
    request,
    (lead, now) => ({ events: ['lead_changed'], step: moveToEndOfSchedule(lead, now) }),
    (owner) => {
      if (owner.owner.kind !== 'schedule') throw new ValidationError({ lead_token: ["is an offer's lead token; offer leads have no schedule"] });
    },
  ),
);

export const leadsByCallerSchema = v.object({
  per_page: v.optional(v.pipe(integerParam, v.minValue(1, 'must be at least 1'), v.maxValue(100, 'must be at most 100')), 25),
});

/**
 * `GET /api/v1/leads/:lead_token/:caller_number/by_caller_number`: the caller's leads under that
 * token, every status, newest first (one Query of the contact index).
 */
export const leadsByCallerNumber = leadTokenOperation(async (request) => {
  const owner = await ownerOfToken(request.pathParams.lead_token);
  const caller = callerOfPath(request.pathParams.caller_number, 'caller_number');
  const { per_page } = validate(leadsByCallerSchema, request.params);
  const leads = (await leadsOfContact(owner.companyId, caller, owner.owner, per_page)).sort((a, b) => b.id - a.id);
  return listEnvelope('leads', leads.map((lead) => leadView(lead)), { caller_id: caller, per_page, total_count: leads.length }, false) as Record<string, unknown>;
});
