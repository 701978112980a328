import { schedulerPort } from '../adapters/scheduler.js';
import type { LeadRecord, LeadStepEntry } from './lead-record.js';

/**
 * Moving a lead's pending step. A lead has at most one live step: its `step_version`. Setting a
 * new time bumps the version, so the entry scheduled for the old one fires and does nothing.
 * Call `pendStep` on the copy being saved, then `schedulePending` once the save committed.
 */
export function pendStep(companyId: number, lead: LeadRecord, at: Date): LeadStepEntry {
  lead.step_version = Number(lead.step_version ?? 0) + 1;
  lead.next_action_at = at.toISOString();
  return { companyId, leadId: lead.id, version: lead.step_version };
}

/** Stops whatever step is pending (opt-out, removal, block, end): nothing will run for the lead. */
export function clearStep(companyId: number, lead: LeadRecord): LeadStepEntry | undefined {
  const pending = lead.next_action_at !== null ? { companyId, leadId: lead.id, version: Number(lead.step_version ?? 0) } : undefined;
  lead.step_version = Number(lead.step_version ?? 0) + 1;
  lead.next_action_at = null;
  return pending;
}

/** After the save: hands the step to the scheduler (AWS: EventBridge Scheduler or SQS; local: the table). */
export async function schedulePending(entry: LeadStepEntry, at: Date): Promise<void> {
  await schedulerPort().schedule(entry, at);
}

/** After the save: best-effort removal of a step that will no longer run (a stale fire is harmless). */
export async function cancelPending(entry: LeadStepEntry | undefined): Promise<void> {
  if (entry) await schedulerPort().cancel(entry);
}
