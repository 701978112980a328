import middy from '@middy/core';
import { clock } from '../../shared/adapters/clock.js';
import { sweepFieldCleanups } from '../../shared/contact-fields/field-cleanup-queue.js';
import { allCompanyIds } from '../../shared/db/companies.js';
import { sweepOutbox } from '../../shared/events/outbox.js';
import { sweepOverdueSteps } from '../../shared/leads/overdue-steps.js';
import { logger } from '../../shared/logger.js';
import { functionObservability } from '../../shared/observability/middleware.js';

/**
 * The outbox sweeper's Lambda, invoked every minute by an EventBridge rule (not an HTTP route):
 * sends the outbox items not received within the grace period (shared/events/outbox.ts: a crash
 * between commit and publish, a queue outage, or a delivery function behind the queue), then
 * schedules again the lead steps such a crash left unscheduled (shared/leads/overdue-steps.ts)
 * and queues again the deleted contact fields' cleanups that stalled
 * (shared/contact-fields/field-cleanup-queue.ts). Each sweep runs even when another failed; any
 * failure fails the run (alarmed).
 */
export const handler = middy<unknown, { companies: number; items: number; sent: number; leadStepsRescheduled: number; fieldCleanupsQueued: number }>()
  .use(functionObservability())
  .handler(async () => {
    const now = clock().now();
    // The companies are read once for the three sweeps (each would read them itself).
    const companyIds = await allCompanyIds();
    const [outbox, leads, cleanups] = await Promise.allSettled([sweepOutbox(now, { companyIds }), sweepOverdueSteps(now, companyIds), sweepFieldCleanups(now, companyIds)]);
    if (outbox.status === 'rejected') throw outbox.reason;
    if (leads.status === 'rejected') throw leads.reason;
    if (cleanups.status === 'rejected') throw cleanups.reason;
    // Normally nothing: writers publish at once and the delivery function deletes an item within
    // seconds. Something sent means a writer failed to publish or the queue's consumer is behind.
    if (outbox.value.items) logger.warn('outbox sweeper sent items not received within the grace period', { items: outbox.value.items, sent: outbox.value.sent });
    return { ...outbox.value, leadStepsRescheduled: leads.value.rescheduled.length, fieldCleanupsQueued: cleanups.value.queued.length };
  });
