import { traced } from '../observability/tracer.js';
import type { SchedulerPort } from '../ports/scheduler.js';
import { EventBridgeScheduler, schedulerConfigFromEnv } from './aws/event-bridge-scheduler.js';
import { localAdapters } from './local-registry.js';

/**
 * SCHEDULER_ADAPTER: `aws` (default; EventBridge Scheduler plus the runner's SQS queue for steps
 * due within a minute: LEAD_SCHEDULE_GROUP, LEAD_RUNNER_ARN, LEAD_SCHEDULER_ROLE_ARN,
 * LEAD_STEPS_QUEUE_URL, LEAD_RUNNER_DLQ_ARN) or `local` (entries in the table, LOCAL_SCHEDULER_NAME,
 * default `leads`). In a module of its own so the lead modules load no other adapter.
 */
export function createSchedulerPort(env: NodeJS.ProcessEnv = process.env): SchedulerPort {
  const adapter = env.SCHEDULER_ADAPTER || 'aws';
  if (adapter === 'local') return new (localAdapters('SCHEDULER_ADAPTER').TableScheduler)(env.LOCAL_SCHEDULER_NAME || 'leads');
  if (adapter === 'aws') {
    const config = schedulerConfigFromEnv(env);
    // The clients are made on first use (the adapter says why).
    const scheduler = once(async () => traced(new (await import('@aws-sdk/client-scheduler')).SchedulerClient({})));
    const sqs = once(async () => traced(new (await import('@aws-sdk/client-sqs')).SQSClient({})));
    return new EventBridgeScheduler(scheduler, sqs, config);
  }
  throw new Error(`Unknown SCHEDULER_ADAPTER ${adapter}`);
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

let scheduler: SchedulerPort | undefined;

export function schedulerPort(): SchedulerPort {
  scheduler ??= createSchedulerPort();
  return scheduler;
}

/** Replaces the scheduler (tests); no argument goes back to the configured one. */
export function setSchedulerPort(replacement?: SchedulerPort): void {
  scheduler = replacement;
}
