import middy from '@middy/core';
import { clock } from '../../shared/adapters/clock.js';
import { sweepOutbox } from '../../shared/events/outbox.js';
import { sweepOverdueSteps } from '../../shared/leads/overdue-steps.js';
import { logger } from '../../shared/logger.js';
import { functionObservability } from '../../shared/observability/middleware.js';

/**
 * The outbox sweeper's Lambda, invoked every minute by an EventBridge rule (not an HTTP route):
 * sends the outbox items a crash or a queue outage left behind (shared/events/outbox.ts), then
 * schedules again the lead steps such a crash left unscheduled (shared/leads/overdue-steps.ts).
 * The lead sweep runs even when the outbox sweep failed; either failure fails the run (alarmed).
 */
export const handler = middy<unknown, { companies: number; sent: number; leadStepsRescheduled: number }>()
  .use(functionObservability())
  .handler(async () => {
    const now = clock().now();
    const [outbox, leads] = await Promise.allSettled([sweepOutbox(now), sweepOverdueSteps(now)]);
    if (outbox.status === 'rejected') throw outbox.reason;
    if (leads.status === 'rejected') throw leads.reason;
    if (outbox.value.sent) logger.warn('outbox sweeper sent messages their writers had not', { sent: outbox.value.sent });
    return { ...outbox.value, leadStepsRescheduled: leads.value.rescheduled.length };
  });
