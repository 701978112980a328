import { allCompanyIds } from '../db/companies.js';
import { logger } from '../logger.js';
import { FIELD_CLEANUP_KIND, type FieldCleanupRef } from './field-cleanup-plan.js';
import { markActive, pendingCleanups } from './field-cleanup-store.js';

/**
 * Queueing a deleted contact field's cleanup (shared/contact-fields/field-cleanup.ts): after the
 * field's delete, after each step that stopped at its budget, and again by the recovery sweep for
 * a cleanup that stalled (field-cleanup-store.ts says how the cleanup item tells).
 */

/** How long a pending cleanup may make no progress before the sweep queues it again. */
export const STALLED_CLEANUP_MS = 5 * 60_000;
/** Cleanups one sweep queues again per company, at most (the rest come on the next sweeps). */
const SWEPT_PER_COMPANY = 25;

/** Queues the cleanup's next step in the background (the adapter loaded on first use). */
export async function continueFieldCleanup(ref: FieldCleanupRef, delaySeconds = 0): Promise<void> {
  await (await import('../adapters/background-work.js')).backgroundWork().enqueue({ kind: FIELD_CLEANUP_KIND, ...ref }, delaySeconds);
}

/**
 * The recovery sweep: queues again every cleanup that made no progress for STALLED_CLEANUP_MS
 * (one Query per company). Run every minute by the outbox sweeper's function in AWS and by an
 * interval in `npm start`. A cleanup merely slow gets a second chain of steps, which is harmless.
 */
export async function sweepFieldCleanups(now: Date, companyIds?: readonly number[]): Promise<{ companies: number; queued: FieldCleanupRef[] }> {
  const companies = companyIds ?? (await allCompanyIds());
  const before = now.getTime() - STALLED_CLEANUP_MS;
  const queued: FieldCleanupRef[] = [];
  for (const companyId of companies) {
    for (const cleanup of await pendingCleanups(companyId, SWEPT_PER_COMPANY)) {
      if (Date.parse(cleanup.active_at) > before) continue;
      const ref = { companyId, fieldId: cleanup.field_id };
      // Noted first, so the next sweeps leave it to this one's step for STALLED_CLEANUP_MS again.
      if (!(await markActive(ref, now))) continue;
      try {
        await continueFieldCleanup(ref);
        queued.push(ref);
      } catch (error) {
        logger.error('could not queue a stalled contact field cleanup (the sweep tries again)', { ...ref, error });
      }
    }
  }
  if (queued.length) logger.warn('stalled contact field cleanups queued again', { queued });
  return { companies: companies.length, queued };
}
