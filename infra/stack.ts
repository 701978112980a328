import { CfnOutput, SecretValue, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ServiceApi } from './constructs/api.js';
import { EventsQueue } from './constructs/events-queue.js';
import { StaleCallSweeper } from './constructs/stale-call-sweeper.js';
import { ServiceTable } from './constructs/table.js';

/** The whole service: one table, one HTTP API, one function per route group, scheduled jobs. */
export class CallTrackingStack extends Stack {
  readonly table: ServiceTable;
  readonly api: ServiceApi;
  readonly events: EventsQueue;
  readonly staleCallSweeper: StaleCallSweeper;

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
    this.events = new EventsQueue(this, 'Events');
    this.api = new ServiceApi(this, 'Api', { table: this.table, emailFrom, twilio, eventsQueue: this.events.queue });
    this.staleCallSweeper = new StaleCallSweeper(this, 'StaleCallSweeper', { table: this.table, eventsQueue: this.events.queue });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'EventsQueueUrl', { value: this.events.queue.queueUrl, description: 'Domain events on their way to subscribers' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The single DynamoDB table' });
  }
}
