import { App, type CfnElement, type NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { CallTrackingStack, type CallTrackingStackProps } from '../../infra/stack.js';

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

/** A nested stack of API routes, as synthesized. */
export interface RouteStackTemplate {
  /** Its name in ServiceApi.routeStacks (`Subscriptions`, `Schedules2`...). */
  name: string;
  stack: NestedStack;
  template: Template;
  /** The logical id of its AWS::CloudFormation::Stack resource in the parent. */
  resourceId: string;
}

/** An API Gateway route wherever it is (the parent or a nested stack), its references resolved to the parent's logical ids. */
export interface SynthesizedRoute {
  key: string;
  /** The nested stack's name, or undefined for a route of the parent (`$default`). */
  routeStack?: string;
  /** The parent's logical ids of the API and the integration the route targets. */
  apiId?: string;
  integrationId?: string;
}

export interface Synthesized {
  app: App;
  stack: CallTrackingStack;
  template: Template;
  /** The nested stacks of API routes. */
  routeStacks: RouteStackTemplate[];
  /** Every AWS::ApiGatewayV2::Route, of the parent and of the nested stacks. */
  apiRoutes(): SynthesizedRoute[];
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
export function synth(context: Record<string, unknown> = {}, id = 'CallTrackingService-prod', props: CallTrackingStackProps = {}): Synthesized {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new CallTrackingStack(app, id, props);
  return inspect(app, stack);
}

/** `{ Ref: id }`'s id: a nested stack's parameter is followed to what the parent passes it. */
function refOf(value: unknown, parameters: Record<string, unknown>): string | undefined {
  const ref = (value as { Ref?: unknown } | undefined)?.Ref;
  if (typeof ref !== 'string') return undefined;
  return ref in parameters ? refOf(parameters[ref], {}) : ref;
}

export function inspect(app: App, stack: CallTrackingStack): Synthesized {
  const template = Template.fromStack(stack);
  const resourcesOfType = (type: string) => template.findResources(type) as Record<string, CfnResource>;
  const logicalIdOf = (construct: IConstruct) => Stack.of(construct).getLogicalId((construct.node.defaultChild ?? construct) as CfnElement);
  const routeStacks = Object.entries(stack.api.routeStacks).map(([name, nested]) => ({
    name,
    stack: nested,
    template: Template.fromStack(nested),
    resourceId: stack.getLogicalId(nested.nestedStackResource as CfnElement),
  }));
  const routesIn = (routeTemplate: Template, parameters: Record<string, unknown>, routeStack?: string): SynthesizedRoute[] =>
    Object.values(routeTemplate.findResources('AWS::ApiGatewayV2::Route') as Record<string, CfnResource>).map((route) => {
      // Target is `integrations/<Ref integration>`, emitted as an Fn::Join.
      const target = route.Properties.Target as { 'Fn::Join': [string, [string, unknown]] } | undefined;
      return {
        key: route.Properties.RouteKey as string,
        routeStack,
        apiId: refOf(route.Properties.ApiId, parameters),
        integrationId: target?.['Fn::Join'][1][0] === 'integrations/' ? refOf(target['Fn::Join'][1][1], parameters) : undefined,
      };
    });
  return {
    app,
    stack,
    template,
    routeStacks,
    apiRoutes: () => [
      ...routesIn(template, {}),
      ...routeStacks.flatMap(({ name, template: nested, resourceId }) =>
        routesIn(nested, (resourcesOfType('AWS::CloudFormation::Stack')[resourceId]?.Properties.Parameters ?? {}) as Record<string, unknown>, name),
      ),
    ],
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
