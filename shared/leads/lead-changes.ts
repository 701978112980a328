import { dataProblems, type PlainValue } from '../calls/call-limits.js';
import type { EventName } from '../events/event-names.js';
import { ValidationError } from '../http/errors.js';
import { parseApiTime } from '../time.js';
import type { LeadSubmission } from './lead-params.js';
import { freshLead, type LeadOwner, type LeadRecord, type LeadStatus, type LeadStepEntry } from './lead-record.js';
import { clearStep, pendStep } from './lead-steps.js';

/**
 * What a submission, an API update or a caller operation does to a lead, decided on a copy of
 * it with plain values (the lead record, the owner's settings, the time). Pure: the callers read
 * and write (shared/leads/lead-submission.ts, functions/leads/*).
 */

/** What a lead token stands for: one offer or one schedule of one company, with its settings. */
export interface LeadTokenOwner {
  companyId: number;
  leadToken: string;
  owner: LeadOwner;
  offerId: number | null;
  scheduleId: number | null;
  /** Schedule defaults applied when a submission does not give them. */
  hoursToExpire: number | null;
  maxContactAttempts: number | null;
  /** Zone of times sent without an offset (the schedule's; UTC for offers). */
  timeZone: string;
  paused: boolean;
}

/** The effect on the lead's pending step that the caller carries out after the save. */
export interface StepEffect {
  /** A new pending step to hand to the scheduler once the save committed. */
  pend?: { entry: LeadStepEntry; at: Date };
  /** A step that will no longer run (best-effort cancel). */
  cancel?: LeadStepEntry;
}

export interface LeadChangeDecision {
  events: EventName[];
  step: StepEffect;
}

function hoursLater(now: Date, hours: number): string {
  return new Date(now.getTime() + hours * 3600_000).toISOString();
}

/** The callback time a submission asks for, if any (`_in_seconds` wins over `_at`). */
export function callbackTime(submission: Pick<LeadSubmission, 'schedule_callback_at' | 'schedule_callback_in_seconds'>, timeZone: string, now: Date): Date | undefined {
  if (submission.schedule_callback_in_seconds !== undefined) return new Date(now.getTime() + submission.schedule_callback_in_seconds * 1000);
  if (submission.schedule_callback_at !== undefined) return parseApiTime(submission.schedule_callback_at, timeZone);
  return undefined;
}

function nextActionTime(submission: Pick<LeadSubmission, 'next_action_at'>, timeZone: string): Date | undefined {
  return submission.next_action_at !== undefined ? parseApiTime(submission.next_action_at, timeZone) : undefined;
}

/** `data` with `tokens` merged in (tokens win); a merge past the data limits is a 422 naming `data`. */
export function mergedData(data: Record<string, unknown> | undefined, tokens: Record<string, PlainValue>, owner = 'lead'): Record<string, unknown> {
  const merged = { ...(data ?? {}), ...tokens };
  const problems = dataProblems(merged);
  if (problems.length) throw new ValidationError({ data: problems.map((problem) => `${problem} with the ${owner}'s existing data`) });
  return merged;
}

/** Merges tokens into the lead's data (see mergedData). */
export function mergeTokens(lead: LeadRecord, tokens: Record<string, PlainValue>): void {
  if (Object.keys(tokens).length === 0) return;
  lead.data = mergedData(lead.data, tokens);
}

/** A brand-new lead for a submission (the step to pend, for schedule leads, comes with it). */
export function newLead(owner: LeadTokenOwner, submission: LeadSubmission, ids: { id: number; uuid: string }, now: Date): { lead: LeadRecord; decision: LeadChangeDecision } {
  const hours = submission.hours_to_expire ?? owner.hoursToExpire;
  const lead = freshLead(ids, owner.companyId, now, {
    lead_token: owner.leadToken,
    offer_id: owner.offerId,
    schedule_id: owner.scheduleId,
    caller_id: submission.caller_id,
    email: submission.email,
    lead_priority: submission.lead_priority ?? null,
    max_contact_attempts: submission.max_contact_attempts ?? owner.maxContactAttempts,
    hours_to_expire: hours ?? null,
    expires_at: hours ? hoursLater(now, hours) : null,
    ...(submission.contact_field_type ? { contact_field_type: submission.contact_field_type } : {}),
  });
  mergeTokens(lead, submission.tokens);
  const events: EventName[] = ['new_lead'];
  const callback = callbackTime(submission, owner.timeZone, now);
  if (callback) lead.callback_at = callback.toISOString();
  if (submission.blocked) {
    endLead(lead, 'blocked', 'blocked', now);
    return { lead, decision: { events: [...events, 'lead_ended'], step: {} } };
  }
  if (owner.owner.kind !== 'schedule') return { lead, decision: { events, step: {} } };
  // A schedule lead enters its schedule at the first action, due now unless told otherwise.
  lead.phase = 'actions';
  const due = earliest(nextActionTime(submission, owner.timeZone) ?? now, callback);
  const entry = pendStep(owner.companyId, lead, due);
  return { lead, decision: { events, step: { pend: { entry, at: due } } } };
}

function earliest(a: Date, b: Date | undefined): Date {
  return b && b.getTime() < a.getTime() ? b : a;
}

/**
 * A submission that updates an existing active lead: data merged, contact fields and settings
 * replaced when sent, the schedule position moved when asked (restart_schedule, next_action_at,
 * a callback earlier than the pending step), the lead blocked when asked.
 */
export function applySubmission(lead: LeadRecord, owner: LeadTokenOwner, submission: LeadSubmission, now: Date): LeadChangeDecision {
  mergeTokens(lead, submission.tokens);
  if (submission.sent.email && submission.email !== null) lead.email = submission.email;
  if (submission.contact_field_type) (lead as Record<string, unknown>).contact_field_type = submission.contact_field_type;
  if (submission.lead_priority !== undefined) lead.lead_priority = submission.lead_priority;
  if (submission.max_contact_attempts !== undefined) lead.max_contact_attempts = submission.max_contact_attempts;
  if (submission.hours_to_expire !== undefined) {
    lead.hours_to_expire = submission.hours_to_expire;
    lead.expires_at = submission.hours_to_expire ? hoursLater(now, submission.hours_to_expire) : null;
  }
  const events: EventName[] = ['lead_changed'];
  if (submission.blocked) {
    const cancel = endLead(lead, 'blocked', 'blocked', now);
    return { events: [...events, 'lead_ended'], step: { cancel } };
  }
  const callback = callbackTime(submission, owner.timeZone, now);
  if (callback) lead.callback_at = callback.toISOString();
  if (lead.phase === null) return { events, step: {} };
  let due: Date | undefined;
  if (submission.restart_schedule) {
    lead.phase = 'actions';
    lead.action_index = 0;
    lead.current_action_id = null;
    due = now;
  }
  due = nextActionTime(submission, owner.timeZone) ?? due;
  if (callback) {
    // A callback earlier than what is pending comes first; a later one waits for its turn.
    const pending = due ?? (lead.next_action_at ? new Date(lead.next_action_at) : undefined);
    if (!pending || callback.getTime() < pending.getTime()) due = callback;
  }
  if (!due) return { events, step: {} };
  return { events, step: moveStep(lead, due) };
}

/** Moves the lead's pending step to `at` (the old entry becomes stale). */
export function moveStep(lead: LeadRecord, at: Date): StepEffect {
  const cancel = lead.next_action_at !== null ? { companyId: lead.company_id, leadId: lead.id, version: Number(lead.step_version ?? 0) } : undefined;
  const entry = pendStep(lead.company_id, lead, at);
  return { pend: { entry, at }, ...(cancel ? { cancel } : {}) };
}

/** Ends a lead: a final status, no schedule position, nothing pending. Returns the step to cancel. */
export function endLead(lead: LeadRecord, status: Exclude<LeadStatus, 'active'>, reason: string, now: Date): LeadStepEntry | undefined {
  const cancel = clearStep(lead.company_id, lead);
  lead.status = status;
  lead.phase = null;
  lead.current_action_id = null;
  lead.ended_at = now.toISOString();
  lead.end_reason = reason;
  return cancel;
}

/** `caller_move_to_end_of_schedule`: the end-of-schedule actions, from the first, due now. */
export function moveToEndOfSchedule(lead: LeadRecord, now: Date): StepEffect {
  lead.phase = 'end_of_schedule_actions';
  lead.action_index = 0;
  lead.current_action_id = null;
  return moveStep(lead, now);
}

/** Which of a contact's leads a submission updates: the newest active one, or every active one. */
export function leadsToUpdate<T extends Pick<LeadRecord, 'id' | 'status'>>(matches: readonly T[], updateAll: boolean): T[] {
  const active = matches.filter((lead) => lead.status === 'active').sort((a, b) => b.id - a.id);
  return updateAll ? active : active.slice(0, 1);
}
