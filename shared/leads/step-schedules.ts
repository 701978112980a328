import { getRecord, queryAllRecords } from '../db/records.js';
import { contactOf, leadsOfContact } from './lead-store.js';
import { moveToSchedule, newScheduleLead, type ScheduleRow } from './schedule-leads.js';
import { filterHolds, leadTokens, pickWeighted, type ScheduleAction } from './schedule-steps.js';
import { cached, stepContext, type StepContext, type StepWork } from './step-work.js';

/**
 * A step's moves between schedules: a new lead's distribution to another schedule, the leads an
 * action adds to a schedule, and the schedule triggers an ending lead fires.
 */

/** Schedule triggers one ending lead fires at most. */
const MAX_TRIGGERS = 10;

/** A new lead's first step: its schedule's distributions may send it to another schedule. */
export async function distribute(work: StepWork, context: StepContext): Promise<void> {
  const lead = work.lead;
  if (lead.distributed || lead.phase !== 'actions' || lead.action_index !== 0 || lead.current_action_id !== null) return;
  lead.distributed = true;
  const rows = (await queryAllRecords(context.companyId, 'schedule_distributions')).filter((row) => row.schedule_id === context.schedule.id && row.enabled !== false);
  const picked = pickWeighted(rows.map((row) => ({ target: Number(row.target_schedule_id), weight: Number(row.weight ?? 0) })), lead.id);
  if (!picked || picked.target === context.schedule.id) return;
  const target = (await getRecord(context.companyId, 'schedules', picked.target)) as ScheduleRow | undefined;
  if (!target) return;
  moveToSchedule(context.companyId, lead, target, context.now);
  Object.assign(context, await stepContext(context.companyId, target, context.now));
  work.state.paused = target.paused === true;
  work.events.add('lead_changed');
}

/** A new lead of the target schedule with this lead's contact and data, unless the contact already has an active one there. */
export async function addToSchedule(work: StepWork, context: StepContext, scheduleId: number): Promise<void> {
  // Leads this step makes are written with its save: the index cannot show them yet.
  if (work.entries.some((made) => made.scheduleId === scheduleId)) return;
  const target = await cached(context, `s${scheduleId}`, () => getRecord(context.companyId, 'schedules', scheduleId));
  if (!target) return;
  const contact = contactOf(work.lead);
  if (contact) {
    const existing = await leadsOfContact(context.companyId, contact, { kind: 'schedule', id: scheduleId }, 20);
    if (existing.some((lead) => lead.status === 'active')) return;
  }
  const made = newScheduleLead(context.companyId, work.lead, target as ScheduleRow, context.now);
  work.writes.push(...made.writes);
  work.messages.push(...made.messages);
  work.entries.push({ entry: made.entry, at: context.now, scheduleId });
}

/** Schedule triggers of an ended lead: new leads of their schedules. */
export async function fireTriggers(work: StepWork, context: StepContext): Promise<void> {
  const tokens = leadTokens(work.lead);
  const triggers = (await queryAllRecords(context.companyId, 'schedule_triggers'))
    .filter((trigger) => trigger.enabled !== false && trigger.trigger_event === 'lead_ended')
    .filter((trigger) => trigger.schedule_id !== work.lead.schedule_id && (trigger.source_schedule_id === null || trigger.source_schedule_id === undefined || trigger.source_schedule_id === work.lead.schedule_id))
    .filter((trigger) => filterHolds(trigger as unknown as ScheduleAction, tokens))
    .slice(0, MAX_TRIGGERS);
  for (const trigger of triggers) await addToSchedule(work, context, Number(trigger.schedule_id));
}
