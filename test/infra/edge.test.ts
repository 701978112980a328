import { describe, expect, it } from 'vitest';
import { ACCESS_LOG_FIELDS } from '../../infra/constructs/access-log.js';
import { isPartnerRoute } from '../../shared/http/route-definition.js';
import { DEFAULTS } from '../../infra/settings.js';
import { routeKey, routes } from '../../shared/http/routes.js';
import { type CfnResource, synth } from './support.js';

const defaults = synth();
const stageOf = (synthesized: ReturnType<typeof synth>): CfnResource => {
  const stages = Object.values(synthesized.resourcesOfType('AWS::ApiGatewayV2::Stage'));
  expect(stages).toHaveLength(1);
  return stages[0]!;
};

describe('HTTP API throttling', () => {
  it('throttles the $default stage (every route) at the default rate and burst', () => {
    const stage = stageOf(defaults);
    expect(stage.Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: DEFAULTS.apiRateLimit, ThrottlingBurstLimit: DEFAULTS.apiBurstLimit },
    });
  });

  it('throttles each public ping, post, full and number lookup route tighter, and no other route', () => {
    const partnerKeys = routes.filter(isPartnerRoute).map(routeKey);
    // POST, GET and the preflight, of ping, post and full (both in one request); GET and the preflight of the number lookup.
    expect(partnerKeys).toEqual(
      expect.arrayContaining(['POST /api/v1/inbound_webhooks/ping/{vanity_uri}', 'POST /api/v1/inbound_webhooks/post/{vanity_uri}', 'POST /api/v1/inbound_webhooks/full/{vanity_uri}', 'GET /api/v1/numbers.json']),
    );
    expect(partnerKeys).toHaveLength(11);
    const settings = stageOf(defaults).Properties.RouteSettings as Record<string, unknown>;
    expect(Object.keys(settings).sort()).toEqual([...partnerKeys].sort());
    for (const key of partnerKeys) {
      expect(settings[key]).toEqual({ ThrottlingRateLimit: DEFAULTS.partnerRateLimit, ThrottlingBurstLimit: DEFAULTS.partnerBurstLimit });
    }
  });

  it('creates the partner routes (their nested stack) before the stage that names them', () => {
    const stage = stageOf(defaults);
    const partnerKeys = routes.filter(isPartnerRoute).map(routeKey);
    const holding = defaults.apiRoutes().filter((route) => partnerKeys.includes(route.key));
    expect(holding).toHaveLength(11);
    const stackIds = [...new Set(holding.map((route) => defaults.routeStacks.find(({ name }) => name === route.routeStack)?.resourceId))];
    expect(stackIds).toEqual(expect.arrayContaining([expect.stringMatching(/^ApiRoutesInbound/), expect.stringMatching(/^ApiRoutesNumbers/)]));
    expect(stackIds).toHaveLength(2);
    expect(stage.DependsOn).toEqual(expect.arrayContaining(stackIds));
  });

  it('takes the limits from the settings', () => {
    const stage = stageOf(synth({ apiRateLimit: 1000, apiBurstLimit: 2000, partnerRateLimit: 25, partnerBurstLimit: 30 }));
    expect(stage.Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 });
    expect(Object.values(stage.Properties.RouteSettings as object)).toEqual(Array(11).fill({ ThrottlingRateLimit: 25, ThrottlingBurstLimit: 30 }));
  });

  it('reserves concurrency for the voice function only', () => {
    const functions = defaults.resourcesOfType('AWS::Lambda::Function');
    const voiceId = defaults.logicalIdOf(defaults.stack.api.groupFunctions.voice);
    for (const [id, fn] of Object.entries(functions)) {
      expect(fn.Properties.ReservedConcurrentExecutions, id).toBe(id === voiceId ? DEFAULTS.voiceReservedConcurrency : undefined);
    }
    const none = synth({ voiceReservedConcurrency: 'none' });
    const voice = none.resourcesOfType('AWS::Lambda::Function')[none.logicalIdOf(none.stack.api.groupFunctions.voice)];
    expect(voice?.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });
});

describe('access logs', () => {
  const stage = stageOf(defaults);
  const settings = stage.Properties.AccessLogSettings as { DestinationArn: unknown; Format: string };

  it('go as JSON to their own log group, kept for the retention setting', () => {
    const logGroupId = defaults.logicalIdOf(defaults.stack.api.accessLogs);
    expect(settings.DestinationArn).toEqual({ 'Fn::GetAtt': [logGroupId, 'Arn'] });
    expect(defaults.resourcesOfType('AWS::Logs::LogGroup')[logGroupId]?.Properties.RetentionInDays).toBe(30);
    expect(JSON.parse(settings.Format)).toEqual(ACCESS_LOG_FIELDS);
  });

  it('have the request id, route key, status, latencies and integration error', () => {
    expect(JSON.parse(settings.Format)).toMatchObject({
      requestId: '$context.requestId',
      routeKey: '$context.routeKey',
      status: '$context.status',
      responseLatency: '$context.responseLatency',
      integrationLatency: '$context.integrationLatency',
      integrationErrorMessage: '$context.integrationErrorMessage',
    });
  });

  it('never log the path (it carries secure tokens) or anything with the query string', () => {
    const variables = settings.Format.match(/\$context\.[\w.]+/g) ?? [];
    expect(variables.length).toBeGreaterThan(5);
    for (const variable of variables) {
      expect(variable).not.toMatch(/^\$context\.(path|resourcePath|requestOverride|responseOverride)\b/);
      expect(variable.toLowerCase()).not.toMatch(/query|querystring|url/);
    }
    expect(settings.Format).not.toMatch(/\$(input|method)\./);
  });
});

describe('log retention', () => {
  it('keeps every log group (functions and access logs) for the setting, 30 days by default', () => {
    const groups = Object.values(defaults.resourcesOfType('AWS::Logs::LogGroup'));
    // One per function plus the access logs.
    expect(groups).toHaveLength(Object.keys(defaults.stack.functions).length + 1);
    for (const group of groups) expect(group.Properties.RetentionInDays).toBe(30);
    const configured = Object.values(synth({ logRetentionDays: 90 }).resourcesOfType('AWS::Logs::LogGroup'));
    for (const group of configured) expect(group.Properties.RetentionInDays).toBe(90);
  });

  it('gives every function its own log group', () => {
    const functions = defaults.resourcesOfType('AWS::Lambda::Function');
    const logGroups = Object.values(functions).map((fn) => (fn.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref);
    expect(new Set(logGroups).size).toBe(Object.keys(functions).length);
  });
});

describe('invoke permissions', () => {
  const permissions = Object.values(defaults.resourcesOfType('AWS::Lambda::Permission'));
  const fromApi = permissions.filter((permission) => permission.Properties.Principal === 'apigateway.amazonaws.com');
  const apiFunctions = [...Object.values(defaults.stack.api.groupFunctions), defaults.stack.api.fallbackFunction];

  it('has exactly one API Gateway permission per function behind the API, not one per route', () => {
    expect(routes.length).toBeGreaterThan(100);
    expect(fromApi).toHaveLength(apiFunctions.length);
    const targets = fromApi.map((permission) => (permission.Properties.FunctionName as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0]);
    expect(new Set(targets)).toEqual(new Set(apiFunctions.map((fn) => defaults.logicalIdOf(fn))));
  });

  it('scopes each to this API, any stage and route', () => {
    const apiId = defaults.logicalIdOf(defaults.stack.api.httpApi);
    for (const permission of fromApi) {
      expect(permission.Properties.Action).toBe('lambda:InvokeFunction');
      expect(permission.Properties.SourceArn).toEqual({
        'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':execute-api:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':', { Ref: apiId }, '/*/*']],
      });
    }
  });

  it("has no other permissions than those, the two schedules' and the transcription results rule's", () => {
    const others = permissions.filter((permission) => permission.Properties.Principal !== 'apigateway.amazonaws.com');
    expect(others.map((permission) => permission.Properties.Principal)).toEqual(['events.amazonaws.com', 'events.amazonaws.com', 'events.amazonaws.com']);
  });
});
