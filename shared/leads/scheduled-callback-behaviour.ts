import { ValidationError } from '../http/errors.js';
import type { HookContext } from '../resources/define.js';
import type { LeadRecord } from './lead-record.js';
import { pendStep, schedulePending } from './lead-steps.js';
import { getLead, transitionLead } from './lead-store.js';

/**
 * Scheduled callbacks (shared/leads/scheduled-callbacks-resource.ts): the lead's callback_at is set
 * and its pending step moved to the callback (or kept, when it was due sooner) before the record
 * is written; the engine dials at that time and then goes on where the lead was.
 */

function callbackTime(fields: Record<string, unknown>, now: Date): Date {
  if (typeof fields.callback_at === 'string') return new Date(fields.callback_at);
  if (typeof fields.callback_in_seconds === 'number') return new Date(now.getTime() + fields.callback_in_seconds * 1000);
  throw new ValidationError({ callback_at: ["can't be blank (or give callback_in_seconds)"] });
}

/** Sets the lead's callback; the lead must be an active schedule lead of the company. */
async function setCallback(companyId: number, leadId: number, at: Date, now: Date): Promise<LeadRecord> {
  const lead = await getLead(companyId, leadId);
  if (!lead) throw new ValidationError({ lead_id: [`does not exist: ${leadId}`] });
  const { result, lead: saved } = await transitionLead(
    companyId,
    leadId,
    (current) => {
      if (current.status !== 'active' || current.schedule_id === null || current.phase === null) return { result: undefined, save: false };
      current.callback_at = at.toISOString();
      const pending = current.next_action_at ? Date.parse(current.next_action_at) : Number.POSITIVE_INFINITY;
      const due = new Date(Math.min(pending, at.getTime()));
      return { result: { entry: pendStep(companyId, current, due), due }, save: true };
    },
    now,
  );
  if (!result) throw new ValidationError({ lead_id: ['is not an active lead of a schedule'] });
  await schedulePending(result.entry, result.due);
  return saved;
}

export async function prepareCreate(context: HookContext, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const at = callbackTime(fields, context.now);
  const lead = await setCallback(context.companyId, Number(fields.lead_id), at, context.now);
  const { callback_in_seconds: _instruction, ...stored } = fields;
  return { ...stored, callback_at: at.toISOString(), schedule_id: lead.schedule_id, caller_id: lead.caller_id };
}

export async function prepareUpdate(context: HookContext, before: Record<string, unknown>, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (!('callback_at' in fields)) return {};
  const at = callbackTime(fields, context.now);
  await setCallback(context.companyId, Number(before.lead_id), at, context.now);
  return { callback_at: at.toISOString() };
}

/** A deleted callback that is still the lead's: cleared, and a wait it cut short goes back to its end. */
export async function afterDelete(context: HookContext, record: Record<string, unknown>): Promise<void> {
  const companyId = context.companyId;
  const leadId = Number(record.lead_id);
  if (!(await getLead(companyId, leadId))) return;
  const { result } = await transitionLead(
    companyId,
    leadId,
    (lead: LeadRecord) => {
      if (lead.callback_at !== record.callback_at) return { result: undefined, save: false };
      lead.callback_at = null;
      if (lead.status === 'active' && lead.next_action_at && lead.wait_until && Date.parse(lead.wait_until) > Date.parse(lead.next_action_at)) {
        const until = new Date(lead.wait_until);
        return { result: { entry: pendStep(companyId, lead, until), until }, save: true };
      }
      return { result: undefined, save: true };
    },
    context.now,
  );
  if (result) await schedulePending(result.entry, result.until);
}
