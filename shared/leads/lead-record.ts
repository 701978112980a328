import type { StoredRecord } from '../db/records.js';

export type { LeadStepEntry } from '../ports/scheduler.js';

/**
 * A lead: one caller (and/or e-mail) submitted to an offer or a schedule with its data tokens.
 * High-volume, so stored like calls (shared/leads/lead-store.ts); `version` is the optimistic
 * concurrency check of every save, `step_version` the version of the schedule step a scheduler
 * entry carries (a fire for another step_version does nothing).
 */
export const LEAD_STATUSES = ['active', 'completed', 'expired', 'opted_out', 'removed', 'blocked'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** Where in its schedule a lead stands: the main actions, then the end-of-schedule actions. */
export const LEAD_PHASES = ['actions', 'end_of_schedule_actions'] as const;
export type LeadPhase = (typeof LEAD_PHASES)[number];

/** What a lead belongs to: the token it was submitted with names one offer or one schedule. */
export type LeadOwner = { kind: 'offer'; id: number } | { kind: 'schedule'; id: number };

export type LeadRecord = StoredRecord & {
  company_id: number;
  /** The lead token it was submitted with (an offer's or a schedule's). */
  lead_token: string;
  offer_id: number | null;
  schedule_id: number | null;
  /** E.164, normalised like calls; null for e-mail-only leads. */
  caller_id: string | null;
  email: string | null;
  status: LeadStatus;
  /** Data tokens (first_name, zip...), inherited by its calls, SMS, e-mails and webhooks. */
  data: Record<string, unknown>;
  /** Lower runs first among leads competing for the same buyers. */
  lead_priority: number | null;
  contact_attempts: number;
  max_contact_attempts: number | null;
  hours_to_expire: number | null;
  /** When the lead ends by age (from hours_to_expire), ISO. */
  expires_at: string | null;
  /** Schedule position: null phase = not in a schedule (offer leads, ended leads). */
  phase: LeadPhase | null;
  /** Index into the phase's ordered, applicable actions of the next action to run. */
  action_index: number;
  current_action_id: number | null;
  /** When the next action runs (ISO), null when nothing is pending. */
  next_action_at: string | null;
  step_version: number;
  /** A callback asked for (schedule_callback_at / _in_seconds): a dial at that time, then the schedule goes on. */
  callback_at: string | null;
  /** The end of the wait a callback interrupted: the schedule resumes there after the callback's dial. */
  wait_until?: string | null;
  /** Internal: the schedule's distributions were applied at its first step (once per lead). */
  distributed?: boolean;
  call_ids: number[];
  /** The last action the lead passed without running it (its outside system is not there). */
  last_skipped_action?: SkippedAction | null;
  converted: boolean;
  ended_at: string | null;
  end_reason: string | null;
  version: number;
};

/** An action a lead passed without running, and why (shown on the lead). */
export interface SkippedAction {
  action_id: number;
  action_type: string;
  result: 'skipped';
  reason: string;
  skipped_at: string;
}

/** What a lead belongs to: its schedule when it has one, else its offer. */
export function ownerOf(lead: Pick<LeadRecord, 'offer_id' | 'schedule_id'>): LeadOwner | undefined {
  if (lead.schedule_id !== null && lead.schedule_id !== undefined) return { kind: 'schedule', id: lead.schedule_id };
  if (lead.offer_id !== null && lead.offer_id !== undefined) return { kind: 'offer', id: lead.offer_id };
  return undefined;
}

/**
 * A new lead as every creator starts it (submission, add_to_schedule, retargets, fixtures):
 * active, no contact attempts, nothing pending; `fields` sets its owner, contact, data and
 * whatever else differs. Pure: the caller draws the id and uuid.
 */
export function freshLead(ids: { id: number; uuid: string }, companyId: number, at: Date, fields: Partial<LeadRecord> = {}): LeadRecord {
  const iso = at.toISOString();
  return {
    id: ids.id,
    uuid: ids.uuid,
    created_at: iso,
    updated_at: iso,
    company_id: companyId,
    lead_token: '',
    offer_id: null,
    schedule_id: null,
    caller_id: null,
    email: null,
    status: 'active',
    data: {},
    lead_priority: null,
    contact_attempts: 0,
    max_contact_attempts: null,
    hours_to_expire: null,
    expires_at: null,
    phase: null,
    action_index: 0,
    current_action_id: null,
    next_action_at: null,
    step_version: 0,
    callback_at: null,
    call_ids: [],
    converted: false,
    ended_at: null,
    end_reason: null,
    version: 0,
    ...fields,
  };
}
