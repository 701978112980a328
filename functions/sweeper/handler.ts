import middy from '@middy/core';
import { clock } from '../../shared/adapters/clock.js';
import { logger } from '../../shared/logger.js';
import { sweepStaleCalls } from '../../shared/calls/stale-call-sweeper.js';
import { functionObservability } from '../../shared/observability/middleware.js';

/**
 * The stale-call sweeper's Lambda, invoked by an EventBridge schedule (not an HTTP route): ends
 * calls whose final carrier callback was lost (shared/calls/stale-call-sweeper.ts).
 */
export const handler = middy<unknown, { companies: number; ended: number }>()
  .use(functionObservability())
  .handler(async () => {
    const result = await sweepStaleCalls(clock().now());
    if (result.ended.length) logger.info('stale calls ended', { ended: result.ended });
    return { companies: result.companies, ended: result.ended.length };
  });
