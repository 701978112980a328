import { describe, expect, it } from 'vitest';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { RECORDING_COPY_DAYS, TRANSCRIPT_OBJECT_DAYS, TRANSCRIPTION_TABLE_ACTIONS } from '../../infra/constructs/transcription.js';
import { routeGroups, type RouteGroup } from '../../shared/http/route-groups.js';
import { actionsOf, synth } from './support.js';

const { stack, template, resourcesOfType, logicalIdOf, variablesOf, statementsOf } = synth();
const transcription = stack.transcription;
const arnOf = (construct: Parameters<typeof logicalIdOf>[0]) => ({ 'Fn::GetAtt': [logicalIdOf(construct), 'Arn'] });
const jobsArn = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':transcribe:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':transcription-job/calltracking-prod-*']] };
const transcriptsArn = { 'Fn::Join': ['', [arnOf(transcription.bucket), '/transcripts/*']] };
const recordingCopiesArn = { 'Fn::Join': ['', [arnOf(transcription.bucket), '/recordings/*']] };

const startingGroups = (Object.keys(routeGroups) as RouteGroup[]).filter((group) => ((routeGroups[group] as { ports?: readonly string[] }).ports ?? []).includes('transcription'));

/** Every statement of a function's role that names Transcribe, or S3 on the transcripts bucket (the sounds' bucket is another construct's). */
const transcriptionStatements = (fn: IFunction) =>
  statementsOf(fn).filter(
    (statement) =>
      actionsOf(statement).some((action) => action.startsWith('transcribe:')) ||
      (actionsOf(statement).some((action) => action.startsWith('s3:')) && JSON.stringify(statement.Resource).includes(logicalIdOf(transcription.bucket))),
  );

describe('transcription in AWS', () => {
  it('keeps transcripts in a private, encrypted, TLS-only bucket whose copies expire', () => {
    const bucket = resourcesOfType('AWS::S3::Bucket')[logicalIdOf(transcription.bucket)]!;
    expect(bucket.Properties).toMatchObject({
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LifecycleConfiguration: {
        Rules: [
          { Prefix: 'transcripts/', ExpirationInDays: TRANSCRIPT_OBJECT_DAYS, Status: 'Enabled' },
          { Prefix: 'recordings/', ExpirationInDays: RECORDING_COPY_DAYS, Status: 'Enabled' },
        ],
      },
    });
    const policy = Object.values(resourcesOfType('AWS::S3::BucketPolicy')).find((candidate) => JSON.stringify(candidate.Properties.Bucket).includes(logicalIdOf(transcription.bucket)))!;
    expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('aws:SecureTransport');
  });

  it("brings this stack's finished jobs (and only those) to the settle function, with retries and a dead-letter queue", () => {
    const rule = resourcesOfType('AWS::Events::Rule')[logicalIdOf(transcription.rule)]!;
    expect(rule.Properties.EventPattern).toEqual({
      source: ['aws.transcribe'],
      'detail-type': ['Transcribe Job State Change'],
      detail: { TranscriptionJobStatus: ['COMPLETED', 'FAILED'], TranscriptionJobName: [{ prefix: 'calltracking-prod-' }] },
    });
    expect(rule.Properties.Targets).toEqual([
      expect.objectContaining({ Arn: arnOf(transcription.function), RetryPolicy: { MaximumRetryAttempts: 2 }, DeadLetterConfig: { Arn: arnOf(stack.scheduleDeadLetters) } }),
    ]);
    template.hasResourceProperties('AWS::Lambda::Permission', { FunctionName: arnOf(transcription.function), Principal: 'events.amazonaws.com', SourceArn: arnOf(transcription.rule) });
  });

  it('lets the settle function read job states and transcripts of this stack only, and store results in the table', () => {
    expect(variablesOf(transcription.function)).toMatchObject({
      TRANSCRIPTION_ADAPTER: 'aws',
      TRANSCRIPTS_BUCKET: { Ref: logicalIdOf(transcription.bucket) },
      TRANSCRIPTION_JOB_PREFIX: 'calltracking-prod',
      EVENTS_ADAPTER: 'sqs',
    });
    expect(transcriptionStatements(transcription.function)).toEqual([
      { Action: 'transcribe:GetTranscriptionJob', Effect: 'Allow', Resource: jobsArn },
      { Action: 's3:GetObject', Effect: 'Allow', Resource: transcriptsArn },
    ]);
    const table = statementsOf(transcription.function).find((statement) => actionsOf(statement).includes('dynamodb:Query'))!;
    expect(actionsOf(table).sort()).toEqual([...TRANSCRIPTION_TABLE_ACTIONS].sort());
  });

  it.each(startingGroups)('lets the %s function start jobs of this stack whose transcripts land in its bucket, copy carrier recordings there for them, and nothing more', (group) => {
    const fn = stack.api.groupFunctions[group];
    expect(variablesOf(fn)).toMatchObject({ TRANSCRIPTION_ADAPTER: 'aws', TRANSCRIPTS_BUCKET: { Ref: logicalIdOf(transcription.bucket) }, TRANSCRIPTION_JOB_PREFIX: 'calltracking-prod' });
    expect(transcriptionStatements(fn)).toEqual([
      { Action: 'transcribe:StartTranscriptionJob', Effect: 'Allow', Resource: jobsArn },
      { Action: 's3:PutObject', Effect: 'Allow', Resource: transcriptsArn },
      // The copy is written by the function and read by Transcribe with the function's permissions.
      { Action: ['s3:PutObject', 's3:GetObject'], Effect: 'Allow', Resource: recordingCopiesArn },
    ]);
  });

  it("gives the functions starting jobs the carrier's account and token secret, to fetch the recordings they copy", () => {
    const configured = synth({ twilioAccountSid: 'AC00000000000000000000000000000000', twilioAuthTokenSecret: 'call-tracking/twilio-auth-token' });
    for (const group of startingGroups) {
      const fn = configured.stack.api.groupFunctions[group];
      expect(configured.variablesOf(fn), group).toMatchObject({ TWILIO_ACCOUNT_SID: 'AC00000000000000000000000000000000', TWILIO_AUTH_TOKEN_SECRET: 'call-tracking/twilio-auth-token' });
      expect(configured.statementsOf(fn).filter((statement) => actionsOf(statement).includes('secretsmanager:GetSecretValue')), group).toHaveLength(1);
    }
  });

  it('starts jobs from the configuration (standalone transcriptions) and voice (recordings) functions only', () => {
    expect(startingGroups.sort()).toEqual(['configuration', 'voice']);
    for (const group of (Object.keys(routeGroups) as RouteGroup[]).filter((candidate) => !startingGroups.includes(candidate))) {
      expect(statementsOf(stack.api.groupFunctions[group]).flatMap(actionsOf).filter((action) => action.startsWith('transcribe:')), group).toEqual([]);
    }
  });
});
