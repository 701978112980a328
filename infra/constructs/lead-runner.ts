import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { SOUND_KEY_PREFIX } from '../../shared/call-config/sound-audio.js';
import { EXPORT_KEY_PREFIX } from '../../shared/admin/export-keys.js';
import { IMPORT_KEY_PREFIX } from '../../shared/contact-imports/import-keys.js';
import { routeGroups } from '../../shared/http/route-groups.js';
import { LEAD_RUNNER_TIMEOUT_SECONDS, STEP_MAX_RECEIVES, STEPS_VISIBILITY_TIMEOUT_SECONDS } from '../../shared/adapters/steps-queue.js';
import { deadLetterDepthAlarm } from './events-queue.js';
import { createServiceFunction } from './function-defaults.js';
import { allowReadingSecret } from './grants.js';

/** The runner's timeout (shared/adapters/steps-queue.ts says what it covers). */
export const LEAD_RUNNER_TIMEOUT = Duration.seconds(LEAD_RUNNER_TIMEOUT_SECONDS);

export interface LeadRunnerProps {
  table: ITableV2;
  eventsQueue: sqs.IQueue;
  logRetention: RetentionDays;
  /** The carrier's settings, as the API's telephony functions get them (a dial places a call). */
  twilio?: { accountSid?: string; authTokenSecret?: string; apiBase?: string };
  /** Where the carrier sends an outbound call's webhooks: the API's voice routes. */
  voiceWebhookBase: string;
}

/**
 * Lead steps in AWS (docs/leads.md, "Waits"): the stack's own Scheduler schedule group, the
 * runner function, its steps queue (steps due within a minute) with a dead-letter queue, the
 * dead-letter queue of Scheduler's undeliverable fires (also the runner's asynchronous-invocation
 * DLQ), and the role Scheduler assumes, which may invoke the runner and nothing else (plus
 * sending to that dead-letter queue, which Scheduler does with the same role).
 *
 * No cycle: functions that schedule steps get the runner's ARN, so the runner cannot get its
 * own that way; it reads it from its invocation context instead (functions/lead-runner).
 */
export class LeadRunner extends Construct {
  readonly scheduleGroup: ScheduleGroup;
  readonly function: NodejsFunction;
  readonly stepsQueue: sqs.Queue;
  readonly stepsDeadLetters: sqs.Queue;
  readonly stepsDeadLetterAlarm: cloudwatch.Alarm;
  /** Scheduler fires it could not deliver, and runner invocations that failed Lambda's retries. */
  readonly runnerDeadLetters: sqs.Queue;
  readonly runnerDeadLetterAlarm: cloudwatch.Alarm;
  readonly schedulerRole: iam.Role;
  /** Where `object_storage_upload` actions put leads (JSON objects); written by the runner only. */
  readonly uploads: s3.Bucket;
  /** Sends S3's "Object Created" events of contact import uploads (imports/) to the steps queue. */
  readonly importUploadsRule: events.Rule;

  constructor(scope: Construct, id: string, props: LeadRunnerProps) {
    super(scope, id);
    // Pending schedules go with the stack: the retained table still says which steps are due,
    // and the overdue-step sweeper schedules them again in a new deployment.
    this.scheduleGroup = new ScheduleGroup(this, 'ScheduleGroup', { removalPolicy: RemovalPolicy.DESTROY });
    const deadLetterQueue = (queueId: string) =>
      new sqs.Queue(this, queueId, { retentionPeriod: Duration.days(14), encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true, removalPolicy: RemovalPolicy.RETAIN });
    this.stepsDeadLetters = deadLetterQueue('StepsDeadLetters');
    this.runnerDeadLetters = deadLetterQueue('RunnerDeadLetters');
    this.stepsQueue = new sqs.Queue(this, 'StepsQueue', {
      visibilityTimeout: Duration.seconds(STEPS_VISIBILITY_TIMEOUT_SECONDS),
      retentionPeriod: Duration.days(4),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.stepsDeadLetters, maxReceiveCount: STEP_MAX_RECEIVES },
      // Lead steps due within the minute: kept through any update (infra/stateful-resources.json).
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.stepsDeadLetterAlarm = deadLetterDepthAlarm(this, 'StepsDeadLettersAlarm', this.stepsDeadLetters, 'Lead steps failed every attempt from the steps queue (redrive: docs/operations.md, "Lead steps")');
    this.runnerDeadLetterAlarm = deadLetterDepthAlarm(
      this,
      'RunnerDeadLettersAlarm',
      this.runnerDeadLetters,
      'Lead steps Scheduler could not deliver, or whose run failed every retry (redrive: docs/operations.md, "Lead steps")',
    );

    this.function = createServiceFunction(this, 'Function', {
      entry: 'functions/lead-runner/handler.ts',
      description: "Runs a lead's next schedule step (EventBridge Scheduler fires and the steps queue)",
      tableName: props.table.tableName,
      timeout: LEAD_RUNNER_TIMEOUT,
      logRetention: props.logRetention,
      deadLetterQueue: this.runnerDeadLetters,
    });
    this.function.addEventSource(new SqsEventSource(this.stepsQueue, { batchSize: 10, reportBatchItemFailures: true }));
    // What the engine does to the table: what the route groups that change leads may do (enough for
    // the background work too: import rows, a deleted contact field's values deleted in transactions).
    this.function.addToRolePolicy(new iam.PolicyStatement({ actions: [...routeGroups.leads.tableActions], resources: [props.table.tableArn, `${props.table.tableArn}/index/*`] }));
    this.function.addEnvironment('EVENTS_ADAPTER', 'sqs');
    this.function.addEnvironment('EVENTS_QUEUE_URL', props.eventsQueue.queueUrl);
    props.eventsQueue.grantSendMessages(this.function);
    // A dial places a call at the carrier, whose webhooks come back to the API.
    this.function.addEnvironment('TELEPHONY_ADAPTER', 'twilio');
    this.function.addEnvironment('VOICE_WEBHOOK_BASE', props.voiceWebhookBase);
    const twilio = props.twilio ?? {};
    if (twilio.accountSid) this.function.addEnvironment('TWILIO_ACCOUNT_SID', twilio.accountSid);
    if (twilio.authTokenSecret) {
      this.function.addEnvironment('TWILIO_AUTH_TOKEN_SECRET', twilio.authTokenSecret);
      allowReadingSecret(this.function, twilio.authTokenSecret);
    }
    if (twilio.apiBase) this.function.addEnvironment('TWILIO_API_BASE', twilio.apiBase);

    // Leads are personal data: private, encrypted, TLS only, kept when the stack goes.
    this.uploads = new s3.Bucket(this, 'Uploads', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.RETAIN,
      // An import's file is deleted once its rows are in the table; one never taken (a second PUT
      // before the URL expired, a failed step) goes after a day.
      lifecycleRules: [{ id: 'ContactImportUploads', prefix: IMPORT_KEY_PREFIX, expiration: Duration.days(1) }],
    });
    // Contact import uploads (docs/resources.md, "Contact imports"): the bucket tells EventBridge of
    // new objects (set on the bucket itself: the L2 option adds a custom-resource Lambda), and a rule
    // sends those under imports/ to the steps queue, where the runner takes the upload and imports
    // it. Undeliverable events go to the runner's dead-letter queue.
    (this.uploads.node.defaultChild as s3.CfnBucket).notificationConfiguration = { eventBridgeConfiguration: { eventBridgeEnabled: true } };
    this.importUploadsRule = new events.Rule(this, 'ImportUploads', {
      description: 'Contact import files uploaded to the uploads bucket: to the lead runner, which imports them',
      eventPattern: {
        source: ['aws.s3'],
        detailType: ['Object Created'],
        detail: { bucket: { name: [this.uploads.bucketName] }, object: { key: [{ prefix: IMPORT_KEY_PREFIX }] } },
      },
      targets: [new targets.SqsQueue(this.stepsQueue, { deadLetterQueue: this.runnerDeadLetters, retryAttempts: 20, maxEventAge: Duration.hours(1) })],
    });
    // The runner reads an arrived file and deletes it once imported, on that prefix only.
    this.function.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject', 's3:DeleteObject'], resources: [this.uploads.arnForObjects(`${IMPORT_KEY_PREFIX}*`)] }));
    // PutObject alone (grantPut adds multipart aborts): the runner writes whole small objects and reads nothing.
    this.function.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [this.uploads.arnForObjects('*')] }));
    this.announceUploads(this.function);

    const stack = Stack.of(this);
    this.schedulerRole = new iam.Role(this, 'SchedulerRole', {
      description: 'Assumed by EventBridge Scheduler to invoke the lead runner, and nothing else',
      // Only Scheduler acting for this account (the confused-deputy guard AWS recommends).
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': stack.account } } }),
    });
    // Separate policy resources (not inline), so the role does not depend on the runner.
    this.schedulerRole.addToPolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.function.functionArn] }));
    this.schedulerRole.addToPolicy(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.runnerDeadLetters.queueArn] }));

    // The runner schedules its lead's next step too (its own ARN comes from its context).
    this.allowScheduling(this.function, { includeRunnerArn: false });
  }

  /**
   * Tells a function where uploads go (the schedules function refuses an object_storage_upload
   * action when no bucket is configured; the runner writes there).
   */
  announceUploads(fn: NodejsFunction): void {
    fn.addEnvironment('OBJECT_STORAGE_ADAPTER', 's3');
    fn.addEnvironment('OBJECT_STORAGE_BUCKET', this.uploads.bucketName);
  }

  /**
   * Lets a function reach sound files' audio in the uploads bucket (the `objects` and
   * `object_reads` route-group ports): the storage settings, and GetObject (with `write`, also
   * PutObject and DeleteObject) on the sounds prefix only, never the lead exports beside it.
   */
  allowSoundObjects(fn: NodejsFunction, access: 'read' | 'write'): void {
    this.announceUploads(fn);
    const actions = access === 'write' ? ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'] : ['s3:GetObject'];
    fn.addToRolePolicy(new iam.PolicyStatement({ actions, resources: [this.uploads.arnForObjects(`${SOUND_KEY_PREFIX}*`)] }));
  }

  /**
   * Lets a function write admin table exports (the `exports` route-group port): the storage
   * settings, and PutObject, GetObject (presigned downloads are signed with its role) and
   * DeleteObject on the exports prefix only.
   */
  allowExportObjects(fn: NodejsFunction): void {
    this.announceUploads(fn);
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], resources: [this.uploads.arnForObjects(`${EXPORT_KEY_PREFIX}*`)] }));
  }

  /**
   * Lets a function hand out contact import upload URLs (the `imports` route-group port): the
   * storage settings, and PutObject on the imports prefix only (a presigned PUT can do what the
   * role that signed it can, for that one key and length).
   */
  allowImportUploads(fn: NodejsFunction): void {
    this.announceUploads(fn);
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [this.uploads.arnForObjects(`${IMPORT_KEY_PREFIX}*`)] }));
  }

  /** The ARN pattern of the schedules of this stack's group. */
  get schedulesArn(): string {
    return Stack.of(this).formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${this.scheduleGroup.scheduleGroupName}/*` });
  }

  /**
   * Lets a function schedule and cancel lead steps: the scheduler adapter's settings, creating
   * and deleting schedules of this group only, passing the Scheduler role (to Scheduler only),
   * and sending to the steps queue.
   */
  allowScheduling(fn: NodejsFunction, options: { includeRunnerArn?: boolean } = {}): void {
    fn.addEnvironment('SCHEDULER_ADAPTER', 'aws');
    fn.addEnvironment('LEAD_SCHEDULE_GROUP', this.scheduleGroup.scheduleGroupName);
    if (options.includeRunnerArn !== false) fn.addEnvironment('LEAD_RUNNER_ARN', this.function.functionArn);
    fn.addEnvironment('LEAD_SCHEDULER_ROLE_ARN', this.schedulerRole.roleArn);
    fn.addEnvironment('LEAD_STEPS_QUEUE_URL', this.stepsQueue.queueUrl);
    fn.addEnvironment('LEAD_RUNNER_DLQ_ARN', this.runnerDeadLetters.queueArn);
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'], resources: [this.schedulesArn] }));
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.schedulerRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    this.stepsQueue.grantSendMessages(fn);
  }
}
