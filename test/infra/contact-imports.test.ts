import { describe, expect, it } from 'vitest';
import { IMPORT_KEY_PREFIX } from '../../shared/contact-imports/import-keys.js';
import { routeGroups, type RouteGroup } from '../../shared/http/route-groups.js';
import { actionsOf, synth } from './support.js';

/**
 * Contact import uploads in AWS (docs/resources.md, "Data appends and contact imports"): the
 * uploads bucket tells EventBridge of new objects, a rule sends those under imports/ to the lead
 * runner's steps queue, the runner may read and delete files there only, and the function that
 * presigns the upload URLs may put files there only.
 */
const { stack, resourcesOfType, logicalIdOf, variablesOf, statementsOf } = synth();
const runner = stack.leadRunner;
const arnOf = (construct: Parameters<typeof logicalIdOf>[0]) => ({ 'Fn::GetAtt': [logicalIdOf(construct), 'Arn'] });
const importsArn = { 'Fn::Join': ['', [arnOf(runner.uploads), `/${IMPORT_KEY_PREFIX}*`]] };
const s3Statements = (fn: Parameters<typeof statementsOf>[0]) => statementsOf(fn).filter((statement) => actionsOf(statement).some((action) => action.startsWith('s3:')));

describe('contact import uploads in AWS', () => {
  it('has the uploads bucket send its events to EventBridge itself (no notification custom resource) and expire stray files after a day', () => {
    const bucket = resourcesOfType('AWS::S3::Bucket')[logicalIdOf(runner.uploads)]!;
    expect(bucket.Properties.NotificationConfiguration).toEqual({ EventBridgeConfiguration: { EventBridgeEnabled: true } });
    expect(bucket.Properties.LifecycleConfiguration).toEqual({ Rules: [{ Id: 'ContactImportUploads', Prefix: IMPORT_KEY_PREFIX, ExpirationInDays: 1, Status: 'Enabled' }] });
    expect(Object.keys(resourcesOfType('Custom::S3BucketNotifications'))).toEqual([]);
  });

  it("routes Object Created events under imports/ of that bucket, and nothing else, to the runner's steps queue, undeliverable ones to its dead-letter queue", () => {
    const rule = resourcesOfType('AWS::Events::Rule')[logicalIdOf(runner.importUploadsRule)]!;
    expect(rule.Properties.EventPattern).toEqual({
      source: ['aws.s3'],
      'detail-type': ['Object Created'],
      detail: { bucket: { name: [{ Ref: logicalIdOf(runner.uploads) }] }, object: { key: [{ prefix: IMPORT_KEY_PREFIX }] } },
    });
    expect(rule.Properties.Targets).toEqual([
      expect.objectContaining({ Arn: arnOf(runner.stepsQueue), DeadLetterConfig: { Arn: arnOf(runner.runnerDeadLetters) }, RetryPolicy: { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 20 } }),
    ]);
    // The queue takes EventBridge's messages from this rule only.
    const statements = Object.values(resourcesOfType('AWS::SQS::QueuePolicy'))
      .filter((policy) => JSON.stringify(policy.Properties.Queues) === JSON.stringify([{ Ref: logicalIdOf(runner.stepsQueue) }]))
      .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Array<Record<string, unknown>> }).Statement)
      .filter((statement) => JSON.stringify(statement.Principal).includes('events.amazonaws.com'));
    expect(statements).toEqual([
      expect.objectContaining({ Effect: 'Allow', Action: expect.arrayContaining(['sqs:SendMessage']), Condition: { ArnEquals: { 'aws:SourceArn': arnOf(runner.importUploadsRule) } } }),
    ]);
  });

  it('lets the runner read and delete files under imports/ only', () => {
    const statements = s3Statements(runner.function).filter((statement) => JSON.stringify(statement.Resource).includes(`/${IMPORT_KEY_PREFIX}`));
    expect(statements).toEqual([{ Action: ['s3:GetObject', 's3:DeleteObject'], Effect: 'Allow', Resource: importsArn }]);
  });

  it('lets the functions with the imports port (contacts) presign uploads: PutObject under imports/ only, with the bucket settings', () => {
    const importers = (Object.keys(routeGroups) as RouteGroup[]).filter((group) => ((routeGroups[group] as { ports?: readonly string[] }).ports ?? []).includes('imports'));
    expect(importers).toEqual(['contacts']);
    const contacts = stack.api.groupFunctions.contacts;
    expect(s3Statements(contacts)).toEqual([{ Action: 's3:PutObject', Effect: 'Allow', Resource: importsArn }]);
    expect(variablesOf(contacts)).toMatchObject({ OBJECT_STORAGE_ADAPTER: 's3', OBJECT_STORAGE_BUCKET: { Ref: logicalIdOf(runner.uploads) }, LEAD_STEPS_QUEUE_URL: { Ref: logicalIdOf(runner.stepsQueue) } });
    // No other function reaches imports/.
    const others = Object.entries(stack.functions).filter(([, fn]) => fn !== contacts && fn !== runner.function);
    for (const [name, fn] of others) expect(JSON.stringify(s3Statements(fn)), name).not.toContain(`/${IMPORT_KEY_PREFIX}`);
  });
});
