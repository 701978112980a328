import { Duration } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { EventsQueue } from './events-queue.js';
import { createServiceFunction } from './function-defaults.js';
import { allowSendingEmail } from './grants.js';

/** What delivering does to the table: read subscriptions, webhooks and calls; claim, log, note on records; delete a received envelope's outbox item. */
export const DELIVERY_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'] as const;
/** What the outbox sweeper does: list companies, read outbox items, note when it sent one; list pending contact field cleanups, note when it queued one again. */
export const OUTBOX_SWEEPER_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem'] as const;

/** The delivery function's timeout: ten sends at once, each at most 10 s, plus the table's work. */
export const DELIVERY_TIMEOUT = Duration.seconds(30);

export interface EventDeliveryProps {
  table: ITableV2;
  events: EventsQueue;
  emailFrom: string;
  /** The environment the delivery reads: WEBHOOK_ALLOWED_CIDRS, WEBHOOK_RETRY_SCHEDULE, WEBHOOK_DISABLE_AFTER. */
  settings: Record<string, string>;
  logRetention: RetentionDays;
  /** Where the outbox sweeper's failed scheduled runs go (EventBridge's and Lambda's). */
  scheduleDeadLetters: IQueue;
}

/**
 * The delivery function (SQS event source, partial batch responses) and the outbox sweeper (an
 * EventBridge rule every minute), docs/events.md.
 */
export class EventDelivery extends Construct {
  readonly function: NodejsFunction;
  readonly sweeper: NodejsFunction;
  readonly sweeperRule: events.Rule;

  constructor(scope: Construct, id: string, props: EventDeliveryProps) {
    super(scope, id);
    const tableResources = [props.table.tableArn, `${props.table.tableArn}/index/*`];
    this.function = createServiceFunction(this, 'Function', {
      entry: 'functions/delivery/handler.ts',
      description: 'Delivers events to subscriptions and outgoing webhooks, signed, with retries',
      tableName: props.table.tableName,
      timeout: DELIVERY_TIMEOUT,
      logRetention: props.logRetention,
    });
    for (const [name, value] of Object.entries({ ...props.settings, EVENTS_ADAPTER: 'sqs', EVENTS_QUEUE_URL: props.events.queue.queueUrl, EMAIL_ADAPTER: 'ses', EMAIL_FROM: props.emailFrom })) {
      this.function.addEnvironment(name, value);
    }
    this.function.addToRolePolicy(new iam.PolicyStatement({ actions: [...DELIVERY_TABLE_ACTIONS], resources: tableResources }));
    allowSendingEmail(this.function, props.emailFrom);
    // Consume (receive, delete, change visibility) and send (an event's fan-out).
    props.events.queue.grantConsumeMessages(this.function);
    props.events.queue.grantSendMessages(this.function);
    this.function.addEventSource(new SqsEventSource(props.events.queue, { batchSize: 10, reportBatchItemFailures: true }));

    this.sweeper = createServiceFunction(this, 'OutboxSweeper', {
      entry: 'functions/outbox/handler.ts',
      description: 'Sends outbox items not received within the grace period (a crash between commit and publish, a queue backlog)',
      tableName: props.table.tableName,
      timeout: Duration.seconds(50),
      logRetention: props.logRetention,
      deadLetterQueue: props.scheduleDeadLetters,
    });
    this.sweeper.addEnvironment('EVENTS_ADAPTER', 'sqs');
    this.sweeper.addEnvironment('EVENTS_QUEUE_URL', props.events.queue.queueUrl);
    this.sweeper.addToRolePolicy(new iam.PolicyStatement({ actions: [...OUTBOX_SWEEPER_TABLE_ACTIONS], resources: tableResources }));
    props.events.queue.grantSendMessages(this.sweeper);
    this.sweeperRule = new events.Rule(this, 'Schedule', {
      description: 'Runs the outbox sweeper',
      schedule: events.Schedule.rate(Duration.minutes(1)),
      targets: [new targets.LambdaFunction(this.sweeper, { retryAttempts: 2, deadLetterQueue: props.scheduleDeadLetters })],
    });
  }
}
