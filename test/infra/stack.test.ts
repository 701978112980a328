import { Match } from 'aws-cdk-lib/assertions';
import { type IFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { lambdaBundling } from '../../infra/constructs/bundling-options.js';
import { type Template } from 'aws-cdk-lib/assertions';
import { TEMPLATE_RESOURCE_BUDGET, pascal } from '../../infra/constructs/route-stacks.js';
import { synth, type CfnResource } from './support.js';
import { SWEEPER_TABLE_ACTIONS } from '../../infra/constructs/stale-call-sweeper.js';
import { DELIVERY_TABLE_ACTIONS, OUTBOX_SWEEPER_TABLE_ACTIONS } from '../../infra/constructs/event-delivery.js';
import { SWEEP_INTERVAL_MINUTES } from '../../shared/calls/stale-calls.js';
import { projectionOf, tableDesign } from '../../shared/db/table-design.js';
import { type RouteDefinition, type RouteGroup, routeGroups, routeKey, routes } from '../../shared/http/routes.js';

// The stack as the other infra tests synthesize it (test/infra/support.ts), without bundling.
const synthesized = synth({}, 'CallTrackingService');
const { stack, template, resourcesOfType, logicalIdOf, statementsOf } = synthesized;

const groups = Object.keys(routeGroups) as RouteGroup[];

const apiRoutes = synthesized.apiRoutes();
const integrations = resourcesOfType('AWS::ApiGatewayV2::Integration');

/** The logical id of the Lambda function a route's integration invokes. */
function functionBehindRoute(key: string): string | undefined {
  const integrationId = apiRoutes.find((candidate) => candidate.key === key)?.integrationId;
  const integration = integrationId ? integrations[integrationId] : undefined;
  const uri = integration?.Properties.IntegrationUri as { 'Fn::GetAtt': [string, string] } | undefined;
  return uri?.['Fn::GetAtt'][0];
}

const resourceCount = (routeTemplate: Template) => Object.keys(routeTemplate.toJSON().Resources as object).length;

function actionsOf(fn: IFunction): string[] {
  return statementsOf(fn).flatMap((statement) =>
    Array.isArray(statement.Action) ? statement.Action : [statement.Action],
  );
}

describe('API routes', () => {
  it.each(routes.map((route) => [routeKey(route), route.group] as const))(
    'has a route for %s served by the %s function',
    (key, group) => {
      expect(apiRoutes.map((route) => route.key)).toContain(key);
      expect(functionBehindRoute(key)).toBe(logicalIdOf(stack.api.groupFunctions[group]));
    },
  );

  it('has exactly one route per route-table entry, plus $default', () => {
    const keys = apiRoutes.map((route) => route.key);
    expect(keys.filter((key) => key !== '$default')).toHaveLength(routes.length);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('sends unmatched requests ($default) to the fallback function', () => {
    expect(apiRoutes.filter((route) => route.key === '$default')).toHaveLength(1);
    expect(functionBehindRoute('$default')).toBe(logicalIdOf(stack.api.fallbackFunction));
  });

  it("puts each group's routes in a nested stack of its own, on the parent's API and the group's integration there", () => {
    const apiId = logicalIdOf(stack.api.httpApi);
    expect(apiRoutes.find((route) => route.key === '$default')).toMatchObject({ routeStack: undefined, apiId });
    for (const route of apiRoutes.filter(({ key }) => key !== '$default')) {
      const definition = routes.find((candidate) => routeKey(candidate) === route.key)!;
      expect(route.routeStack, route.key).toBe(pascal(definition.group));
      // Resolved through the nested stack's parameters to the parent's resources.
      expect(route.apiId, route.key).toBe(apiId);
      expect(route.integrationId, route.key).toBe(logicalIdOf(stack.api.integrations[definition.group]));
    }
    expect(synthesized.routeStacks.map(({ name }) => name).sort()).toEqual([...new Set(routes.map((route) => pascal(route.group)))].sort());
  });

  it('keeps one integration per function and one invoke permission per API function, for the whole API', () => {
    expect(Object.keys(integrations)).toHaveLength(groups.length + 1);
    // The nested stacks hold routes only: no integration, no permission of their own.
    for (const routeStack of synthesized.routeStacks) {
      expect(new Set(Object.values(routeStack.template.toJSON().Resources as Record<string, CfnResource>).map((resource) => resource.Type))).toEqual(new Set(['AWS::ApiGatewayV2::Route']));
    }
    const apiPermissions = Object.values(resourcesOfType('AWS::Lambda::Permission')).filter((permission) => permission.Properties.Principal === 'apigateway.amazonaws.com');
    expect(apiPermissions).toHaveLength(groups.length + 1);
  });

  it('keeps the parent and every nested stack under the resource budget with the real route table', () => {
    expect(resourceCount(template)).toBeLessThanOrEqual(TEMPLATE_RESOURCE_BUDGET);
    for (const routeStack of synthesized.routeStacks) expect(resourceCount(routeStack.template), routeStack.name).toBeLessThanOrEqual(TEMPLATE_RESOURCE_BUDGET);
  });

  it('outputs the API URL and table name', () => {
    template.hasOutput('ApiUrl', {});
    template.hasOutput('TableName', {});
  });
});

describe('a route table grown by 500 routes (700 today)', () => {
  // A new group's worth of routes and more: the group outgrows one nested stack and is split.
  const padding: RouteDefinition[] = Array.from({ length: 500 }, (_, index) => ({
    method: 'GET',
    path: `/api/v1/padding_${index}`,
    group: 'configuration',
    auth: 'basic',
    operation: `padding_${index}.list`,
    permission: 'company',
  }));
  const padded = [...routes, ...padding];
  const grown = synth({}, 'CallTrackingService', { routes: padded });
  const grownRoutes = grown.apiRoutes();

  it('serves every route once, on its group\'s integration', () => {
    expect(padded.length).toBeGreaterThanOrEqual(700);
    expect(grownRoutes).toHaveLength(padded.length + 1);
    expect(new Set(grownRoutes.map((route) => route.key)).size).toBe(grownRoutes.length);
    for (const route of padded) {
      const found = grownRoutes.find((candidate) => candidate.key === routeKey(route));
      expect(found?.integrationId, routeKey(route)).toBe(grown.logicalIdOf(grown.stack.api.integrations[route.group]));
    }
    expect(grown.routeStacks.map(({ name }) => name)).toEqual(expect.arrayContaining(['Configuration', 'Configuration2']));
  });

  it('keeps the parent and every nested stack under the resource budget, and within CloudFormation\'s other template limits', () => {
    const templates = [{ name: 'parent', template: grown.template }, ...grown.routeStacks];
    for (const { name, template: grownTemplate } of templates) {
      const json = grownTemplate.toJSON() as { Parameters?: object; Outputs?: object };
      expect(resourceCount(grownTemplate), name).toBeLessThanOrEqual(TEMPLATE_RESOURCE_BUDGET);
      expect(Object.keys(json.Parameters ?? {}).length, name).toBeLessThanOrEqual(200);
      expect(Object.keys(json.Outputs ?? {}).length, name).toBeLessThanOrEqual(200);
      // A template deployed from S3 may be 1 MB.
      expect(JSON.stringify(json).length, name).toBeLessThan(1_000_000);
    }
    // The parent grows by a nested stack per 300 routes of a group, not by a resource per route.
    expect(resourceCount(grown.template) - resourceCount(template)).toBe(grown.routeStacks.length - synthesized.routeStacks.length);
  });
});

describe('apiRoutes=none (the first deploy of a move of the routes between stacks)', () => {
  const bare = synth({ apiRoutes: 'none' }, 'CallTrackingService');

  it('leaves only $default, no nested stack and no route settings, and keeps the integrations', () => {
    expect(bare.apiRoutes().map((route) => route.key)).toEqual(['$default']);
    expect(bare.routeStacks).toEqual([]);
    bare.template.resourceCountIs('AWS::CloudFormation::Stack', 0);
    const [stage] = Object.values(bare.resourcesOfType('AWS::ApiGatewayV2::Stage'));
    expect(stage?.Properties.RouteSettings).toBeUndefined();
    expect(stage?.DependsOn).toBeUndefined();
    expect(Object.keys(bare.resourcesOfType('AWS::ApiGatewayV2::Integration')).sort()).toEqual(Object.keys(integrations).sort());
  });
});

describe('table', () => {
  const key = (partition: string, sort: string) => [
    { AttributeName: partition, KeyType: 'HASH' },
    { AttributeName: sort, KeyType: 'RANGE' },
  ];

  it('is one on-demand table built from the shared design, retained on stack deletion', () => {
    // TableV2 synthesizes to AWS::DynamoDB::GlobalTable.
    template.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    template.resourceCountIs('AWS::DynamoDB::Table', 0);
    template.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: key(tableDesign.partitionKey, tableDesign.sortKey),
      TimeToLiveSpecification: { AttributeName: tableDesign.ttlAttribute, Enabled: true },
    });
  });

  it('has point-in-time recovery on every replica', () => {
    const [table] = Object.values(resourcesOfType('AWS::DynamoDB::GlobalTable'));
    const replicas = table?.Properties.Replicas as { PointInTimeRecoverySpecification?: unknown }[];
    expect(replicas.length).toBeGreaterThan(0);
    for (const replica of replicas) {
      expect(replica.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    }
  });

  it('has exactly the designed GSIs, all keys strings, each with its designed projection', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      GlobalSecondaryIndexes: tableDesign.globalIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: key(index.partitionKey, index.sortKey),
        Projection: projectionOf(index),
      })),
      AttributeDefinitions: Match.arrayEquals(
        [
          tableDesign.partitionKey,
          tableDesign.sortKey,
          ...tableDesign.globalIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
        ].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      ),
    });
  });
});

describe('functions', () => {
  const functions = resourcesOfType('AWS::Lambda::Function');

  it('has one function per route group plus the fallback, the stale-call sweeper, the delivery function, the outbox sweeper, the lead runner and the transcription settler, all on the newest Node.js Lambda offers (the bundles\' esbuild target), arm64', () => {
    expect(Object.keys(functions)).toHaveLength(groups.length + 6);
    const newestNode = Runtime.ALL.map((runtime) => /^nodejs(\d+)\.x$/.exec(runtime.name)?.[1])
      .filter((major): major is string => major !== undefined)
      .map(Number)
      .sort((a, b) => b - a)[0];
    expect(lambdaBundling.target).toBe(`node${newestNode}`);
    for (const fn of Object.values(functions)) {
      expect(fn.Properties.Runtime).toBe(`nodejs${newestNode}.x`);
      expect(fn.Properties.Architectures).toEqual(['arm64']);
    }
  });

  it("takes only the AWS SDK v3 (and its Smithy runtime) from the Lambda runtime, which ships it since nodejs18.x, and the Powertools Tracer from Powertools' layer (issue 32); everything else is bundled", () => {
    expect([...lambdaBundling.externalModules].sort()).toEqual(['@aws-lambda-powertools/tracer', '@aws-sdk/*', '@smithy/*']);
    for (const fn of Object.values(functions)) {
      expect(Number(/^nodejs(\d+)\.x$/.exec(fn.Properties.Runtime as string)?.[1])).toBeGreaterThanOrEqual(18);
    }
  });

  it.each(groups)('gives the %s function the table name', (group) => {
    const fn = functions[logicalIdOf(stack.api.groupFunctions[group])];
    const variables = (fn?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables.TABLE_NAME).toEqual({ Ref: logicalIdOf(stack.table) });
  });

  it.each(groups)('allows the %s function exactly its declared table actions', (group) => {
    const actions = actionsOf(stack.api.groupFunctions[group]).filter((action) => action.startsWith('dynamodb:'));
    expect(new Set(actions)).toEqual(new Set(routeGroups[group].tableActions));
  });

  it.each(groups.filter((group) => routeGroups[group].tableActions.length))('scopes the %s function\'s table actions to the table and its indexes', (group) => {
    const tableArn = { 'Fn::GetAtt': [logicalIdOf(stack.table), 'Arn'] };
    const statements = statementsOf(stack.api.groupFunctions[group]).filter((statement) =>
      ([] as string[]).concat(statement.Action as string | string[]).some((action) => action.startsWith('dynamodb:')),
    );
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      expect(statement.Effect).toBe('Allow');
      expect(statement.Resource).toEqual([tableArn, { 'Fn::Join': ['', [tableArn, '/index/*']] }]);
    }
  });

  it.each(groups)('wires the e-mail port of %s only when the group declares it', (group) => {
    const declared: readonly string[] = 'ports' in routeGroups[group] ? (routeGroups[group] as { ports: readonly string[] }).ports : [];
    const fn = functions[logicalIdOf(stack.api.groupFunctions[group])];
    const variables = (fn?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    const actions = actionsOf(stack.api.groupFunctions[group]);
    if (declared.includes('email')) {
      expect(variables).toMatchObject({ EMAIL_ADAPTER: 'ses', EMAIL_FROM: 'noreply@example.com' });
      expect(actions).toContain('ses:SendEmail');
    } else {
      expect(variables.EMAIL_ADAPTER).toBeUndefined();
      expect(actions).not.toContain('ses:SendEmail');
    }
  });

  it.each(groups)('wires the number provider port of %s only when the group declares it', (group) => {
    const declared: readonly string[] = 'ports' in routeGroups[group] ? (routeGroups[group] as { ports: readonly string[] }).ports : [];
    const fn = functions[logicalIdOf(stack.api.groupFunctions[group])];
    const variables = (fn?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    if (declared.includes('numbers')) {
      expect(variables.NUMBER_PROVIDER).toBe('twilio');
    } else {
      expect(variables.NUMBER_PROVIDER).toBeUndefined();
    }
    // Without context no carrier credentials are set (nor placeholders that look like them).
    expect(variables.TWILIO_ACCOUNT_SID).toBeUndefined();
    expect(variables.TWILIO_AUTH_TOKEN).toBeUndefined();
  });

  it('gives the carrier functions the account from context and the auth token\'s secret name, never the token', () => {
    const configured = synth(
      { twilioAccountSid: 'AC00000000000000000000000000000000', twilioAuthTokenSecret: 'call-tracking/twilio-auth-token', twilioApiBase: 'https://carrier.example.test' },
      'CallTrackingService',
    );
    const variablesOf = (group: RouteGroup) => configured.variablesOf(configured.stack.api.groupFunctions[group]);
    expect(variablesOf('numbers')).toMatchObject({
      NUMBER_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC00000000000000000000000000000000',
      TWILIO_AUTH_TOKEN_SECRET: 'call-tracking/twilio-auth-token',
      TWILIO_API_BASE: 'https://carrier.example.test',
    });
    // transcription: starting a job copies a carrier recording to S3 with the carrier's credentials.
    const carrierPorts = ['numbers', 'telephony', 'carrier', 'transcription'];
    for (const group of groups) {
      const declared: readonly string[] = 'ports' in routeGroups[group] ? (routeGroups[group] as { ports: readonly string[] }).ports : [];
      expect(variablesOf(group).TWILIO_AUTH_TOKEN, group).toBeUndefined();
      if (declared.some((port) => carrierPorts.includes(port))) {
        expect(variablesOf(group).TWILIO_AUTH_TOKEN_SECRET, group).toBe('call-tracking/twilio-auth-token');
      } else {
        expect(variablesOf(group).TWILIO_AUTH_TOKEN_SECRET, group).toBeUndefined();
      }
    }
    expect(variablesOf('configuration')).toMatchObject({ TWILIO_ACCOUNT_SID: 'AC00000000000000000000000000000000', TWILIO_API_BASE: 'https://carrier.example.test' });
    // Nowhere in the template: no dynamic reference resolved into an environment at deploy time.
    expect(JSON.stringify(configured.template.toJSON())).not.toContain('resolve:secretsmanager');
  });

  it.each(groups)('wires the events port of %s to the queue only when the group declares it', (group) => {
    const declared: readonly string[] = 'ports' in routeGroups[group] ? (routeGroups[group] as { ports: readonly string[] }).ports : [];
    const fn = functions[logicalIdOf(stack.api.groupFunctions[group])];
    const variables = (fn?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    const actions = actionsOf(stack.api.groupFunctions[group]);
    if (declared.includes('events')) {
      expect(variables.EVENTS_ADAPTER).toBe('sqs');
      expect(variables.EVENTS_QUEUE_URL).toEqual({ Ref: logicalIdOf(stack.events.queue) });
      expect(actions).toContain('sqs:SendMessage');
    } else {
      expect(variables.EVENTS_ADAPTER).toBeUndefined();
      expect(actions).not.toContain('sqs:SendMessage');
    }
  });

  it('has an encrypted events queue whose messages go to a dead-letter queue after the last attempt of the retry schedule', () => {
    const queues = resourcesOfType('AWS::SQS::Queue');
    const queue = queues[logicalIdOf(stack.events.queue)];
    // One receive per attempt: the default schedule makes 8 attempts.
    expect(queue?.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [logicalIdOf(stack.events.deadLetters), 'Arn'] },
      maxReceiveCount: 8,
    });
    expect(queue?.Properties.SqsManagedSseEnabled).toBe(true);
    // Kept past the whole schedule (27.6 hours), and invisible for six times the delivery function's timeout.
    expect(queue?.Properties.MessageRetentionPeriod).toBe(4 * 24 * 3600);
    expect(queue?.Properties.VisibilityTimeout).toBe(180);
    expect(queues[logicalIdOf(stack.events.deadLetters)]?.Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
  });

  it('follows a retry schedule from context, refusing a malformed one at synth', () => {
    const configured = synth({ webhookRetrySchedule: '1m,1h', webhookAllowedCidrs: '203.0.113.0/24' }, 'CallTrackingService');
    const queue = configured.resourcesOfType('AWS::SQS::Queue')[configured.logicalIdOf(configured.stack.events.queue)];
    expect((queue?.Properties.RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount).toBe(3);
    expect(configured.variablesOf(configured.stack.delivery.function)).toMatchObject({ WEBHOOK_RETRY_SCHEDULE: '1m,1h', WEBHOOK_ALLOWED_CIDRS: '203.0.113.0/24' });
    // The functions that check bidders' and webhooks' URLs or ask bidders (docs/rtb.md) read the same allowance.
    for (const group of ['voice', 'inbound', 'buyers', 'subscriptions'] as const) {
      expect(configured.variablesOf(configured.stack.api.groupFunctions[group]), group).toMatchObject({ WEBHOOK_ALLOWED_CIDRS: '203.0.113.0/24' });
      expect(synthesized.variablesOf(stack.api.groupFunctions[group]).WEBHOOK_ALLOWED_CIDRS, group).toBeUndefined();
    }
    expect(() => synth({ webhookRetrySchedule: '1 day' }, 'Broken')).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });

  it('gives the fallback function no table access', () => {
    const actions = actionsOf(stack.api.fallbackFunction);
    expect(actions.filter((action) => action.startsWith('dynamodb:'))).toEqual([]);
  });

  it("lets the fallback forward a loosely written path (a trailing slash) to each group's function, and only those", () => {
    const variables = synthesized.variablesOf(stack.api.fallbackFunction);
    const parts = (variables.ROUTE_FUNCTIONS as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
    // `{"subscriptions":"<name>","offers":"<name>",...}` with each name a Ref of the group's function.
    for (const group of groups) {
      const at = parts.findIndex((part) => typeof part === 'string' && part.endsWith(`"${group}":"`));
      expect(parts[at + 1], group).toEqual({ Ref: logicalIdOf(stack.api.groupFunctions[group]) });
    }
    const invokes = statementsOf(stack.api.fallbackFunction).filter((statement) => [statement.Action].flat().includes('lambda:InvokeFunction'));
    expect(invokes).toHaveLength(1);
    expect([invokes[0]!.Resource].flat()).toEqual(groups.map((group) => ({ 'Fn::GetAtt': [logicalIdOf(stack.api.groupFunctions[group]), 'Arn'] })));
    // It outlasts the function it waits for.
    const timeoutOf = (fn: IFunction) => resourcesOfType('AWS::Lambda::Function')[logicalIdOf(fn)]?.Properties.Timeout as number;
    for (const group of groups) expect(timeoutOf(stack.api.fallbackFunction)).toBeGreaterThan(timeoutOf(stack.api.groupFunctions[group]));
  });
});

describe('stale-call sweeper', () => {
  const sweeper = stack.staleCallSweeper.function;
  const sweeperId = logicalIdOf(sweeper);
  const fn = resourcesOfType('AWS::Lambda::Function')[sweeperId];

  it('is a function of its own, behind no route, with the table and the events queue', () => {
    expect(fn?.Properties.Handler).toBe('index.handler');
    expect(fn?.Properties.Timeout).toBe(120);
    const variables = (fn?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables).toMatchObject({ TABLE_NAME: { Ref: logicalIdOf(stack.table) }, EVENTS_ADAPTER: 'sqs', EVENTS_QUEUE_URL: { Ref: logicalIdOf(stack.events.queue) } });
    expect(routes.map((route) => functionBehindRoute(routeKey(route)))).not.toContain(sweeperId);
  });

  it('runs every 5 minutes from an EventBridge rule', () => {
    expect(SWEEP_INTERVAL_MINUTES).toBe(5);
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      State: 'ENABLED',
      Targets: Match.arrayWith([Match.objectLike({ Arn: { 'Fn::GetAtt': [sweeperId, 'Arn'] } })]),
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [sweeperId, 'Arn'] },
      SourceArn: { 'Fn::GetAtt': [logicalIdOf(stack.staleCallSweeper.rule), 'Arn'] },
    });
  });

  it('may only read, query, update and put on the table and its indexes, and send events', () => {
    const actions = actionsOf(sweeper);
    expect(new Set(actions.filter((action) => action.startsWith('dynamodb:')))).toEqual(new Set(SWEEPER_TABLE_ACTIONS));
    expect(actions).not.toContain('dynamodb:Scan');
    expect(actions).not.toContain('dynamodb:DeleteItem');
    expect(actions).toContain('sqs:SendMessage');
    const tableArn = { 'Fn::GetAtt': [logicalIdOf(stack.table), 'Arn'] };
    for (const statement of statementsOf(sweeper).filter((s) => ([] as string[]).concat(s.Action).some((a) => a.startsWith('dynamodb:')))) {
      expect(statement.Resource).toEqual([tableArn, { 'Fn::Join': ['', [tableArn, '/index/*']] }]);
    }
  });
});

describe('event delivery', () => {
  const delivery = stack.delivery.function;
  const deliveryId = logicalIdOf(delivery);
  const functions = resourcesOfType('AWS::Lambda::Function');
  const tableArn = { 'Fn::GetAtt': [logicalIdOf(stack.table), 'Arn'] };

  it('reads the events queue in batches of ten with partial batch responses', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: deliveryId },
      EventSourceArn: { 'Fn::GetAtt': [logicalIdOf(stack.events.queue), 'Arn'] },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(functions[deliveryId]?.Properties.Timeout).toBe(30);
    expect(routes.map((route) => functionBehindRoute(routeKey(route)))).not.toContain(deliveryId);
  });

  it('may consume and send on the queue, send e-mail, and read and write only what delivering needs', () => {
    const actions = actionsOf(delivery);
    expect(actions).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility', 'sqs:SendMessage', 'ses:SendEmail']));
    expect(new Set(actions.filter((action) => action.startsWith('dynamodb:')))).toEqual(new Set(DELIVERY_TABLE_ACTIONS));
    for (const statement of statementsOf(delivery).filter((s) => ([] as string[]).concat(s.Action).some((a) => a.startsWith('dynamodb:')))) {
      expect(statement.Resource).toEqual([tableArn, { 'Fn::Join': ['', [tableArn, '/index/*']] }]);
    }
    const variables = (functions[deliveryId]?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables).toMatchObject({ EVENTS_ADAPTER: 'sqs', EVENTS_QUEUE_URL: { Ref: logicalIdOf(stack.events.queue) }, EMAIL_ADAPTER: 'ses' });
    // No allowance without context: the SSRF guard refuses every private range.
    expect(variables.WEBHOOK_ALLOWED_CIDRS).toBeUndefined();
  });

  it('alarms when the dead-letter queue holds anything', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalIdOf(stack.events.deadLetters), 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    template.hasOutput('EventsDeadLetterQueueArn', { Value: { 'Fn::GetAtt': [logicalIdOf(stack.events.deadLetters), 'Arn'] } });
  });

  it('runs the outbox sweeper every minute, with only the table actions it needs', () => {
    const sweeperId = logicalIdOf(stack.delivery.sweeper);
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: Match.arrayWith([Match.objectLike({ Arn: { 'Fn::GetAtt': [sweeperId, 'Arn'] } })]),
    });
    const actions = actionsOf(stack.delivery.sweeper);
    expect(new Set(actions.filter((action) => action.startsWith('dynamodb:')))).toEqual(new Set(OUTBOX_SWEEPER_TABLE_ACTIONS));
    expect(actions).toContain('sqs:SendMessage');
    expect(actions).not.toContain('sqs:ReceiveMessage');
  });
});
