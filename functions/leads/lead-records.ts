import * as v from 'valibot';
import { blacklistPut } from '../../shared/contacts/blacklist.js';
import type { EventName } from '../../shared/events/event-names.js';
import { NotFoundError, ValidationError } from '../../shared/http/errors.js';
import { blankable, booleanParam, decimalParam, integerParam, jsonObject, oneOf } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { endLead, mergeTokens, moveStep, type StepEffect } from '../../shared/leads/lead-changes.js';
import { MAX_CONTACT_ATTEMPTS, MAX_HOURS_TO_EXPIRE, tokenValue } from '../../shared/leads/lead-params.js';
import { LEAD_STATUSES, type LeadRecord } from '../../shared/leads/lead-record.js';
import { deleteLeadById } from '../../shared/leads/lead-removal.js';
import { cancelPending, schedulePending } from '../../shared/leads/lead-steps.js';
import { getLead, getLeadByUuid, transitionLead } from '../../shared/leads/lead-store.js';
import { LEAD_COLUMNS, leadView } from '../../shared/leads/lead-view.js';
import { emailParam, timeParam, timeZoneParam } from '../../shared/resources/field-schemas.js';
import { callerNumberParam } from '../calls/call-filters.js';

/** The leads API's single-record operations (Basic auth): new, show, update, delete by id. */

/** A lead by id or uuid, in the caller's company only (another company's lead is not found). */
export async function findCompanyLead(companyId: number, idOrUuid: string | undefined): Promise<LeadRecord> {
  const text = (idOrUuid ?? '').trim();
  const lead = /^\d{1,16}$/.test(text) ? await getLead(companyId, Number(text)) : text ? await getLeadByUuid(companyId, text) : undefined;
  if (!lead) throw new NotFoundError('Lead not found');
  return lead;
}

export const leadViewSchema = v.object({ time_zone: v.optional(timeZoneParam) });

/** `GET /api/v1/leads/new`: a lead's fields with their defaults, not stored. */
export const newLead: Operation = async () => {
  const defaults: Record<string, unknown> = Object.fromEntries(LEAD_COLUMNS.map((column) => [column, null]));
  Object.assign(defaults, { type: 'Lead', status: 'active', data: {}, contact_attempts: 0, action_index: 0, call_ids: [], converted: false });
  return { kind: 'record', root: 'lead', record: defaults };
};

/** `GET /api/v1/leads/:id` (id or uuid). */
export const showLead: Operation = async (request) => {
  const { time_zone } = validate(leadViewSchema, request.params);
  const lead = await findCompanyLead(request.auth.companyId, request.pathParams.id);
  return { kind: 'record', root: 'lead', record: leadView(lead, time_zone ?? 'UTC') };
};

export const leadUpdateSchema = v.object({
  email: v.optional(blankable(emailParam)),
  caller_id: v.optional(blankable(callerNumberParam)),
  data: v.optional(jsonObject(v.record(v.string(), v.unknown()), 'is not a hash')),
  lead_priority: v.optional(blankable(decimalParam)),
  next_action_at: v.optional(timeParam),
  restart_schedule: v.optional(booleanParam),
  max_contact_attempts: v.optional(blankable(v.pipe(integerParam, v.minValue(1, 'must be greater than 0'), v.maxValue(MAX_CONTACT_ATTEMPTS, `must be at most ${MAX_CONTACT_ATTEMPTS}`)))),
  hours_to_expire: v.optional(blankable(v.pipe(integerParam, v.minValue(1, 'must be greater than 0'), v.maxValue(MAX_HOURS_TO_EXPIRE, `must be at most ${MAX_HOURS_TO_EXPIRE}`)))),
  status: v.optional(oneOf(LEAD_STATUSES)),
});

type LeadUpdate = v.InferOutput<typeof leadUpdateSchema>;

/** What an API update does to a lead (pure apart from the lead copy it changes). */
export function applyLeadUpdate(lead: LeadRecord, fields: LeadUpdate, now: Date): { events: EventName[]; step: StepEffect } {
  const hadContact = Boolean(lead.caller_id || lead.email);
  if (fields.email !== undefined) lead.email = fields.email;
  if (fields.caller_id !== undefined) lead.caller_id = fields.caller_id;
  // A lead submitted with only its token has no contact and may be updated as it is; an update
  // does not take the last contact away from one that has it.
  if (hadContact && !lead.caller_id && !lead.email) throw new ValidationError({ caller_id: ["can't be blank when email is blank"] });
  if (fields.data) mergeTokens(lead, Object.fromEntries(Object.entries(fields.data).map(([key, value]) => [key, tokenValue(value)])));
  if (fields.lead_priority !== undefined) lead.lead_priority = fields.lead_priority;
  if (fields.max_contact_attempts !== undefined) lead.max_contact_attempts = fields.max_contact_attempts;
  if (fields.hours_to_expire !== undefined) {
    lead.hours_to_expire = fields.hours_to_expire;
    lead.expires_at = fields.hours_to_expire ? new Date(now.getTime() + fields.hours_to_expire * 3600_000).toISOString() : null;
  }
  const events: EventName[] = ['lead_changed'];
  if (fields.status !== undefined && fields.status !== lead.status) {
    if (lead.status !== 'active' || fields.status === 'active') throw new ValidationError({ status: [`can't change from ${lead.status} to ${fields.status}; an ended lead stays ended`] });
    const cancel = endLead(lead, fields.status, `api_${fields.status}`, now);
    events.push(...(fields.status === 'opted_out' ? (['lead_opted_out', 'lead_ended'] as const) : (['lead_ended'] as const)));
    return { events, step: { cancel } };
  }
  if (fields.restart_schedule || fields.next_action_at !== undefined) {
    if (lead.status !== 'active' || lead.phase === null) throw new ValidationError({ [fields.restart_schedule ? 'restart_schedule' : 'next_action_at']: ['the lead is not in a schedule'] });
    if (fields.restart_schedule) {
      lead.phase = 'actions';
      lead.action_index = 0;
      lead.current_action_id = null;
    }
    return { events, step: moveStep(lead, fields.next_action_at ? new Date(fields.next_action_at) : now) };
  }
  return { events, step: {} };
}

/** `PUT /api/v1/leads/:id` (uuid, or id): data merged, the other fields replaced; see docs/leads.md. */
export const updateLead: Operation = async (request) => {
  const companyId = request.auth.companyId;
  const nested = request.params.lead && typeof request.params.lead === 'object' && !Array.isArray(request.params.lead) ? (request.params.lead as Record<string, unknown>) : {};
  const fields = validate(leadUpdateSchema, { ...request.params, ...nested });
  const found = await findCompanyLead(companyId, request.pathParams.id);
  const { lead, result } = await transitionLead(
    companyId,
    found.id,
    (lead) => {
      const decided = applyLeadUpdate(lead, fields, request.now);
      const blacklist = fields.status === 'blocked' && decided.events.includes('lead_ended') && lead.caller_id ? [{ Put: blacklistPut(companyId, lead.caller_id, request.now) }] : [];
      return { result: decided.step, save: true, events: decided.events, alongside: blacklist };
    },
    request.now,
  );
  await cancelPending(result.cancel);
  if (result.pend) await schedulePending(result.pend.entry, result.pend.at);
  return { kind: 'record', root: 'lead', record: leadView(lead) };
};

/** `DELETE /api/v1/leads/:id/id`: deletes the lead by its internal id (its uuid lookup and pending step go too). */
export const deleteLeadOperation: Operation = async (request) => {
  const text = request.pathParams.id ?? '';
  const deleted = /^\d{1,16}$/.test(text) ? await deleteLeadById(request.auth.companyId, Number(text)) : undefined;
  if (!deleted) throw new NotFoundError('Lead not found');
  return { kind: 'record', root: 'lead', record: leadView(deleted) };
};
