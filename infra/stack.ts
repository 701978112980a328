import { CfnOutput, Duration, RemovalPolicy, Stack, Tags, type StackProps } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { ServiceApi } from './constructs/api.js';
import { EventDelivery, DELIVERY_TIMEOUT } from './constructs/event-delivery.js';
import { EventsQueue, deadLetterDepthAlarm } from './constructs/events-queue.js';
import { LeadRunner } from './constructs/lead-runner.js';
import { Monitoring } from './constructs/monitoring.js';
import { StaleCallSweeper } from './constructs/stale-call-sweeper.js';
import { ServiceTable } from './constructs/table.js';
import { Transcription } from './constructs/transcription.js';
import { SecretsKey } from './constructs/secrets-key.js';
import { routeGroups, type RouteGroup } from '../shared/http/route-groups.js';
import type { RouteDefinition } from '../shared/http/routes.js';
import { acknowledgeNagFindings } from './nag.js';
import { readSettings, type Settings } from './settings.js';

export interface CallTrackingStackProps extends StackProps {
  /** The stage whose settings to use; default: the `stage` context key (else `prod`). */
  stage?: string;
  /** The routes the API serves; default: the route table (shared/http/routes.ts, every group's). Tests pass a bigger one. */
  routes?: readonly RouteDefinition[];
}

/**
 * The whole service: one table, one HTTP API, one function per route group, scheduled jobs, and
 * their alarms and dashboard. Every setting comes from infra/settings.ts (cdk.json context); no
 * resource has a fixed physical name, so stages live side by side in one account and region.
 */
export class CallTrackingStack extends Stack {
  readonly settings: Settings;
  readonly table: ServiceTable;
  readonly api: ServiceApi;
  readonly events: EventsQueue;
  readonly scheduleDeadLetters: sqs.Queue;
  readonly staleCallSweeper: StaleCallSweeper;
  readonly delivery: EventDelivery;
  readonly leadRunner: LeadRunner;
  readonly transcription: Transcription;
  /** The KMS key of values stored encrypted (secret items, OAuth tokens). */
  readonly secretsKey: SecretsKey;
  /** The functions that start transcription jobs (Transcription.allowStarting), for the nag acknowledgements. */
  readonly transcriptionStarters: NodejsFunction[];
  /** The functions that schedule lead steps (LeadRunner.allowScheduling), for the nag acknowledgements. */
  readonly leadSchedulers: NodejsFunction[];
  readonly monitoring: Monitoring;
  /** Every function, by a short name (alarm ids, dashboard legends). */
  readonly functions: Record<string, NodejsFunction>;

  constructor(scope: Construct, id: string, props: CallTrackingStackProps = {}) {
    super(scope, id, props);
    // Validated here: a bad setting fails synth, not the first request.
    const settings = (this.settings = readSettings(this.node, props.stage));
    const { logRetention } = settings;
    Tags.of(this).add('service', 'call-tracking');
    Tags.of(this).add('stage', settings.stage);

    this.table = new ServiceTable(this, 'Table');
    this.events = new EventsQueue(this, 'Events', { policy: settings.retryPolicy, consumerTimeout: DELIVERY_TIMEOUT });
    this.api = new ServiceApi(this, 'Api', {
      table: this.table,
      emailFrom: settings.emailFrom,
      webhookAllowedCidrs: settings.webhook.WEBHOOK_ALLOWED_CIDRS,
      twilio: { accountSid: settings.twilioAccountSid, authTokenSecret: settings.twilioAuthTokenSecret, apiBase: settings.twilioApiBase },
      eventsQueue: this.events.queue,
      logRetention,
      throttle: { rateLimit: settings.apiRateLimit, burstLimit: settings.apiBurstLimit },
      partnerThrottle: { rateLimit: settings.partnerRateLimit, burstLimit: settings.partnerBurstLimit },
      voiceReservedConcurrency: settings.voiceReservedConcurrency,
      routes: settings.apiRoutes === 'none' ? [] : props.routes,
    });

    // Scheduled runs EventBridge could not deliver, or that failed all of Lambda's retries. Nothing
    // to redrive (the next run does the work); kept as evidence, and alarmed on.
    this.scheduleDeadLetters = new sqs.Queue(this, 'ScheduleDeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const scheduleDeadLetterAlarm = deadLetterDepthAlarm(
      this,
      'ScheduleDeadLettersAlarm',
      this.scheduleDeadLetters,
      'A scheduled job (stale-call sweeper, outbox sweeper) failed every retry: see its log group',
    );
    this.staleCallSweeper = new StaleCallSweeper(this, 'StaleCallSweeper', {
      table: this.table,
      eventsQueue: this.events.queue,
      logRetention,
      scheduleDeadLetters: this.scheduleDeadLetters,
    });
    this.delivery = new EventDelivery(this, 'Delivery', {
      table: this.table,
      events: this.events,
      emailFrom: settings.emailFrom,
      settings: settings.webhook,
      logRetention,
      scheduleDeadLetters: this.scheduleDeadLetters,
    });

    // Lead steps: Scheduler, the runner and its queues; every function that schedules a step
    // (route groups with the scheduler port, the runner, the outbox sweeper's recovery sweep).
    this.leadRunner = new LeadRunner(this, 'LeadRunner', {
      table: this.table,
      eventsQueue: this.events.queue,
      logRetention,
      twilio: { accountSid: settings.twilioAccountSid, authTokenSecret: settings.twilioAuthTokenSecret, apiBase: settings.twilioApiBase },
      voiceWebhookBase: this.api.voiceWebhookBase,
    });
    const schedulingGroups = (Object.keys(routeGroups) as RouteGroup[]).filter((group) => {
      const ports: readonly string[] = 'ports' in routeGroups[group] ? (routeGroups[group] as { ports: readonly string[] }).ports : [];
      return ports.includes('scheduler');
    });
    this.leadSchedulers = [...schedulingGroups.map((group) => this.api.groupFunctions[group]), this.delivery.sweeper];
    for (const fn of this.leadSchedulers) this.leadRunner.allowScheduling(fn);
    this.leadSchedulers.push(this.leadRunner.function);
    this.leadRunner.announceUploads(this.api.groupFunctions.schedules);
    // Sound files' audio lives in the same bucket, under its own prefix (route-group ports objects, object_reads).
    for (const group of Object.keys(routeGroups) as RouteGroup[]) {
      const ports: readonly string[] = 'ports' in routeGroups[group] ? (routeGroups[group] as { ports: readonly string[] }).ports : [];
      if (ports.includes('objects')) this.leadRunner.allowSoundObjects(this.api.groupFunctions[group], 'write');
      else if (ports.includes('object_reads')) this.leadRunner.allowSoundObjects(this.api.groupFunctions[group], 'read');
      if (ports.includes('exports')) this.leadRunner.allowExportObjects(this.api.groupFunctions[group]);
      if (ports.includes('imports')) this.leadRunner.allowImportUploads(this.api.groupFunctions[group]);
    }

    // Values stored encrypted (secret items, OAuth tokens): route groups with the encryption port.
    this.secretsKey = new SecretsKey(this, 'SecretsKey');
    for (const group of Object.keys(routeGroups) as RouteGroup[]) {
      const ports: readonly string[] = 'ports' in routeGroups[group] ? (routeGroups[group] as { ports: readonly string[] }).ports : [];
      if (ports.includes('encryption')) this.secretsKey.allowEncrypting(this.api.groupFunctions[group]);
    }

    // Transcription of recordings: route groups with the transcription port start jobs; a rule brings their ends back.
    this.transcription = new Transcription(this, 'Transcription', {
      table: this.table,
      eventsQueue: this.events.queue,
      logRetention,
      scheduleDeadLetters: this.scheduleDeadLetters,
      jobPrefix: `calltracking-${settings.stage}`,
    });
    this.transcriptionStarters = (Object.keys(routeGroups) as RouteGroup[])
      .filter((group) => ('ports' in routeGroups[group] ? (routeGroups[group] as { ports: readonly string[] }).ports : []).includes('transcription'))
      .map((group) => this.api.groupFunctions[group]);
    for (const fn of this.transcriptionStarters) this.transcription.allowStarting(fn);

    this.functions = {
      ...this.api.groupFunctions,
      fallback: this.api.fallbackFunction,
      staleCallSweeper: this.staleCallSweeper.function,
      delivery: this.delivery.function,
      outboxSweeper: this.delivery.sweeper,
      leadRunner: this.leadRunner.function,
      transcription: this.transcription.function,
    };
    this.monitoring = new Monitoring(this, 'Monitoring', {
      alarmEmail: settings.alarmEmail,
      functions: this.functions,
      api: this.api.httpApi,
      table: this.table,
      eventsQueue: this.events.queue,
      eventsQueueNormalAge: this.events.normalOldestMessageAge,
      deadLetterQueues: {
        events: { queue: this.events.deadLetters, alarm: this.events.deadLetterAlarm },
        scheduledJobs: { queue: this.scheduleDeadLetters, alarm: scheduleDeadLetterAlarm },
        leadSteps: { queue: this.leadRunner.stepsDeadLetters, alarm: this.leadRunner.stepsDeadLetterAlarm },
        leadRunner: { queue: this.leadRunner.runnerDeadLetters, alarm: this.leadRunner.runnerDeadLetterAlarm },
      },
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'EventsQueueUrl', { value: this.events.queue.queueUrl, description: 'Domain events on their way to subscribers' });
    new CfnOutput(this, 'EventsDeadLetterQueueArn', {
      value: this.events.deadLetters.queueArn,
      description: 'Deliveries given up on; redrive: aws sqs start-message-move-task --source-arn <this value>',
    });
    new CfnOutput(this, 'LeadStepsQueueArn', { value: this.leadRunner.stepsQueue.queueArn, description: 'Lead steps due within a minute; the redrive destination of the lead dead-letter queues' });
    new CfnOutput(this, 'LeadStepsDeadLetterQueueArn', { value: this.leadRunner.stepsDeadLetters.queueArn, description: 'Queued lead steps that failed every attempt (docs/operations.md, "Lead steps")' });
    new CfnOutput(this, 'LeadRunnerDeadLetterQueueArn', { value: this.leadRunner.runnerDeadLetters.queueArn, description: 'Scheduler fires not delivered or failed (docs/operations.md, "Lead steps")' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The single DynamoDB table' });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn, description: 'Alarm notifications (subscribe more endpoints here)' });
    new CfnOutput(this, 'DashboardName', { value: this.monitoring.dashboard.dashboardName, description: 'The CloudWatch dashboard' });

    // What cdk-nag finds and this design keeps, with the reasons (the checks run from app.ts).
    acknowledgeNagFindings(this);
  }
}
