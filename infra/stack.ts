import { CfnOutput, SecretValue, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ServiceApi } from './constructs/api.js';
import { EventDelivery, DELIVERY_TIMEOUT } from './constructs/event-delivery.js';
import { EventsQueue } from './constructs/events-queue.js';
import { retryPolicyFromEnv } from '../shared/events/retry-schedule.js';
import { StaleCallSweeper } from './constructs/stale-call-sweeper.js';
import { ServiceTable } from './constructs/table.js';

/** The whole service: one table, one HTTP API, one function per route group, scheduled jobs. */
export class CallTrackingStack extends Stack {
  readonly table: ServiceTable;
  readonly api: ServiceApi;
  readonly events: EventsQueue;
  readonly staleCallSweeper: StaleCallSweeper;
  readonly delivery: EventDelivery;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.table = new ServiceTable(this, 'Table');
    // `cdk deploy -c emailFrom=noreply@your-domain` (an SES-verified identity) for team invitations.
    const emailFrom = String(this.node.tryGetContext('emailFrom') ?? 'noreply@example.com');
    // Tracking numbers: `-c twilioAccountSid=AC... -c twilioAuthTokenSecret=<Secrets Manager secret
    // name or ARN holding the auth token>` (optional `-c twilioApiBase=https://...`). The token is
    // a dynamic reference resolved by CloudFormation at deploy time, never in the template or repo.
    const context = (name: string): string | undefined => {
      const value: unknown = this.node.tryGetContext(name);
      return typeof value === 'string' && value ? value : undefined;
    };
    const tokenSecret = context('twilioAuthTokenSecret');
    const twilio = {
      accountSid: context('twilioAccountSid'),
      authToken: tokenSecret ? SecretValue.secretsManager(tokenSecret).unsafeUnwrap() : undefined,
      apiBase: context('twilioApiBase'),
    };
    // Webhook delivery settings (docs/events.md): `-c webhookAllowedCidrs=203.0.113.0/24` lets
    // deliveries reach those otherwise refused ranges; `-c webhookRetrySchedule=5s,5m,...` and
    // `-c webhookDisableAfter=5d` change the retry schedule and when a failing subscription stops.
    const settings = {
      WEBHOOK_ALLOWED_CIDRS: context('webhookAllowedCidrs') ?? '',
      WEBHOOK_RETRY_SCHEDULE: context('webhookRetrySchedule') ?? '',
      WEBHOOK_DISABLE_AFTER: context('webhookDisableAfter') ?? '',
    };
    // Validated at synth: a bad schedule fails here, not in the first delivery.
    const policy = retryPolicyFromEnv(settings);
    this.events = new EventsQueue(this, 'Events', { policy, consumerTimeout: DELIVERY_TIMEOUT });
    this.api = new ServiceApi(this, 'Api', { table: this.table, emailFrom, twilio, eventsQueue: this.events.queue });
    this.staleCallSweeper = new StaleCallSweeper(this, 'StaleCallSweeper', { table: this.table, eventsQueue: this.events.queue });
    this.delivery = new EventDelivery(this, 'Delivery', {
      table: this.table,
      events: this.events,
      emailFrom,
      settings: Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== '')),
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'EventsQueueUrl', { value: this.events.queue.queueUrl, description: 'Domain events on their way to subscribers' });
    new CfnOutput(this, 'EventsDeadLetterQueueArn', {
      value: this.events.deadLetters.queueArn,
      description: 'Deliveries given up on; redrive: aws sqs start-message-move-task --source-arn <this value>',
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The single DynamoDB table' });
  }
}
