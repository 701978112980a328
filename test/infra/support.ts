import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { CallTrackingStack } from '../../infra/stack.js';

/** The parts of a synthesized CloudFormation resource these tests read. */
export interface CfnResource {
  Type: string;
  Properties: Record<string, unknown>;
  DependsOn?: string[];
  DeletionPolicy?: string;
}

export interface PolicyStatement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

export interface Synthesized {
  app: App;
  stack: CallTrackingStack;
  template: Template;
  resourcesOfType(type: string): Record<string, CfnResource>;
  logicalIdOf(construct: IConstruct): string;
  /** The Environment.Variables of a function. */
  variablesOf(fn: IFunction): Record<string, unknown>;
  /** Every statement in the IAM policies (inline or attached) of a function's execution role. */
  statementsOf(fn: IFunction): PolicyStatement[];
}

/**
 * Synthesizes the stack with the given context. An empty bundling-stacks list makes
 * NodejsFunction skip esbuild, so synth takes well under a second.
 */
export function synth(context: Record<string, unknown> = {}, id = 'CallTrackingService-prod'): Synthesized {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new CallTrackingStack(app, id);
  return inspect(app, stack);
}

export function inspect(app: App, stack: CallTrackingStack): Synthesized {
  const template = Template.fromStack(stack);
  const resourcesOfType = (type: string) => template.findResources(type) as Record<string, CfnResource>;
  const logicalIdOf = (construct: IConstruct) => Stack.of(construct).getLogicalId((construct.node.defaultChild ?? construct) as CfnElement);
  return {
    app,
    stack,
    template,
    resourcesOfType,
    logicalIdOf,
    variablesOf(fn) {
      const resource = resourcesOfType('AWS::Lambda::Function')[logicalIdOf(fn)];
      return (resource?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    },
    statementsOf(fn) {
      if (!fn.role) throw new Error('function has no role');
      const roleId = logicalIdOf(fn.role);
      const role = resourcesOfType('AWS::IAM::Role')[roleId];
      const inline = (role?.Properties.Policies ?? []) as { PolicyDocument: { Statement: PolicyStatement[] } }[];
      const attached = Object.values(resourcesOfType('AWS::IAM::Policy'))
        .filter((policy) => (policy.Properties.Roles as { Ref?: string }[]).some((ref) => ref.Ref === roleId))
        .map((policy) => policy.Properties as { PolicyDocument: { Statement: PolicyStatement[] } });
      return [...inline, ...attached].flatMap((policy) => policy.PolicyDocument.Statement);
    },
  };
}

export function actionsOf(statement: PolicyStatement): string[] {
  return Array.isArray(statement.Action) ? statement.Action : [statement.Action];
}
