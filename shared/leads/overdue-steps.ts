import { allCompanyIds } from '../db/companies.js';
import { logger } from '../logger.js';
import { METRIC } from '../observability/metric-names.js';
import { countMetric } from '../observability/metrics.js';
import { overdueLeads } from './lead-store.js';
import { schedulePending } from './lead-steps.js';

/**
 * The recovery sweeper of lead steps. A lead's step is saved first and handed to the scheduler
 * after the commit (shared/leads/lead-steps.ts); a crash in between, a scheduler call that
 * failed, or a run that failed for good leaves an active lead whose `next_action_at` passed with
 * nothing to run it. Such a lead is found on the sparse waiting index (one Query per company)
 * once it is OVERDUE_GRACE_MS late, and its step scheduled again for now with the SAME version:
 * if the original fire is merely late, both come and the engine runs the step once.
 *
 * Run every minute by the outbox sweeper's function in AWS and by an interval in `npm start`.
 * Bounded: at most PER_COMPANY leads per company and MAX_PER_RUN in all per run; the rest
 * come on the next runs (oldest first).
 */
export const OVERDUE_GRACE_MS = 5 * 60_000;
export const PER_COMPANY = 25;
export const MAX_PER_RUN = 200;

export interface OverdueSweep {
  companies: number;
  rescheduled: Array<{ companyId: number; leadId: number; version: number }>;
}

export async function sweepOverdueSteps(now: Date, companyIds?: readonly number[]): Promise<OverdueSweep> {
  const companies = companyIds ?? (await allCompanyIds());
  const before = new Date(now.getTime() - OVERDUE_GRACE_MS);
  const rescheduled: OverdueSweep['rescheduled'] = [];
  for (const companyId of companies) {
    const room = MAX_PER_RUN - rescheduled.length;
    if (room <= 0) break;
    // The index is eventually consistent; the engine re-reads the lead before acting anyway.
    const leads = await overdueLeads(companyId, before, Math.min(PER_COMPANY, room));
    for (const lead of leads) {
      if (lead.status !== 'active' || lead.phase === null || !lead.next_action_at || Date.parse(lead.next_action_at) >= before.getTime()) continue;
      const entry = { companyId, leadId: lead.id, version: Number(lead.step_version ?? 0) };
      await schedulePending(entry, now);
      rescheduled.push(entry);
    }
  }
  // Every run counts, zero included (as the stale-call sweeper's).
  countMetric(METRIC.overdueLeadSteps, rescheduled.length);
  if (rescheduled.length) logger.warn('overdue lead steps scheduled again', { rescheduled: rescheduled.length });
  return { companies: companies.length, rescheduled };
}
