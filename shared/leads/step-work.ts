import type { TransactItem } from '../db/client.js';
import type { EventName } from '../events/event-names.js';
import type { QueueMessage } from '../ports/events.js';
import type { OutboundSms } from '../ports/telephony.js';
import type { LeadPhase, LeadRecord, LeadStepEntry } from './lead-record.js';
import type { ScheduleRow } from './schedule-leads.js';
import { endStatus, expiryOf, leadTokens, orderActions, type EndReason, type ScheduleAction, type StepState } from './schedule-steps.js';
import { actionsOfSchedule } from './schedule-store.js';

/**
 * A lead's step in progress (step-runner.ts): the lead as the step changes it and what its save
 * must carry, what the step read once, and the moves every part of the step makes (its place in
 * the schedule, a contact attempt, the lead's end).
 */

/** A lead as the step changes it, with what the step's save must carry. */
export interface StepWork {
  lead: LeadRecord;
  state: StepState;
  claimedVersion: number;
  /** When the next step runs; null once the lead has ended. */
  fireAt: Date | null;
  contactDelta: number;
  callIds: number[];
  dataChanges: Record<string, unknown>;
  events: Set<EventName>;
  messages: QueueMessage[];
  writes: TransactItem[];
  /** Steps of leads the step made (add_to_schedule, triggers), scheduled after the save. */
  entries: Array<{ entry: LeadStepEntry; at: Date; scheduleId: number }>;
  texts: OutboundSms[];
  runs: number;
}

/** What the step reads once: the schedule, its actions per phase, the offer's SMS number. */
export interface StepContext {
  companyId: number;
  now: Date;
  schedule: ScheduleRow;
  lists: Record<LeadPhase, ScheduleAction[]>;
  timeZone: string;
  cache: Map<string, Promise<unknown>>;
}


export function startWork(claimed: LeadRecord, claimedVersion: number, schedule: ScheduleRow | undefined, now: Date): StepWork {
  const lead = structuredClone(claimed) as StepWork['lead'];
  const callbackDue = lead.callback_at !== null && Date.parse(lead.callback_at) <= now.getTime();
  const resumeAt = callbackDue && lead.wait_until ? new Date(lead.wait_until) : null;
  // A wait is remembered only to be resumed after a callback's dial interrupts it.
  if (!callbackDue) lead.wait_until = null;
  const phase = lead.phase ?? 'actions';
  return {
    lead,
    claimedVersion,
    fireAt: null,
    contactDelta: 0,
    callIds: [],
    dataChanges: {},
    events: new Set(),
    messages: [],
    writes: [],
    entries: [],
    texts: [],
    runs: 0,
    state: {
      phase,
      index: Number(lead.action_index ?? 0),
      tokens: leadTokens(lead),
      contactAttempts: Number(lead.contact_attempts ?? 0),
      maxContactAttempts: lead.max_contact_attempts ?? (typeof schedule?.max_contact_attempts === 'number' ? schedule.max_contact_attempts : null),
      expiresAt: expiryOf(lead, typeof schedule?.hours_to_expire === 'number' ? schedule.hours_to_expire : null),
      callbackAt: lead.callback_at ? new Date(lead.callback_at) : null,
      resumeAt,
      paused: schedule?.paused === true,
      actionsRun: 0,
    },
  };
}

export async function stepContext(companyId: number, schedule: ScheduleRow, now: Date): Promise<StepContext> {
  const actions = await actionsOfSchedule(companyId, schedule.id);
  return {
    companyId,
    now,
    schedule,
    lists: { actions: orderActions(actions, 'actions'), end_of_schedule_actions: orderActions(actions, 'end_of_schedule_actions') },
    timeZone: typeof schedule.time_zone === 'string' && schedule.time_zone ? schedule.time_zone : 'UTC',
    cache: new Map(),
  };
}

/** Reads once per step (an outgoing webhook, a schedule, the SMS number). */
export function cached<T>(context: StepContext, key: string, read: () => Promise<T>): Promise<T> {
  if (!context.cache.has(key)) context.cache.set(key, read());
  return context.cache.get(key) as Promise<T>;
}

/** Where the lead stands, saved with it: the index and the action at it. */
export function place(work: StepWork, context: StepContext, phase: LeadPhase, index: number): void {
  work.state.phase = phase;
  work.state.index = index;
  work.lead.phase = phase;
  work.lead.action_index = index;
  work.lead.current_action_id = context.lists[phase][index]?.id ?? null;
}

export function countContact(work: StepWork): void {
  work.contactDelta += 1;
  work.state.contactAttempts += 1;
  work.lead.contact_attempts = Number(work.lead.contact_attempts ?? 0) + 1;
}

/** Unique per step (claimed versions only grow) and per action run, stable across save retries. */
export function stepKey(work: StepWork): string {
  return `lead${work.lead.id}.v${work.claimedVersion}.n${work.state.actionsRun}`;
}

/** The lead ends: opted out or blocked by an action, or its end-of-schedule actions are done (or its schedule is gone). */
export function endLead(work: StepWork, status: LeadRecord['status'], reason: string, now: Date): void {
  work.lead.status = status;
  work.lead.ended_at = now.toISOString();
  work.lead.end_reason = reason;
  work.lead.phase = null;
  work.lead.current_action_id = null;
  work.fireAt = null;
  work.events.add('lead_ended');
}

export function finish(work: StepWork, reason: EndReason, now: Date): void {
  endLead(work, endStatus(reason), reason, now);
}
