import { Duration } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { SWEEP_INTERVAL_MINUTES } from '../../shared/calls/stale-calls.js';
import { createServiceFunction } from './function-defaults.js';

/**
 * What ending a stale call does to the table: read the company sequence and calls (GetItem),
 * find live calls and the offer's payout rules (Query), save the call with its rollup cells and
 * release the buyer's slot (UpdateItem, also inside TransactWriteItems, with the
 * `call_ended` outbox item), note a paid caller (PutItem). The delivery function clears the
 * outbox item. Nothing else: least privilege.
 */
export const SWEEPER_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:PutItem'] as const;

export interface StaleCallSweeperProps {
  table: ITableV2;
  /** Where `call_ended` goes, as from the voice webhooks. */
  eventsQueue: IQueue;
  logRetention: RetentionDays;
  /** Where failed scheduled runs go (EventBridge's and Lambda's), for the alarm on its depth. */
  scheduleDeadLetters: IQueue;
}

/**
 * The stale-call sweeper (shared/calls/stale-call-sweeper.ts): a function with no HTTP route,
 * invoked every SWEEP_INTERVAL_MINUTES by an EventBridge rule. Runs overlapping or retried are
 * harmless (ending a call is idempotent), so EventBridge's at-least-once delivery is fine.
 */
export class StaleCallSweeper extends Construct {
  readonly function: NodejsFunction;
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: StaleCallSweeperProps) {
    super(scope, id);
    this.function = createServiceFunction(this, 'Function', {
      entry: 'functions/sweeper/handler.ts',
      description: 'Ends calls in progress longer than any real call (their final carrier callback was lost)',
      tableName: props.table.tableName,
      // A run visits every company; whatever is left when time runs out waits for the next run.
      timeout: Duration.minutes(2),
      logRetention: props.logRetention,
      deadLetterQueue: props.scheduleDeadLetters,
    });
    this.function.addEnvironment('EVENTS_ADAPTER', 'sqs');
    this.function.addEnvironment('EVENTS_QUEUE_URL', props.eventsQueue.queueUrl);
    props.eventsQueue.grantSendMessages(this.function);
    this.function.addToRolePolicy(
      new iam.PolicyStatement({ actions: [...SWEEPER_TABLE_ACTIONS], resources: [props.table.tableArn, `${props.table.tableArn}/index/*`] }),
    );
    this.rule = new events.Rule(this, 'Schedule', {
      description: 'Runs the stale-call sweeper',
      schedule: events.Schedule.rate(Duration.minutes(SWEEP_INTERVAL_MINUTES)),
      targets: [new targets.LambdaFunction(this.function, { retryAttempts: 2, deadLetterQueue: props.scheduleDeadLetters })],
    });
  }
}
