import { App, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { EventsQueue } from '../../infra/constructs/events-queue.js';
import { SecretsKey } from '../../infra/constructs/secrets-key.js';
import { ServiceTable } from '../../infra/constructs/table.js';
import { replacementPropertiesOf } from '../../infra/checks/cfn-spec.js';
import { compareStatefulResources, statefulResourcesOf, unretained, type TemplateResources } from '../../infra/checks/stateful-resources.js';

/**
 * The checker on small stacks built from the real constructs (no functions: synth in
 * milliseconds): pinned as they are, a rename of a construct fails the check with what data it
 * would lose, and naming it back passes again.
 */
function stackWith(ids: { table: string; events: string; key: string }, tableSortKey = true): TemplateResources {
  const stack = new Stack(new App(), 'Pinned');
  const table = new ServiceTable(stack, ids.table);
  if (!tableSortKey) {
    // A different key schema under the same logical id: CloudFormation replaces such a table.
    (table.node.defaultChild as unknown as { addPropertyOverride(path: string, value: unknown): void }).addPropertyOverride('KeySchema', [{ AttributeName: 'pk', KeyType: 'HASH' }]);
  }
  new EventsQueue(stack, ids.events, { policy: { delays: [5, 300], disableAfterSeconds: 86_400 }, consumerTimeout: Duration.seconds(30) });
  new SecretsKey(stack, ids.key);
  return Template.fromStack(stack).toJSON() as TemplateResources;
}

const pin = (template: TemplateResources) => statefulResourcesOf(template, (type) => replacementPropertiesOf(type));
const ids = { table: 'Table', events: 'Events', key: 'SecretsKey' };
const committed = pin(stackWith(ids));

describe('stateful resources pinned', () => {
  it('lists the table, both queues and the key, with the replacement-forcing properties the specification names', () => {
    expect(committed.map((resource) => resource.type).sort()).toEqual(['AWS::DynamoDB::GlobalTable', 'AWS::KMS::Key', 'AWS::SQS::Queue', 'AWS::SQS::Queue']);
    const table = committed.find((resource) => resource.type === 'AWS::DynamoDB::GlobalTable')!;
    expect(table.replacementProperties).toEqual({
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      LocalSecondaryIndexes: null,
      TableName: null,
    });
    expect(committed.find((resource) => resource.type === 'AWS::SQS::Queue')!.replacementProperties).toEqual({ FifoQueue: null, QueueName: null });
  });

  it('passes when nothing changed', () => {
    expect(compareStatefulResources('prod', committed, pin(stackWith(ids)))).toEqual([]);
  });

  it('fails on a renamed table construct, naming the data at risk, and passes once the name is back', () => {
    const renamed = compareStatefulResources('prod', committed, pin(stackWith({ ...ids, table: 'ServiceTable' })));
    expect(renamed).toHaveLength(2);
    expect(renamed[0]).toMatch(/^\[prod\] AWS::DynamoDB::GlobalTable Table\w+ is gone from the stack \(renamed to ServiceTable\w+\?\)/);
    expect(renamed[0]).toContain('every record of every company');
    expect(renamed[0]).toContain('docs/operations.md');
    expect(renamed[1]).toMatch(/ServiceTable\w+ is new and not pinned/);
    expect(compareStatefulResources('prod', committed, pin(stackWith(ids)))).toEqual([]);
  });

  it('fails on a queue moved to another construct id, and on the KMS key renamed', () => {
    const problems = compareStatefulResources('staging', committed, pin(stackWith({ ...ids, events: 'Deliveries', key: 'Key' })));
    expect(problems.filter((problem) => problem.includes('is gone from the stack'))).toHaveLength(3);
    expect(problems.join('\n')).toContain('events not yet delivered');
    expect(problems.join('\n')).toContain('decrypt every secret');
    expect(problems.every((problem) => problem.startsWith('[staging]'))).toBe(true);
  });

  it('fails on a changed key schema under the same logical id', () => {
    const problems = compareStatefulResources('prod', committed, pin(stackWith(ids, false)));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/KeySchema changes from .* replace the resource, losing every record/);
  });

  it('finds stateful resources that a deletion or replacement would delete', () => {
    expect(unretained(stackWith(ids))).toEqual([]);
    const template: TemplateResources = { Resources: { Q: { Type: 'AWS::SQS::Queue', DeletionPolicy: 'Delete', UpdateReplacePolicy: 'Delete' }, F: { Type: 'AWS::Lambda::Function' } } };
    expect(unretained(template)).toEqual([expect.stringMatching(/^Q \(AWS::SQS::Queue\): DeletionPolicy Delete/)]);
  });
});
