import { Match } from 'aws-cdk-lib/assertions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { STEP_MAX_RECEIVES, STEPS_VISIBILITY_TIMEOUT_SECONDS } from '../../shared/adapters/steps-queue.js';
import { routeGroups, type RouteGroup } from '../../shared/http/route-groups.js';
import { actionsOf, synth, type PolicyStatement } from './support.js';

const { stack, template, resourcesOfType, logicalIdOf, variablesOf, statementsOf } = synth();
const runner = stack.leadRunner;
const arnOf = (construct: Parameters<typeof logicalIdOf>[0]) => ({ 'Fn::GetAtt': [logicalIdOf(construct), 'Arn'] });
const refOf = (construct: Parameters<typeof logicalIdOf>[0]) => ({ Ref: logicalIdOf(construct) });

const schedulingGroups = (Object.keys(routeGroups) as RouteGroup[]).filter((group) => ((routeGroups[group] as { ports?: readonly string[] }).ports ?? []).includes('scheduler'));
const schedulers: Array<[string, IFunction]> = [
  ...schedulingGroups.map((group): [string, IFunction] => [group, stack.api.groupFunctions[group]]),
  ['outbox sweeper', stack.delivery.sweeper],
  ['lead runner', runner.function],
];

function statementWith(fn: IFunction, action: string): PolicyStatement | undefined {
  return statementsOf(fn).find((statement) => actionsOf(statement).includes(action));
}

describe('lead steps in AWS', () => {
  it("has the stack's own schedule group, deleted with the stack", () => {
    const groups = resourcesOfType('AWS::Scheduler::ScheduleGroup');
    expect(Object.keys(groups)).toHaveLength(1);
    expect(Object.values(groups)[0]!.DeletionPolicy).toBe('Delete');
    expect(schedulingGroups.sort()).toEqual(['configuration', 'contacts', 'leads', 'schedules']);
  });

  it('lets Scheduler (of this account) assume a role that may invoke only the runner, and send to its dead-letter queue', () => {
    const role = resourcesOfType('AWS::IAM::Role')[logicalIdOf(runner.schedulerRole)]!;
    expect(role.Properties.AssumeRolePolicyDocument).toEqual({
      Version: '2012-10-17',
      Statement: [{ Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'scheduler.amazonaws.com' }, Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } } }],
    });
    expect(role.Properties.Policies).toBeUndefined();
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    const statements = Object.values(resourcesOfType('AWS::IAM::Policy'))
      .filter((policy) => (policy.Properties.Roles as Array<{ Ref?: string }>).some((ref) => ref.Ref === logicalIdOf(runner.schedulerRole)))
      .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: PolicyStatement[] }).Statement);
    expect(statements).toEqual([
      { Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: arnOf(runner.function) },
      { Action: 'sqs:SendMessage', Effect: 'Allow', Resource: arnOf(runner.runnerDeadLetters) },
    ]);
  });

  it('runs the runner from its encrypted, TLS-only steps queue with partial batch responses, redriven to a dead-letter queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: refOf(runner.function),
      EventSourceArn: arnOf(runner.stepsQueue),
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const queue = resourcesOfType('AWS::SQS::Queue')[logicalIdOf(runner.stepsQueue)]!;
    expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true, VisibilityTimeout: STEPS_VISIBILITY_TIMEOUT_SECONDS, RedrivePolicy: { deadLetterTargetArn: arnOf(runner.stepsDeadLetters), maxReceiveCount: STEP_MAX_RECEIVES } });
    for (const q of [runner.stepsQueue, runner.stepsDeadLetters, runner.runnerDeadLetters]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [refOf(q)],
        PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
      });
    }
    // Failed asynchronous invocations (Scheduler's) go to the runner's dead-letter queue too.
    const fn = resourcesOfType('AWS::Lambda::Function')[logicalIdOf(runner.function)]!;
    expect(fn.Properties.DeadLetterConfig).toEqual({ TargetArn: arnOf(runner.runnerDeadLetters) });
  });

  it.each(schedulers)('lets the %s function schedule steps: settings, this group only, pass only that role to Scheduler, the steps queue', (_name, fn) => {
    const variables = variablesOf(fn);
    expect(variables).toMatchObject({
      SCHEDULER_ADAPTER: 'aws',
      LEAD_SCHEDULE_GROUP: runner.scheduleGroup.scheduleGroupName,
      LEAD_SCHEDULER_ROLE_ARN: arnOf(runner.schedulerRole),
      LEAD_STEPS_QUEUE_URL: refOf(runner.stepsQueue),
      LEAD_RUNNER_DLQ_ARN: arnOf(runner.runnerDeadLetters),
    });
    // The runner reads its own ARN from its invocation context: passing it would be a cycle.
    if (fn === runner.function) expect(variables.LEAD_RUNNER_ARN).toBeUndefined();
    else expect(variables.LEAD_RUNNER_ARN).toEqual(arnOf(runner.function));
    const create = statementWith(fn, 'scheduler:CreateSchedule')!;
    expect(actionsOf(create).sort()).toEqual(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule']);
    expect(JSON.stringify(create.Resource)).toContain(`:schedule/${runner.scheduleGroup.scheduleGroupName}/*`);
    const pass = statementWith(fn, 'iam:PassRole') as PolicyStatement & { Condition?: unknown };
    expect(pass).toMatchObject({ Resource: arnOf(runner.schedulerRole), Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } } });
    const sends = statementsOf(fn).filter((statement) => actionsOf(statement).includes('sqs:SendMessage'));
    expect(sends.some((statement) => JSON.stringify(statement.Resource) === JSON.stringify(arnOf(runner.stepsQueue)))).toBe(true);
  });

  it('gives no other function the scheduler', () => {
    const others = Object.entries(stack.functions).filter(([, fn]) => !schedulers.some(([, scheduler]) => scheduler === fn));
    expect(others.length).toBeGreaterThan(5);
    for (const [name, fn] of others) {
      expect(statementWith(fn, 'scheduler:CreateSchedule'), name).toBeUndefined();
      expect(statementWith(fn, 'iam:PassRole'), name).toBeUndefined();
    }
  });

  it("gives the runner the engine's table actions, the events queue, the carrier and the voice webhooks", () => {
    const tableStatement = statementsOf(runner.function).find((statement) => actionsOf(statement).some((action) => action.startsWith('dynamodb:')))!;
    expect(actionsOf(tableStatement).sort()).toEqual([...routeGroups.leads.tableActions].sort());
    expect(variablesOf(runner.function)).toMatchObject({ EVENTS_ADAPTER: 'sqs', TELEPHONY_ADAPTER: 'twilio', VOICE_WEBHOOK_BASE: expect.anything() });
    expect(JSON.stringify(variablesOf(runner.function).VOICE_WEBHOOK_BASE)).toContain('/api/v1/voice/twilio');
    expect(variablesOf(stack.api.groupFunctions.schedules).VOICE_WEBHOOK_BASE).toEqual(variablesOf(runner.function).VOICE_WEBHOOK_BASE);
  });

  it('alarms on both dead-letter queues and on the runner', () => {
    const alarms = Object.values(resourcesOfType('AWS::CloudWatch::Alarm'));
    for (const queue of [runner.stepsDeadLetters, runner.runnerDeadLetters]) {
      expect(alarms.some((alarm) => JSON.stringify(alarm.Properties.Dimensions ?? []).includes(logicalIdOf(queue)) && alarm.Properties.MetricName === 'ApproximateNumberOfMessagesVisible')).toBe(true);
    }
    expect(alarms.some((alarm) => alarm.Properties.MetricName === 'Errors' && JSON.stringify(alarm.Properties.Dimensions).includes(logicalIdOf(runner.function)))).toBe(true);
    expect(stack.functions.leadRunner).toBe(runner.function);
  });

  it('keeps object_storage_upload objects in a private, encrypted, TLS-only bucket that only the runner may write to', () => {
    const bucket = resourcesOfType('AWS::S3::Bucket')[logicalIdOf(runner.uploads)]!;
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(bucket.Properties).toMatchObject({
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: refOf(runner.uploads),
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    // Only the runner writes lead exports; other functions reach buckets of their own (transcripts)
    // or the sounds/, exports/ and imports/ prefixes alone (test/infra/sound-storage.test.ts,
    // test/infra/contact-imports.test.ts).
    const writers = Object.entries(stack.functions).filter(([, fn]) =>
      statementsOf(fn).some((statement) => actionsOf(statement).some((action) => action.startsWith('s3:')) && JSON.stringify(statement.Resource).includes(logicalIdOf(runner.uploads)) && !JSON.stringify(statement.Resource).includes('/sounds/*') && !JSON.stringify(statement.Resource).includes('/exports/*') && !JSON.stringify(statement.Resource).includes('/imports/*')),
    );
    expect(writers.map(([name]) => name)).toEqual(['leadRunner']);
    expect(statementsOf(runner.function).filter((statement) => actionsOf(statement).some((action) => action.startsWith('s3:')))).toEqual([
      { Action: ['s3:GetObject', 's3:DeleteObject'], Effect: 'Allow', Resource: { 'Fn::Join': ['', [arnOf(runner.uploads), '/imports/*']] } },
      { Action: 's3:PutObject', Effect: 'Allow', Resource: { 'Fn::Join': ['', [arnOf(runner.uploads), '/*']] } },
    ]);
    // The schedules function checks at create time that uploads have somewhere to go.
    for (const fn of [runner.function, stack.api.groupFunctions.schedules]) {
      expect(variablesOf(fn)).toMatchObject({ OBJECT_STORAGE_ADAPTER: 's3', OBJECT_STORAGE_BUCKET: refOf(runner.uploads) });
    }
  });
});
