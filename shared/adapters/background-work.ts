import { STEP_MAX_RECEIVES, STEPS_VISIBILITY_TIMEOUT_SECONDS } from './steps-queue.js';
import { logger } from '../logger.js';
import { traced } from '../observability/tracer.js';
import type { BackgroundWork, BackgroundWorkPort } from '../ports/background-work.js';
import { SqsBackgroundWork } from './aws/sqs-background-work.js';
import { localAdapters, registeredLocalAdapters } from './local-registry.js';

/**
 * Background work rides on the lead scheduler's queue, so SCHEDULER_ADAPTER chooses it too:
 * `aws` (default; the steps queue, LEAD_STEPS_QUEUE_URL) or `local` (a queue in the table,
 * LOCAL_WORK_QUEUE_NAME, default `background-work`, with the steps queue's visibility timeout and
 * maxReceiveCount; drained by the service). In a module of its own so only what queues work loads it.
 */
export function createBackgroundWork(env: NodeJS.ProcessEnv = process.env): BackgroundWorkPort {
  const adapter = env.SCHEDULER_ADAPTER || 'aws';
  if (adapter === 'local') {
    // The work itself comes with the local adapters: no Lambda bundle that queues work carries the import runner.
    const local = localAdapters('SCHEDULER_ADAPTER');
    const queue = new local.TableQueue<BackgroundWork>({
      name: env.LOCAL_WORK_QUEUE_NAME || 'background-work',
      visibilityTimeoutSeconds: STEPS_VISIBILITY_TIMEOUT_SECONDS,
      maxReceiveCount: STEP_MAX_RECEIVES,
    });
    return new local.TableWork(queue, local.runBackgroundWork, (error, work) =>
      logger.error('background work failed (retried after the visibility timeout; the client may resume it)', { work, error }),
    );
  }
  if (adapter === 'aws') {
    if (!env.LEAD_STEPS_QUEUE_URL) throw new Error('LEAD_STEPS_QUEUE_URL must be set for background work');
    // The client is made on first use (SqsBackgroundWork says why).
    let client: Promise<import('@aws-sdk/client-sqs').SQSClient> | undefined;
    return new SqsBackgroundWork(() => (client ??= import('@aws-sdk/client-sqs').then(({ SQSClient }) => traced(new SQSClient({})))), env.LEAD_STEPS_QUEUE_URL);
  }
  throw new Error(`Unknown SCHEDULER_ADAPTER ${adapter}`);
}

let work: BackgroundWorkPort | undefined;

export function backgroundWork(): BackgroundWorkPort {
  work ??= createBackgroundWork();
  return work;
}

/** Replaces the background work port (tests); no argument goes back to the configured one. */
export function setBackgroundWork(replacement?: BackgroundWorkPort): void {
  work = replacement;
}

/** Local work visible now (local adapter only; tests and `npm start`): runs it until none is left, the count run. */
export async function drainLocalWork(): Promise<number> {
  const port = backgroundWork();
  const TableWork = registeredLocalAdapters()?.TableWork;
  return TableWork && port instanceof TableWork ? port.drain() : 0;
}

export type { BackgroundWork };
