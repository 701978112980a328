import type { LeadStepEntry } from './lead-record.js';

/** What running a scheduler entry did. */
export type StepOutcome = 'ran' | 'stale' | 'missing';

/**
 * Runs the step a scheduler entry stands for: nothing when the lead has moved past the entry's
 * version or is not active ('stale'), or does not exist ('missing'); otherwise claims the step
 * (so a duplicated fire runs it once), runs the lead's current action(s) and schedules the next
 * step. The schedule engine builds this (docs/leads.md).
 */
export async function runLeadStep(_entry: LeadStepEntry, _now: Date): Promise<StepOutcome> {
  throw new Error('The schedule engine is not built yet');
}
