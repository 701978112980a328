import { describe, expect, it } from 'vitest';
import { replacementPropertiesOf, validateTemplate } from '../../infra/checks/cfn-spec.js';

/** The specification check on plain templates: each kind of problem it must find, and what it lets through. */
describe('templates checked against the CloudFormation specification', () => {
  it('accepts a valid template, intrinsic values, numbers as strings and CDK metadata', () => {
    const findings = validateTemplate({
      Resources: {
        Queue: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: '180', SqsManagedSseEnabled: true, Tags: [{ Key: 'stage', Value: 'prod' }] } },
        Fn: { Type: 'AWS::Lambda::Function', Properties: { Code: { ZipFile: 'x' }, Role: { 'Fn::GetAtt': ['Role', 'Arn'] }, MemorySize: { Ref: 'Memory' }, Handler: 'index.handler', Runtime: 'nodejs22.x' } },
        CDKMetadata: { Type: 'AWS::CDK::Metadata', Properties: { Analytics: 'v2:deflate64:...' } },
      },
    });
    expect(findings).toEqual([]);
  });

  it.each([
    ['an unknown type', { Type: 'AWS::SQS::Queues', Properties: {} }, '', /unknown resource type AWS::SQS::Queues/],
    ['an unknown property', { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeOut: 30 } }, 'VisibilityTimeOut', /unknown property/],
    ['a missing required property', { Type: 'AWS::Lambda::Permission', Properties: { Action: 'lambda:InvokeFunction', Principal: 'sns.amazonaws.com' } }, 'FunctionName', /required property missing/],
    ['a string for an integer', { Type: 'AWS::SQS::Queue', Properties: { DelaySeconds: 'soon' } }, 'DelaySeconds', /expected an integer/],
    ['an object for a string', { Type: 'AWS::SNS::Topic', Properties: { DisplayName: { name: 'x' } } }, 'DisplayName', /expected a string/],
    ['a scalar for a list', { Type: 'AWS::DynamoDB::GlobalTable', Properties: { KeySchema: 'pk', AttributeDefinitions: [], Replicas: [{ Region: 'us-east-1' }] } }, 'KeySchema', /expected an array/],
    ['an unknown key in a nested type', { Type: 'AWS::DynamoDB::GlobalTable', Properties: { KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH', Extra: 1 }], AttributeDefinitions: [], Replicas: [{ Region: 'us-east-1' }] } }, 'KeySchema[0].Extra', /unknown property/],
    ['a tag without its value', { Type: 'AWS::SQS::Queue', Properties: { Tags: [{ Key: 'stage' }] } }, 'Tags[0].Value', /required property missing/],
  ])('finds %s', (_, resource, path, problem) => {
    const findings = validateTemplate({ Resources: { Thing: resource } });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ resource: 'Thing', path });
    expect(findings[0]!.problem).toMatch(problem);
  });

  it('names the properties whose change replaces a resource', () => {
    expect(replacementPropertiesOf('AWS::DynamoDB::GlobalTable')).toEqual(['KeySchema', 'LocalSecondaryIndexes', 'TableName']);
    expect(replacementPropertiesOf('AWS::S3::Bucket')).toContain('BucketName');
    expect(replacementPropertiesOf('AWS::Nope::Nothing')).toEqual([]);
  });
});
