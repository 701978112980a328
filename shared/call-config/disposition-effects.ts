import { adjustCall } from '../calls/call-flow.js';
import { getCall } from '../calls/call-store.js';
import { blockNumber } from '../contacts/blacklist.js';
import { getRecord } from '../db/records.js';
import { ValidationError, type FieldErrors } from '../http/errors.js';
import { moveToEndOfSchedule, type StepEffect } from '../leads/lead-changes.js';
import { cancelPending, schedulePending } from '../leads/lead-steps.js';
import { getLead, transitionLead } from '../leads/lead-store.js';
import { COPIED_FROM_DISPOSITION, DISPOSITION_FLAGS } from './call-dispositions-view.js';
import type { HookContext } from '../resources/define.js';

/**
 * Agent call dispositions (shared/call-config/call-dispositions-resource.ts): the call must be the company's
 * and the outcome one the call's offer may use; the outcome's name, colours and flags are copied
 * onto the record as it is written, and its effects follow each successful write. Every effect is
 * idempotent (a repeated write sets the same values), so a retried request does no harm.
 */

/** The fields an agent call disposition copies from its disposition. */
export function copiedFields(disposition: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(COPIED_FROM_DISPOSITION.map((field) => [field, disposition[field] ?? (DISPOSITION_FLAGS.includes(field as never) ? false : null)]));
}

/** The disposition a record names, checked: the company's, and usable on a call of this offer. */
async function dispositionFor(companyId: number, dispositionId: number, call: { offer_id: number | null } | undefined, errors: FieldErrors): Promise<Record<string, unknown> | undefined> {
  const disposition = await getRecord(companyId, 'call_dispositions', dispositionId);
  if (!disposition) errors.call_disposition_id = [`does not exist: ${dispositionId}`];
  else if (call && typeof disposition.offer_id === 'number' && disposition.offer_id !== call.offer_id) errors.call_disposition_id = ["is not one of the call's offer"];
  return disposition;
}

export async function prepareCreate(context: HookContext, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const errors: FieldErrors = {};
  const callId = Number(fields.call_id);
  // Another company's call is refused like an unknown one.
  const call = await getCall(context.companyId, callId);
  // Not echoed: a call id names one call of one company (the request's may be another company's).
  if (!call) errors.call_id = ['does not exist'];
  const disposition = await dispositionFor(context.companyId, Number(fields.call_disposition_id), call, errors);
  if (!disposition || Object.keys(errors).length) throw new ValidationError(errors);
  return { ...fields, collaborator_id: context.userId ?? null, has_disposition: true, ...copiedFields(disposition) };
}

export async function prepareUpdate(context: HookContext, before: Record<string, unknown>, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (typeof fields.call_disposition_id !== 'number') return {};
  const errors: FieldErrors = {};
  const call = await getCall(context.companyId, Number(before.call_id));
  const disposition = await dispositionFor(context.companyId, fields.call_disposition_id, call, errors);
  if (!disposition || Object.keys(errors).length) throw new ValidationError(errors);
  return { ...copiedFields(disposition), has_disposition: true };
}

/** The disposition as the call shows it (`disposition` on GET /api/v1/calls/:id). */
export function dispositionOnCall(record: Record<string, unknown>): Record<string, unknown> {
  return {
    id: record.call_disposition_id,
    agent_call_disposition_id: record.id,
    ...Object.fromEntries(COPIED_FROM_DISPOSITION.map((field) => [field, record[field] ?? null])),
    notes: record.notes ?? null,
  };
}

/** Moves the call's lead to its end-of-schedule actions, once (a lead already there stays). */
async function endLeadSchedule(companyId: number, leadId: number, now: Date): Promise<void> {
  if (!(await getLead(companyId, leadId))) return;
  const { result } = await transitionLead<StepEffect | undefined>(
    companyId,
    leadId,
    (lead) => {
      // Offer leads have no schedule; an ended lead or one already at its end keeps its place.
      if (lead.status !== 'active' || lead.schedule_id === null || lead.phase === null || lead.phase === 'end_of_schedule_actions') return { result: undefined, save: false };
      return { result: moveToEndOfSchedule(lead, now), save: true, events: ['lead_changed'] };
    },
    now,
  );
  if (!result) return;
  await cancelPending(result.cancel);
  if (result.pend) await schedulePending(result.pend.entry, result.pend.at);
}

/** The effects of a written agent call disposition on its call, its caller and its lead. */
export async function afterWrite(context: HookContext, change: { after: Record<string, unknown> }): Promise<void> {
  const record = change.after;
  const companyId = context.companyId;
  const callId = Number(record.call_id);
  const call = await adjustCall(companyId, callId, { call_disposition_id: record.call_disposition_id, disposition: dispositionOnCall(record) }, context.now);
  const caller = typeof call.caller_number === 'string' ? call.caller_number : null;
  // The same blacklist entry POST /api/v1/contacts/:caller_id/caller_block writes: the next call is refused.
  if (record.block_caller === true && caller) await blockNumber(companyId, caller, context.now);
  if (record.end_of_schedule === true && typeof call.lead_id === 'number') await endLeadSchedule(companyId, call.lead_id, context.now);
}
