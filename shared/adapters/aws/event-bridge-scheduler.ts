import type { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { clock } from '../clock.js';
import type { LeadStepEntry, SchedulerPort } from '../../ports/scheduler.js';

/**
 * Lead steps in AWS (docs/leads.md, "Waits"). A step due in a minute or more is a one-time
 * EventBridge Scheduler schedule in the stack's group, deleted after it fired, whose target is
 * the lead runner with the entry as its event. Scheduler fires within about a minute of `at`, so
 * a step due sooner goes to the runner's SQS queue with a delay instead (SQS delays are exact to
 * the second). Both paths are at-least-once; the runner's version check makes repeats harmless.
 */
export interface EventBridgeSchedulerConfig {
  groupName: string;
  /** The lead runner function: the schedules' target. */
  runnerArn: string;
  /** The role Scheduler assumes to invoke the runner (and to send to the dead-letter queue). */
  roleArn: string;
  /** The runner's steps queue, for steps due within a minute. */
  queueUrl: string;
  /** Where Scheduler puts a fire it could not deliver. */
  deadLetterArn: string;
}

/** Below this, SQS with a delay; from this on, a Scheduler schedule. */
export const SCHEDULER_MIN_LEAD_MS = 60_000;
/** SQS's DelaySeconds for the short path: at most a minute by construction. */
const MAX_QUEUE_DELAY_SECONDS = 60;

/**
 * Scheduler's retries of a fire it could not hand to Lambda (throttling, a service error): for
 * up to an hour, then the dead-letter queue. A step an hour late is still worth running.
 */
export const SCHEDULE_RETRY_POLICY = { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 20 } as const;

/**
 * The schedule's name: one per (company, lead, step version), so scheduling the same step twice
 * is a ConflictException (success) and cancel finds it again. Ids are at most 16 digits each:
 * at most 2 + 3 × 16 + 2 = 52 characters, within Scheduler's 64.
 */
export function scheduleName(entry: LeadStepEntry): string {
  return `l-${entry.companyId}-${entry.leadId}-${entry.version}`;
}

/** Scheduler's `at()` expression for an instant, in UTC to the second (milliseconds dropped). */
export function atExpression(at: Date): string {
  return `at(${at.toISOString().slice(0, 19)})`;
}

/** Whole seconds of SQS delay for a step due at `at`, 0..60. */
export function queueDelaySeconds(at: Date, now: Date): number {
  return Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 1000)));
}

/** A client, or a function making it on first use. */
export type ClientOrFactory<Client> = Client | (() => Promise<Client>);

const resolveClient = async <Client>(client: ClientOrFactory<Client>): Promise<Client> => (typeof client === 'function' ? (client as () => Promise<Client>)() : client);

/**
 * The SDK's scheduler and SQS modules are imported when a step is scheduled, not at init: with the
 * SDK taken from the runtime, a static import would load both clients at every cold start of
 * every function with the scheduler port (docs/benchmarks.md, "Lambda bundles").
 */
export class EventBridgeScheduler implements SchedulerPort {
  constructor(
    private readonly scheduler: ClientOrFactory<SchedulerClient>,
    private readonly sqs: ClientOrFactory<SQSClient>,
    private readonly config: EventBridgeSchedulerConfig,
    private readonly now: () => Date = () => clock().now(),
  ) {}

  async schedule(entry: LeadStepEntry, at: Date): Promise<void> {
    const now = this.now();
    const body = JSON.stringify({ companyId: entry.companyId, leadId: entry.leadId, version: entry.version });
    if (at.getTime() - now.getTime() < SCHEDULER_MIN_LEAD_MS) {
      const { SendMessageCommand } = await import('@aws-sdk/client-sqs');
      await (await resolveClient(this.sqs)).send(new SendMessageCommand({ QueueUrl: this.config.queueUrl, MessageBody: body, DelaySeconds: queueDelaySeconds(at, now) }));
      return;
    }
    const { ConflictException, CreateScheduleCommand } = await import('@aws-sdk/client-scheduler');
    const scheduler = await resolveClient(this.scheduler);
    try {
      await scheduler.send(
        new CreateScheduleCommand({
          Name: scheduleName(entry),
          GroupName: this.config.groupName,
          ScheduleExpression: atExpression(at),
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          Target: {
            Arn: this.config.runnerArn,
            RoleArn: this.config.roleArn,
            Input: body,
            RetryPolicy: { ...SCHEDULE_RETRY_POLICY },
            DeadLetterConfig: { Arn: this.config.deadLetterArn },
          },
        }),
      );
    } catch (error) {
      // The same step scheduled again (a retried transition, the recovery sweeper): already there.
      if (error instanceof ConflictException) return;
      throw error;
    }
  }

  async cancel(entry: LeadStepEntry): Promise<void> {
    const { DeleteScheduleCommand, ResourceNotFoundException } = await import('@aws-sdk/client-scheduler');
    const scheduler = await resolveClient(this.scheduler);
    try {
      await scheduler.send(new DeleteScheduleCommand({ Name: scheduleName(entry), GroupName: this.config.groupName }));
    } catch (error) {
      // Fired and deleted already, or a step that went through the queue: nothing to cancel.
      if (error instanceof ResourceNotFoundException) return;
      throw error;
    }
  }
}

/** The settings the AWS adapter reads, as its refusal to start names them. */
export const SCHEDULER_SETTINGS = ['LEAD_SCHEDULE_GROUP', 'LEAD_RUNNER_ARN', 'LEAD_SCHEDULER_ROLE_ARN', 'LEAD_STEPS_QUEUE_URL', 'LEAD_RUNNER_DLQ_ARN'] as const;

export function schedulerConfigFromEnv(env: NodeJS.ProcessEnv): EventBridgeSchedulerConfig {
  const missing = SCHEDULER_SETTINGS.filter((name) => !env[name]);
  if (missing.length) throw new Error(`${missing.join(', ')} must be set for the AWS scheduler adapter (the stack sets them, docs/leads.md)`);
  return {
    groupName: env.LEAD_SCHEDULE_GROUP!,
    runnerArn: env.LEAD_RUNNER_ARN!,
    roleArn: env.LEAD_SCHEDULER_ROLE_ARN!,
    queueUrl: env.LEAD_STEPS_QUEUE_URL!,
    deadLetterArn: env.LEAD_RUNNER_DLQ_ARN!,
  };
}
