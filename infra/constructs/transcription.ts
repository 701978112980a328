import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { TRANSCRIPT_PREFIX } from '../../shared/adapters/aws/amazon-transcribe.js';
import { RECORDING_COPY_PREFIX } from '../../shared/adapters/aws/carrier-recording-copy.js';
import { createServiceFunction } from './function-defaults.js';

/**
 * What storing a finished transcript does to the table: read the call, the standalone
 * transcription and the company's keyword groups (GetItem, Query), save the call with the
 * `call_changed` outbox item (UpdateItem and PutItem inside TransactWriteItems) or update the
 * standalone transcription (UpdateItem). The delivery function clears the outbox item.
 */
export const TRANSCRIPTION_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:PutItem'] as const;

/** How long Transcribe's own copy of a transcript is kept: it is on the call once settled. */
export const TRANSCRIPT_OBJECT_DAYS = 7;

/** How long a copy of a carrier recording is kept: its job needs it for minutes; the carrier keeps the original. */
export const RECORDING_COPY_DAYS = 2;

export interface TranscriptionProps {
  table: ITableV2;
  /** Where `call_changed` goes when a transcript lands on a call. */
  eventsQueue: IQueue;
  logRetention: RetentionDays;
  /** Where events EventBridge or Lambda could not deliver go, for the alarm on its depth. */
  scheduleDeadLetters: IQueue;
  /** Names this stack's jobs (jobs are named per account and region): TRANSCRIPTION_JOB_PREFIX. */
  jobPrefix: string;
}

/**
 * Transcription of recordings with Amazon Transcribe (shared/adapters/aws/amazon-transcribe.ts).
 * The functions that start jobs (allowStarting) have them write their transcripts into this
 * stack's bucket; when a job of this stack ends, Transcribe's "Transcribe Job State Change"
 * event reaches the settle function through an EventBridge rule, which reads the result and
 * stores it on its call or standalone transcription (functions/transcription/handler.ts).
 */
export class Transcription extends Construct {
  readonly bucket: s3.Bucket;
  readonly function: NodejsFunction;
  readonly rule: events.Rule;
  readonly jobPrefix: string;

  constructor(scope: Construct, id: string, props: TranscriptionProps) {
    super(scope, id);
    this.jobPrefix = props.jobPrefix;
    // What callers said is personal data: private, encrypted, TLS only; copies expire once settled.
    this.bucket = new s3.Bucket(this, 'Transcripts', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [
        { prefix: TRANSCRIPT_PREFIX, expiration: Duration.days(TRANSCRIPT_OBJECT_DAYS) },
        { prefix: RECORDING_COPY_PREFIX, expiration: Duration.days(RECORDING_COPY_DAYS) },
      ],
    });

    this.function = createServiceFunction(this, 'Function', {
      entry: 'functions/transcription/handler.ts',
      description: "Stores a finished Transcribe job's transcript on its call or standalone transcription and tags it by keyword groups",
      tableName: props.table.tableName,
      timeout: Duration.seconds(30),
      logRetention: props.logRetention,
      deadLetterQueue: props.scheduleDeadLetters,
    });
    this.configure(this.function);
    this.function.addEnvironment('EVENTS_ADAPTER', 'sqs');
    this.function.addEnvironment('EVENTS_QUEUE_URL', props.eventsQueue.queueUrl);
    props.eventsQueue.grantSendMessages(this.function);
    this.function.addToRolePolicy(new iam.PolicyStatement({ actions: [...TRANSCRIPTION_TABLE_ACTIONS], resources: [props.table.tableArn, `${props.table.tableArn}/index/*`] }));
    this.function.addToRolePolicy(new iam.PolicyStatement({ actions: ['transcribe:GetTranscriptionJob'], resources: [this.jobsArn] }));
    this.function.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects(`${TRANSCRIPT_PREFIX}*`)] }));

    this.rule = new events.Rule(this, 'JobStateChange', {
      description: "Brings this stack's finished Transcribe jobs to the settle function",
      eventPattern: {
        source: ['aws.transcribe'],
        detailType: ['Transcribe Job State Change'],
        detail: { TranscriptionJobStatus: ['COMPLETED', 'FAILED'], TranscriptionJobName: events.Match.prefix(`${this.jobPrefix}-`) },
      },
      targets: [new targets.LambdaFunction(this.function, { retryAttempts: 2, deadLetterQueue: props.scheduleDeadLetters })],
    });
  }

  /** This stack's transcription jobs (named `<prefix>-<company>-<kind>-<id>`). */
  get jobsArn(): string {
    return Stack.of(this).formatArn({ service: 'transcribe', resource: 'transcription-job', resourceName: `${this.jobPrefix}-*` });
  }

  /** The transcription adapter's settings. */
  private configure(fn: NodejsFunction): void {
    fn.addEnvironment('TRANSCRIPTION_ADAPTER', 'aws');
    fn.addEnvironment('TRANSCRIPTS_BUCKET', this.bucket.bucketName);
    fn.addEnvironment('TRANSCRIPTION_JOB_PREFIX', this.jobPrefix);
  }

  /**
   * Lets a function start this stack's jobs: StartTranscriptionJob on their names only, PutObject
   * of their transcripts (Transcribe writes the output with the caller's permissions), and
   * PutObject and GetObject of the carrier recordings' copies under `recordings/` (the function
   * writes them; Transcribe reads the media with the caller's permissions too). The carrier's
   * settings the copy needs are wired by the API (infra/constructs/api.ts, the transcription port).
   */
  allowStarting(fn: NodejsFunction): void {
    this.configure(fn);
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['transcribe:StartTranscriptionJob'], resources: [this.jobsArn] }));
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [this.bucket.arnForObjects(`${TRANSCRIPT_PREFIX}*`)] }));
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:PutObject', 's3:GetObject'], resources: [this.bucket.arnForObjects(`${RECORDING_COPY_PREFIX}*`)] }));
  }
}
