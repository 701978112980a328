import { describe, expect, it } from 'vitest';
import { powertoolsLayer } from '../../infra/constructs/bundling-options.js';
import { METRICS_SERVICE } from '../../infra/constructs/function-defaults.js';
import { METRICS_NAMESPACE } from '../../shared/observability/metric-names.js';
import { type RouteGroup, routeGroups } from '../../shared/http/routes.js';
import { actionsOf, synth } from './support.js';

const defaults = synth();
const SECRET = 'call-tracking/twilio-auth-token';
const configured = synth({ twilioAccountSid: 'AC00000000000000000000000000000000', twilioAuthTokenSecret: SECRET, emailFrom: 'calls@mail.example.org' });
const groups = Object.keys(routeGroups) as RouteGroup[];
const portsOf = (group: RouteGroup): readonly string[] => ('ports' in routeGroups[group] ? (routeGroups[group] as { ports: readonly string[] }).ports : []);
// transcription: the functions starting jobs copy carrier recordings to S3 with the carrier's credentials.
const isCarrierGroup = (group: RouteGroup) => portsOf(group).some((port) => ['numbers', 'telephony', 'carrier', 'transcription'].includes(port));

/** `arn:<partition>:<service>:<region>:<account>:<resource>` as CDK's formatArn writes it. */
const arn = (service: string, resource: string) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:${service}:`, { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:${resource}`]],
});

describe('table', () => {
  it('has deletion protection on, besides being retained with the stack', () => {
    const [table] = Object.values(defaults.resourcesOfType('AWS::DynamoDB::GlobalTable'));
    const replicas = table?.Properties.Replicas as { DeletionProtectionEnabled?: boolean }[];
    expect(replicas.length).toBeGreaterThan(0);
    for (const replica of replicas) expect(replica.DeletionProtectionEnabled).toBe(true);
  });
});

describe('e-mail', () => {
  it('may send only from the configured sender: its address identity or its domain identity', () => {
    const senders = Object.entries(configured.stack.functions).filter(([, fn]) => configured.statementsOf(fn).some((s) => actionsOf(s).includes('ses:SendEmail')));
    // The delivery function sends invitations and notices; no route group declares the e-mail port today.
    expect(senders.map(([name]) => name)).toEqual(expect.arrayContaining(['delivery']));
    for (const [, fn] of senders) {
      const statements = configured.statementsOf(fn).filter((s) => actionsOf(s).some((action) => action.startsWith('ses:')));
      expect(statements).toHaveLength(1);
      expect(actionsOf(statements[0]!)).toEqual(['ses:SendEmail']);
      expect(statements[0]!.Resource).toEqual([arn('ses', 'identity/calls@mail.example.org'), arn('ses', 'identity/mail.example.org')]);
    }
  });
});

describe('carrier secret', () => {
  it('is named in the carrier functions\' environment; the token is in no environment', () => {
    for (const [name, fn] of Object.entries(configured.stack.functions)) {
      const variables = configured.variablesOf(fn);
      expect(variables.TWILIO_AUTH_TOKEN, name).toBeUndefined();
      // The lead runner places the calls of dial actions.
      const carrier = name === 'leadRunner' || ((groups as string[]).includes(name) && isCarrierGroup(name as RouteGroup));
      expect(variables.TWILIO_AUTH_TOKEN_SECRET, name).toBe(carrier ? SECRET : undefined);
    }
    expect(JSON.stringify(configured.template.toJSON())).not.toMatch(/resolve:secretsmanager|TWILIO_AUTH_TOKEN"/);
  });

  it('may be read (GetSecretValue, nothing more) by the carrier functions only, on that secret only', () => {
    const secretArn = arn('secretsmanager', `secret:${SECRET}-??????`);
    for (const [name, fn] of Object.entries(configured.stack.functions)) {
      const statements = configured.statementsOf(fn).filter((s) => actionsOf(s).some((action) => action.startsWith('secretsmanager:')));
      const carrier = name === 'leadRunner' || ((groups as string[]).includes(name) && isCarrierGroup(name as RouteGroup));
      expect(statements.map((s) => [actionsOf(s), s.Resource]), name).toEqual(carrier ? [[['secretsmanager:GetSecretValue'], secretArn]] : []);
    }
    expect(groups.filter(isCarrierGroup).sort()).toEqual(['calls', 'configuration', 'contacts', 'numbers', 'schedules', 'voice']);
  });

  it('accepts the secret\'s complete ARN as is', () => {
    const complete = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:call-tracking/twilio-auth-token-AbCdEf';
    const byArn = synth({ twilioAuthTokenSecret: complete });
    const voice = byArn.stack.api.groupFunctions.voice;
    expect(byArn.variablesOf(voice).TWILIO_AUTH_TOKEN_SECRET).toBe(complete);
    expect(byArn.statementsOf(voice).find((s) => actionsOf(s).includes('secretsmanager:GetSecretValue'))?.Resource).toBe(complete);
  });

  it('is not granted at all when no secret is configured', () => {
    for (const fn of Object.values(defaults.stack.functions)) {
      expect(defaults.statementsOf(fn).flatMap(actionsOf).filter((action) => action.startsWith('secretsmanager:'))).toEqual([]);
    }
  });
});

describe('every function', () => {
  const functions = defaults.resourcesOfType('AWS::Lambda::Function');

  it('is traced by X-Ray and names the metrics service and namespace the dashboard reads', () => {
    // One per route group, the fallback, the stale-call sweeper, the delivery function, the outbox sweeper, the lead runner and the transcription settler.
    expect(Object.keys(functions)).toHaveLength(Object.keys(routeGroups).length + 6);
    for (const fn of Object.values(functions)) {
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
      expect((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({
        POWERTOOLS_SERVICE_NAME: METRICS_SERVICE,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      });
    }
    expect(METRICS_SERVICE).toBe('call-tracking');
  });

  it('sets no NODE_OPTIONS: source maps are read on the first stack trace, not by Node at cold start (source-mapped-stacks.ts)', () => {
    for (const fn of Object.values(functions)) {
      expect((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables).not.toHaveProperty('NODE_OPTIONS');
    }
  });

  it("loads the Powertools Tracer from Powertools' layer of the pinned release, its ARN read from Powertools' SSM parameter", () => {
    const parameter = `SsmParameterValue${powertoolsLayer.ssmParameter(powertoolsLayer.release).replace(/[^A-Za-z0-9]/g, '')}`;
    for (const fn of Object.values(functions)) {
      const layers = fn.Properties.Layers as { Ref: string }[];
      expect(layers).toHaveLength(1);
      expect(layers[0]!.Ref.startsWith(parameter), layers[0]!.Ref).toBe(true);
    }
  });

  it('has a wildcard resource only for X-Ray, whose actions take no resource', () => {
    for (const [name, fn] of Object.entries(configured.stack.functions)) {
      for (const statement of configured.statementsOf(fn)) {
        const resources = ([] as unknown[]).concat(statement.Resource);
        if (resources.includes('*')) expect(actionsOf(statement).sort(), name).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
      }
    }
  });
});

describe('scheduled jobs', () => {
  const queueArn = { 'Fn::GetAtt': [defaults.logicalIdOf(defaults.stack.scheduleDeadLetters), 'Arn'] };
  // The transcription settler runs on EventBridge events too (Transcribe's job state changes).
  const scheduled = [defaults.stack.staleCallSweeper.function, defaults.stack.delivery.sweeper, defaults.stack.transcription.function];

  it('send runs that failed Lambda\'s retries to the schedule dead-letter queue', () => {
    const functions = defaults.resourcesOfType('AWS::Lambda::Function');
    for (const fn of scheduled) {
      expect(functions[defaults.logicalIdOf(fn)]?.Properties.DeadLetterConfig).toEqual({ TargetArn: queueArn });
    }
  });

  it('send events EventBridge could not deliver there too', () => {
    // Contact import uploads' rule feeds the lead runner's queue: its undeliverable events go to the
    // runner's dead-letter queue instead (test/infra/contact-imports.test.ts).
    const rules = Object.entries(defaults.resourcesOfType('AWS::Events::Rule'))
      .filter(([id]) => id !== defaults.logicalIdOf(defaults.stack.leadRunner.importUploadsRule))
      .map(([, rule]) => rule);
    expect(rules).toHaveLength(3);
    for (const rule of rules) {
      const [target] = rule.Properties.Targets as { DeadLetterConfig?: unknown; RetryPolicy?: unknown }[];
      expect(target?.DeadLetterConfig).toEqual({ Arn: queueArn });
    }
  });

  it('keep that queue encrypted, TLS-only, for 14 days', () => {
    const queue = defaults.resourcesOfType('AWS::SQS::Queue')[defaults.logicalIdOf(defaults.stack.scheduleDeadLetters)];
    expect(queue?.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    const policies = Object.values(defaults.resourcesOfType('AWS::SQS::QueuePolicy')).filter((policy) =>
      JSON.stringify(policy.Properties.Queues).includes(defaults.logicalIdOf(defaults.stack.scheduleDeadLetters)),
    );
    expect(JSON.stringify(policies)).toContain('"aws:SecureTransport":"false"');
  });
});
