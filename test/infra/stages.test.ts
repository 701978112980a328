import { App } from 'aws-cdk-lib';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stackName } from '../../infra/settings.js';
import { CallTrackingStack } from '../../infra/stack.js';
import { type CfnResource, inspect } from './support.js';
import { readFileSync } from 'node:fs';
import { validateTemplate, replacementPropertiesOf } from '../../infra/checks/cfn-spec.js';
import { compareStatefulResources, statefulResourcesOf, unretained, type StatefulResourceList } from '../../infra/checks/stateful-resources.js';
import { templatesOf } from '../../infra/checks/synth-stages.js';
import { stackFacts } from '../../bench/cost-model.js';
import { FUNCTION_MEMORY_MB } from '../../infra/function-sizing.js';
import { routeGroups } from '../../shared/http/route-groups.js';
import { METRIC } from '../../shared/observability/metric-names.js';
import { SWEEP_INTERVAL_MINUTES } from '../../shared/calls/stale-calls.js';

/**
 * Properties that name a resource uniquely in an account (and region): two stages' stacks must
 * leave them to CloudFormation or make them differ.
 */
const PHYSICAL_NAMES: Record<string, string> = {
  'AWS::DynamoDB::GlobalTable': 'TableName',
  'AWS::DynamoDB::Table': 'TableName',
  'AWS::SQS::Queue': 'QueueName',
  'AWS::SNS::Topic': 'TopicName',
  'AWS::Lambda::Function': 'FunctionName',
  // Generated from the construct path, stack name included (ScheduleGroup's default).
  'AWS::Scheduler::ScheduleGroup': 'Name',
  'AWS::Logs::LogGroup': 'LogGroupName',
  'AWS::CloudWatch::Alarm': 'AlarmName',
  'AWS::CloudWatch::Dashboard': 'DashboardName',
  'AWS::IAM::Role': 'RoleName',
  'AWS::IAM::ManagedPolicy': 'ManagedPolicyName',
  'AWS::Events::Rule': 'Name',
  'AWS::SecretsManager::Secret': 'Name',
};

/** `*Name` properties that are references or labels, not an account-wide name. */
const NOT_PHYSICAL_NAMES = new Set([
  'AWS::CloudWatch::Alarm MetricName',
  'AWS::IAM::Policy PolicyName',
  'AWS::Lambda::Permission FunctionName',
  'AWS::Lambda::EventSourceMapping FunctionName',
  'AWS::ApiGatewayV2::Api Name',
  'AWS::ApiGatewayV2::Stage StageName',
  'AWS::SNS::Topic DisplayName',
]);

const app = new App({
  context: {
    'aws:cdk:bundling-stacks': [],
    stages: { prod: { alarmEmail: 'prod-ops@example.com' }, staging: { alarmEmail: 'staging-ops@example.com', voiceReservedConcurrency: 'none' } },
  },
});
// Both stacks first: the first template synthesizes the whole app.
const stacks = ['prod', 'staging'].map((stage) => new CallTrackingStack(app, stackName(stage), { stage }));
const stages = stacks.map((stack) => inspect(app, stack));

function physicalNames(resources: Record<string, CfnResource>): string[] {
  return Object.values(resources).flatMap((resource) => {
    const property = PHYSICAL_NAMES[resource.Type];
    const value = property ? resource.Properties[property] : undefined;
    return value === undefined ? [] : [`${resource.Type} ${JSON.stringify(value)}`];
  });
}

describe('two stages in one account and region', () => {
  it('are two stacks with distinct names, each with its own stage\'s settings', () => {
    expect(stages.map(({ stack }) => stack.stackName)).toEqual(['CallTrackingService-prod', 'CallTrackingService-staging']);
    expect(stages.map(({ stack }) => stack.settings.alarmEmail)).toEqual(['prod-ops@example.com', 'staging-ops@example.com']);
    expect(stages.map(({ stack }) => stack.settings.voiceReservedConcurrency)).toEqual([20, undefined]);
    expect(app.synth().stacks.map((stack) => stack.stackName).sort()).toEqual(['CallTrackingService-prod', 'CallTrackingService-staging']);
  });

  it('have nested stacks of routes of their own: template files named after their stage\'s stack', () => {
    const assembly = app.synth();
    const [prod, staging] = stages.map(({ stack }) => {
      const files = Object.values(stack.api.routeStacks).map((nested) => nested.templateFile);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) expect(file).toMatch(new RegExp(`^${stack.stackName.replace(/-/g, '')}`));
      return files;
    });
    expect(prod!.filter((file) => staging!.includes(file))).toEqual([]);
    // Each nested template is in the assembly, beside its parent's.
    const written = new Set(readdirSync(assembly.directory));
    for (const file of [...prod!, ...staging!]) expect(written.has(file), file).toBe(true);
  });

  it('share no physical name', () => {
    const [prod, staging] = stages.map(({ template }) => physicalNames(template.toJSON().Resources as Record<string, CfnResource>));
    expect(prod!.length).toBeGreaterThan(0);
    expect(prod!.filter((name) => staging!.includes(name))).toEqual([]);
  });

  it('name nothing else: every *Name property is a known physical name or a reference', () => {
    for (const template of stages.flatMap(({ template, routeStacks }) => [template, ...routeStacks.map((routeStack) => routeStack.template)])) {
      for (const resource of Object.values(template.toJSON().Resources as Record<string, CfnResource>)) {
        for (const key of Object.keys(resource.Properties ?? {}).filter((key) => key.endsWith('Name'))) {
          const known = PHYSICAL_NAMES[resource.Type] === key || NOT_PHYSICAL_NAMES.has(`${resource.Type} ${key}`);
          expect(known, `${resource.Type} ${key}`).toBe(true);
        }
      }
    }
  });

  it('tag every resource with its stage', () => {
    for (const [index, stage] of ['prod', 'staging'].entries()) {
      const roles = Object.values(stages[index]!.resourcesOfType('AWS::IAM::Role'));
      for (const role of roles) expect(role.Properties.Tags).toContainEqual({ Key: 'stage', Value: stage });
    }
  });
});

// Both stages' templates, the nested stacks' included, synthesized once above (synth is the slow part).
const templates = stacks.map((stack) => templatesOf(stack));

describe('upgrades that keep data (infra/stateful-resources.json)', () => {
  const committed = JSON.parse(readFileSync(new URL('../../infra/stateful-resources.json', import.meta.url), 'utf8')) as StatefulResourceList;

  it.each(['prod', 'staging'])('%s keeps every pinned stateful resource: same logical id, type and replacement-forcing properties', (stage) => {
    const { parent, nested } = templates[stage === 'prod' ? 0 : 1]!;
    const synthesized = [parent, ...Object.values(nested)].flatMap((template) => statefulResourcesOf(template, (type) => replacementPropertiesOf(type)));
    expect(committed[stage]?.length).toBeGreaterThanOrEqual(10);
    // A message per resource at risk, saying what data would be lost and what to do.
    expect(compareStatefulResources(stage, committed[stage] ?? [], synthesized).join('\n')).toBe('');
  });

  it.each(['prod', 'staging'])('%s retains every stateful resource when deleted or replaced', (stage) => {
    const { parent, nested } = templates[stage === 'prod' ? 0 : 1]!;
    expect([parent, ...Object.values(nested)].flatMap((template) => unretained(template))).toEqual([]);
  });
});

describe('templates CloudFormation accepts (its resource specification, @aws-cdk/aws-service-spec)', () => {
  it.each(['prod', 'staging'])('%s: the parent and every nested template have known types, known and required properties of the right types', (stage) => {
    const { parent, nested } = templates[stage === 'prod' ? 0 : 1]!;
    expect(Object.keys(nested).length).toBeGreaterThan(0);
    const findings = Object.entries({ parent, ...nested }).flatMap(([name, template]) =>
      validateTemplate(template).map((finding) => `${name} ${finding.resource} ${finding.path}: ${finding.problem}`),
    );
    expect(findings).toEqual([]);
  });

  it.each(['prod', 'staging'])('%s passes each nested stack exactly the parameters its template declares', (stage) => {
    const stack = stacks[stage === 'prod' ? 0 : 1]!;
    const { parent, nested } = templates[stage === 'prod' ? 0 : 1]!;
    for (const nestedStack of stack.node.findAll().filter((construct) => construct.node.path in nested)) {
      const template = nested[nestedStack.node.path] as { Parameters?: Record<string, { Default?: unknown }> };
      const resourceId = stack.getLogicalId((nestedStack as unknown as { nestedStackResource: import('aws-cdk-lib').CfnElement }).nestedStackResource);
      const passed = Object.keys((parent.Resources?.[resourceId]?.Properties?.Parameters ?? {}) as Record<string, unknown>).sort();
      const declared = Object.entries(template.Parameters ?? {});
      expect(passed.filter((name) => !declared.some(([declaredName]) => declaredName === name)), nestedStack.node.path).toEqual([]);
      expect(declared.filter(([name, parameter]) => parameter.Default === undefined && !passed.includes(name)).map(([name]) => name), nestedStack.node.path).toEqual([]);
    }
  });
});

describe('npm run cost prices the stack as synthesized', () => {
  it('counts its functions, their memory, alarms and polled queues as the template has them', () => {
    const facts = stackFacts({ memoryMb: FUNCTION_MEMORY_MB, routeGroupCount: Object.keys(routeGroups).length, metricNames: Object.keys(METRIC).length, staleSweepMinutes: SWEEP_INTERVAL_MINUTES });
    const resources = Object.values(templates[0]!.parent.Resources ?? {});
    const functions = resources.filter((resource) => resource.Type === 'AWS::Lambda::Function');
    expect(functions).toHaveLength(facts.functions);
    expect(new Set(functions.map((fn) => fn.Properties?.MemorySize))).toEqual(new Set([facts.memoryMb]));
    expect(resources.filter((resource) => resource.Type === 'AWS::CloudWatch::Alarm')).toHaveLength(facts.alarms);
    expect(resources.filter((resource) => resource.Type === 'AWS::Lambda::EventSourceMapping')).toHaveLength(facts.polledQueues);
  });
});
