import { clock } from '../../shared/adapters/clock.js';
import { logger } from '../../shared/logger.js';
import { sweepStaleCalls } from '../../shared/calls/stale-call-sweeper.js';

/**
 * The stale-call sweeper's Lambda, invoked by an EventBridge schedule (not an HTTP route): ends
 * calls whose final carrier callback was lost (shared/calls/stale-call-sweeper.ts).
 */
export const handler = async (): Promise<{ companies: number; ended: number }> => {
  const result = await sweepStaleCalls(clock().now());
  if (result.ended.length) logger.info({ ended: result.ended }, 'stale calls ended');
  return { companies: result.companies, ended: result.ended.length };
};
