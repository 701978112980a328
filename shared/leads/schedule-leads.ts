import { randomUUID } from 'node:crypto';
import type { TransactItem } from '../db/client.js';
import type { QueueMessage } from '../ports/events.js';
import { freshLead, type LeadRecord, type LeadStepEntry } from './lead-record.js';
import { leadCreateItems, leadEvents, newLeadId } from './lead-store.js';
import { pendStep } from './lead-steps.js';

/**
 * A lead entering a schedule from another one (add_to_schedule, schedule triggers, copy
 * retargets), and a lead moved into another schedule (move retargets, distributions). The new
 * lead is written in the transaction of the change that made it (`writes`), so it exists exactly
 * when that change does; its first step is handed to the scheduler after the commit (`entry`).
 */
export type ScheduleRow = Record<string, unknown> & { id: number };

export interface NewScheduleLead {
  lead: LeadRecord;
  writes: TransactItem[];
  messages: QueueMessage[];
  entry: LeadStepEntry;
}

function hoursOf(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}

/** A new lead of `schedule` with the contact and data of `source`, starting at the schedule's first action now. */
export function newScheduleLead(companyId: number, source: Pick<LeadRecord, 'caller_id' | 'email' | 'data' | 'lead_priority'>, schedule: ScheduleRow, now: Date): NewScheduleLead {
  const hours = hoursOf(schedule.hours_to_expire);
  const lead = freshLead({ id: newLeadId(now), uuid: randomUUID() }, companyId, now, {
    lead_token: String(schedule.lead_token ?? ''),
    offer_id: (schedule.offer_id as number | null) ?? null,
    schedule_id: schedule.id,
    caller_id: source.caller_id,
    email: source.email,
    data: structuredClone(source.data ?? {}),
    lead_priority: source.lead_priority ?? null,
    max_contact_attempts: hoursOf(schedule.max_contact_attempts),
    hours_to_expire: hours,
    expires_at: hours === null ? null : new Date(now.getTime() + hours * 3_600_000).toISOString(),
    phase: 'actions',
    version: 1,
  });
  const entry = pendStep(companyId, lead, now);
  return { lead, writes: leadCreateItems(companyId, lead), messages: leadEvents(companyId, ['new_lead'], lead, now), entry };
}

/** Moves a lead (the copy being saved) to the start of `schedule`; returns its new step. */
export function moveToSchedule(companyId: number, lead: LeadRecord, schedule: ScheduleRow, now: Date): LeadStepEntry {
  lead.schedule_id = schedule.id;
  lead.offer_id = (schedule.offer_id as number | null) ?? null;
  lead.lead_token = String(schedule.lead_token ?? lead.lead_token);
  lead.phase = 'actions';
  lead.action_index = 0;
  lead.current_action_id = null;
  lead.wait_until = null;
  lead.end_reason = null;
  return pendStep(companyId, lead, now);
}
