import middy from '@middy/core';
import { clock } from '../../shared/adapters/clock.js';
import { sweepOutbox } from '../../shared/events/outbox.js';
import { logger } from '../../shared/logger.js';
import { functionObservability } from '../../shared/observability/middleware.js';

/**
 * The outbox sweeper's Lambda, invoked every minute by an EventBridge rule (not an HTTP route):
 * sends the outbox items a crash or a queue outage left behind (shared/events/outbox.ts).
 */
export const handler = middy<unknown, { companies: number; sent: number }>()
  .use(functionObservability())
  .handler(async () => {
    const result = await sweepOutbox(clock().now());
    if (result.sent) logger.warn('outbox sweeper sent messages their writers had not', { sent: result.sent });
    return result;
  });
