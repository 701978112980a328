import { Stack, Token, Validations, type CfnElement } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks, type NagPack, ServerlessChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { SOUND_KEY_PREFIX } from '../shared/call-config/sound-audio.js';
import { IMPORT_KEY_PREFIX } from '../shared/contact-imports/import-keys.js';
import { EXPORT_KEY_PREFIX } from '../shared/admin/export-keys.js';
import { routeGroups } from '../shared/http/route-groups.js';
import type { AuthKind } from '../shared/http/routes.js';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { ServiceApi } from './constructs/api.js';
import type { EventDelivery } from './constructs/event-delivery.js';
import type { EventsQueue } from './constructs/events-queue.js';
import type { LeadRunner } from './constructs/lead-runner.js';
import type { Monitoring } from './constructs/monitoring.js';
import type { ServiceTable } from './constructs/table.js';
import type { Transcription } from './constructs/transcription.js';

/** cdk-nag's rule packs this project holds itself to (docs/operations.md, "cdk-nag"). */
export function nagPacks(scope?: IConstruct): NagPack[] {
  return [new AwsSolutionsChecks(scope, { verbose: true }), new ServerlessChecks(scope, { verbose: true })];
}

/** Runs the packs at every synth of the app: any finding not acknowledged stops the synth. */
export function applyNagChecks(app: IConstruct): void {
  Validations.of(app).addPlugins(...nagPacks(app));
}

/** Why a route has no API Gateway authorizer (AwsSolutions-APIG4), by how the route is authorised. */
export const ROUTE_AUTHORIZATION_REASONS: Record<AuthKind, string> = {
  basic: 'Authorised in the function: HTTP Basic API keys or a per-user auth_token, checked against the table (API Gateway has no authorizer for this scheme)',
  lead_token: 'Authorised in the function by the lead token the request carries',
  secure_token: 'Authorised in the function by the secure token in the path (a per-call capability URL)',
  ping: "Public by design: a partner's ping or post, found by the inbound webhook's vanity name; throttled per route",
  carrier: "Public by design: the voice carrier's webhooks, authenticated in the function by the carrier's request signature",
  none: "Public by design: CORS preflight of the partner routes, the API's own documentation, and sound files' audio for the carrier (authorised by the file's unguessable token in the path)",
};

/** The parts of the stack (infra/stack.ts, which calls this) whose findings are acknowledged: named here so that this module need not import the stack back. */
export interface NaggedStack extends Stack {
  readonly api: ServiceApi;
  readonly delivery: EventDelivery;
  readonly events: EventsQueue;
  readonly scheduleDeadLetters: Queue;
  readonly monitoring: Monitoring;
  readonly table: ServiceTable;
  readonly leadRunner: LeadRunner;
  readonly leadSchedulers: NodejsFunction[];
  readonly transcription: Transcription;
  readonly transcriptionStarters: NodejsFunction[];
  readonly functions: Record<string, NodejsFunction>;
}

/** Why the findings the stack keeps are acknowledged, each at the narrowest construct. */
export function acknowledgeNagFindings(stack: NaggedStack): void {
  const { api, delivery, events, scheduleDeadLetters, monitoring, table, leadRunner, leadSchedulers, transcription, transcriptionStarters } = stack;
  const apiFunctions: IFunction[] = [...Object.values(api.groupFunctions), api.fallbackFunction];
  const tableArn = `<${Stack.of(table).getLogicalId(table.node.defaultChild as CfnElement)}.Arn>`;

  for (const fn of Object.values(stack.functions)) {
    Validations.of(fn.role!).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: "AWS's standard Lambda logging policy (create log streams, put log events); the function's log group is its own",
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'X-Ray tracing (xray:PutTraceSegments, xray:PutTelemetryRecords) has no resource-level permissions; test/infra checks no other action has a wildcard resource',
      },
    );
    // Every function but the fallback reads the table through its indexes too.
    if (fn !== api.fallbackFunction) {
      Validations.of(fn.role!).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${tableArn}/index/*]`,
        reason: "The table's GSIs (Query on an index needs the index's ARN); the actions are the function's declared ones",
      });
    }
  }
  for (const fn of apiFunctions) {
    Validations.of(fn).acknowledge({
      id: 'Serverless-LambdaDLQ',
      reason: 'Invoked synchronously by API Gateway: a failure is the caller\'s 5xx (and the errors alarm); a DLQ only takes asynchronous invocations',
    });
  }
  Validations.of(delivery.function).acknowledge({
    id: 'Serverless-LambdaDLQ',
    reason: "Invoked by its SQS event source: failed messages go to the events queue's dead-letter queue through its redrive policy",
  });
  Validations.of(delivery.function).acknowledge({
    id: 'Serverless-LambdaEventSourceMappingDestination',
    reason: "SQS event sources take no on-failure destination; the events queue's redrive policy moves a message to its dead-letter queue after the last attempt",
  });

  // Lead steps (infra/constructs/lead-runner.ts).
  Validations.of(leadRunner.function).acknowledge({
    id: 'Serverless-LambdaEventSourceMappingDestination',
    reason: "SQS event sources take no on-failure destination; the steps queue's redrive policy moves a step to its dead-letter queue after the last attempt",
  });
  const uploadsArn = `<${Stack.of(leadRunner).getLogicalId(leadRunner.uploads.node.defaultChild as CfnElement)}.Arn>`;
  Validations.of(leadRunner.function.role!).acknowledge({
    id: `AwsSolutions-IAM5[Resource::${uploadsArn}/*]`,
    reason: 'object_storage_upload actions write objects named per company, lead and step at run time (s3:PutObject only) in the stack\'s own uploads bucket',
  });
  Validations.of(leadRunner.uploads).acknowledge({
    id: 'AwsSolutions-S1',
    reason: 'Only the lead runner writes lead exports (PutObject, no reads), only the configuration function writes sound files under sounds/ and the admin function export files under exports/, and contact import files reach imports/ through presigned PUTs of the contacts function; their writes are in their logs, and CloudTrail data events are the audit trail an operator can add',
  });
  // Sound files' audio (route-group ports objects and object_reads), keyed per company and upload at run time.
  for (const group of Object.keys(api.groupFunctions) as Array<keyof typeof api.groupFunctions>) {
    const ports: readonly string[] = (routeGroups[group] as { ports?: readonly string[] }).ports ?? [];
    if (!ports.includes('objects') && !ports.includes('object_reads')) continue;
    Validations.of(api.groupFunctions[group].role!).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${uploadsArn}/${SOUND_KEY_PREFIX}*]`,
      reason: "Sound files' audio, named per company and upload at run time, under the sounds/ prefix of the stack's own bucket only (not the lead exports)",
    });
  }
  // Admin table exports (route-group port exports), keyed per company, exporter and file at run time.
  for (const group of Object.keys(api.groupFunctions) as Array<keyof typeof api.groupFunctions>) {
    const ports: readonly string[] = (routeGroups[group] as { ports?: readonly string[] }).ports ?? [];
    if (!ports.includes('exports')) continue;
    Validations.of(api.groupFunctions[group].role!).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${uploadsArn}/${EXPORT_KEY_PREFIX}*]`,
      reason: "Admin table exports' CSV files, named per company, exporter and part at run time, under the exports/ prefix of the stack's own bucket only",
    });
  }
  // Contact import uploads (route-group port imports, and the runner that takes them), keyed per company and import at run time.
  const importsReason = "Contact import files, named per company and import at run time, under the imports/ prefix of the stack's own bucket only (PutObject to presign uploads; the runner GetObject and DeleteObject)";
  Validations.of(leadRunner.function.role!).acknowledge({ id: `AwsSolutions-IAM5[Resource::${uploadsArn}/${IMPORT_KEY_PREFIX}*]`, reason: importsReason });
  for (const group of Object.keys(api.groupFunctions) as Array<keyof typeof api.groupFunctions>) {
    const ports: readonly string[] = (routeGroups[group] as { ports?: readonly string[] }).ports ?? [];
    if (ports.includes('imports')) Validations.of(api.groupFunctions[group].role!).acknowledge({ id: `AwsSolutions-IAM5[Resource::${uploadsArn}/${IMPORT_KEY_PREFIX}*]`, reason: importsReason });
  }
  // cdk-nag names the ARN as synthesized: pseudo parameters unless the stack has a fixed environment.
  const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
  const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
  const schedules = `arn:<AWS::Partition>:scheduler:${region}:${account}:schedule/${leadRunner.scheduleGroup.scheduleGroupName}/*`;
  for (const fn of leadSchedulers) {
    Validations.of(fn.role!).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${schedules}]`,
      reason: "Create and delete the lead steps' one-time schedules, named per lead step at run time, in the stack's own schedule group only",
    });
  }

  // Transcription (infra/constructs/transcription.ts).
  const transcripts = `<${Stack.of(transcription).getLogicalId(transcription.bucket.node.defaultChild as CfnElement)}.Arn>/transcripts/*`;
  const recordingCopies = `<${Stack.of(transcription).getLogicalId(transcription.bucket.node.defaultChild as CfnElement)}.Arn>/recordings/*`;
  const jobs = `arn:<AWS::Partition>:transcribe:${region}:${account}:transcription-job/${transcription.jobPrefix}-*`;
  for (const fn of [...transcriptionStarters, transcription.function]) {
    Validations.of(fn.role!).acknowledge(
      {
        id: `AwsSolutions-IAM5[Resource::${jobs}]`,
        reason: "Transcription jobs are named per call or standalone transcription at run time; only this stack's job name prefix (StartTranscriptionJob for the starters, GetTranscriptionJob for the settle function)",
      },
      {
        id: `AwsSolutions-IAM5[Resource::${transcripts}]`,
        reason: "Transcripts are named per job at run time, under transcripts/ of the stack's own bucket (PutObject for the starters, since Transcribe writes with the caller's permissions; GetObject for the settle function)",
      },
    );
  }
  for (const fn of transcriptionStarters) {
    Validations.of(fn.role!).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${recordingCopies}]`,
      reason: "Copies of carrier recordings are named per job at run time, under recordings/ of the stack's own bucket: PutObject to copy one, GetObject since Transcribe reads the media with the caller's permissions; they expire after two days",
    });
  }
  Validations.of(transcription.bucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason: "Only Transcribe (for this stack's starters) writes and only the settle function reads its transcripts, which expire after a week; their jobs are in the functions' logs, and CloudTrail data events are the audit trail an operator can add",
  });

  for (const { definition, route } of api.routes) Validations.of(route).acknowledge({ id: 'AwsSolutions-APIG4', reason: ROUTE_AUTHORIZATION_REASONS[definition.auth] });
  const defaultRoute = api.httpApi.node.findChild('DefaultRoute');
  Validations.of(defaultRoute).acknowledge({ id: 'AwsSolutions-APIG4', reason: 'Unmatched requests: the fallback function answers 404/405 and reads no data' });

  for (const queue of [events.deadLetters, scheduleDeadLetters, leadRunner.stepsDeadLetters, leadRunner.runnerDeadLetters]) {
    Validations.of(queue).acknowledge({
      id: 'Serverless-SQSRedrivePolicy',
      reason: 'A dead-letter queue: the end of the line, kept 14 days and alarmed on while it holds anything',
    });
  }
  if (monitoring.emailSubscription) {
    Validations.of(monitoring.emailSubscription).acknowledge({
      id: 'Serverless-SNSRedrivePolicy',
      reason: 'Alarm e-mails: SNS retries deliveries, the alarm stays in ALARM on the dashboard, and a queue of lost alarm e-mails would have no one to tell',
    });
  }
}
