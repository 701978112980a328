import { getRecord } from '../db/records.js';
import type { LeadRecord, LeadStepEntry } from './lead-record.js';
import { clearStep, pendStep, schedulePending } from './lead-steps.js';
import { transitionLead, UnknownLeadError } from './lead-store.js';
import type { ScheduleRow } from './schedule-leads.js';
import { runActions } from './step-actions.js';
import { sendTexts } from './step-messages.js';
import { distribute, fireTriggers } from './step-schedules.js';
import { finish, startWork, stepContext, type StepWork } from './step-work.js';

/**
 * The lead runner's step (its parts: step-work.ts, step-actions.ts, step-messages.ts,
 * step-schedules.ts; the pure decisions: schedule-steps.ts).
 */

/** What running a scheduler entry did. */
export type StepOutcome = 'ran' | 'stale' | 'missing';

/**
 * Runs the step a scheduler entry stands for: nothing when the lead has moved past the entry's
 * version or is not active ('stale'), or does not exist ('missing'); otherwise claims the step
 * (so a duplicated fire runs it once), runs the lead's actions until a wait or the end, and saves
 * the new position with the actions' queued messages in one transaction, then schedules the
 * next step and sends the step's texts (docs/leads.md, "Schedules and the engine").
 */
export async function runLeadStep(entry: LeadStepEntry, now: Date): Promise<StepOutcome> {
  const claimed = await claim(entry, now);
  if (claimed === 'stale' || claimed === 'missing') return claimed;
  const { companyId } = entry;
  const schedule = claimed.schedule_id === null ? undefined : ((await getRecord(companyId, 'schedules', claimed.schedule_id)) as ScheduleRow | undefined);
  const work = startWork(claimed, entry.version + 1, schedule, now);
  if (!schedule) {
    finish(work, 'schedule_deleted', now);
  } else {
    const context = await stepContext(companyId, schedule, now);
    await distribute(work, context);
    await runActions(work, context);
    // Ended through its schedule (finished, expired, opted out or blocked by an action): triggers may start another.
    if (work.fireAt === null && work.lead.status !== 'active') await fireTriggers(work, context);
  }
  await save(companyId, work, now);
  return 'ran';
}

/** Takes the step: bumps step_version, so a second fire of the same entry finds it stale. */
async function claim(entry: LeadStepEntry, now: Date): Promise<LeadRecord | 'stale' | 'missing'> {
  try {
    const { result, lead } = await transitionLead(
      entry.companyId,
      entry.leadId,
      (lead) => {
        if (lead.status !== 'active' || lead.phase === null || Number(lead.step_version) !== entry.version) return { result: false, save: false };
        // next_action_at stays: a crash before the save leaves the lead overdue in the waiting index.
        lead.step_version = entry.version + 1;
        return { result: true, save: true };
      },
      now,
    );
    return result ? lead : 'stale';
  } catch (error) {
    if (error instanceof UnknownLeadError) return 'missing';
    throw error;
  }
}

/** The fields the step owns; everything else of the lead is left as the latest save has it. */
const STEP_FIELDS = ['phase', 'action_index', 'current_action_id', 'status', 'ended_at', 'end_reason', 'callback_at', 'wait_until', 'schedule_id', 'offer_id', 'lead_token', 'distributed', 'last_skipped_action'] as const;

async function save(companyId: number, work: StepWork, now: Date): Promise<void> {
  const { result: applied, lead: saved } = await transitionLead(
    companyId,
    work.lead.id,
    (lead) => {
      const facts = () => {
        lead.contact_attempts = Number(lead.contact_attempts ?? 0) + work.contactDelta;
        lead.call_ids = [...(lead.call_ids ?? []), ...work.callIds];
        lead.data = { ...lead.data, ...work.dataChanges };
      };
      if (Number(lead.step_version) !== work.claimedVersion || lead.status !== 'active') {
        // Moved, opted out or removed during the step: its position is theirs; what happened is recorded.
        if (!work.contactDelta && !work.callIds.length && !Object.keys(work.dataChanges).length) return { result: false, save: false };
        facts();
        return { result: false, save: true };
      }
      facts();
      const target = lead as Record<string, unknown>;
      for (const field of STEP_FIELDS) if (field in work.lead) target[field] = (work.lead as Record<string, unknown>)[field];
      if (work.fireAt === null) clearStep(companyId, lead);
      else pendStep(companyId, lead, work.fireAt);
      return { result: true, save: true, events: [...work.events], messages: work.messages, alongside: work.writes };
    },
    now,
  );
  if (!applied) return;
  if (work.fireAt !== null) await schedulePending({ companyId, leadId: saved.id, version: saved.step_version }, work.fireAt);
  for (const made of work.entries) await schedulePending(made.entry, made.at);
  await sendTexts(work);
}
