import { clock } from '../../shared/adapters/clock.js';
import { sweepOutbox } from '../../shared/events/outbox.js';
import { logger } from '../../shared/logger.js';

/**
 * The outbox sweeper's Lambda, invoked every minute by an EventBridge rule (not an HTTP route):
 * sends the outbox items a crash or a queue outage left behind (shared/events/outbox.ts).
 */
export const handler = async (): Promise<{ companies: number; sent: number }> => {
  const result = await sweepOutbox(clock().now());
  if (result.sent) logger.warn({ sent: result.sent }, 'outbox sweeper sent messages their writers had not');
  return result;
};
