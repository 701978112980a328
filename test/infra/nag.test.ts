import { App, Stack, Validations } from 'aws-cdk-lib';
import { CfnRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import { NagPack } from 'cdk-nag';
import { describe, expect, it, vi } from 'vitest';
import { ROUTE_AUTHORIZATION_REASONS, applyNagChecks, nagPacks } from '../../infra/nag.js';
import { stackName } from '../../infra/settings.js';
import { CallTrackingStack } from '../../infra/stack.js';

type NagPackReport = ReturnType<NagPack['validateScope']>;

/** The stack as app.ts makes it: the packs registered on the app, run by synth. */
function checkedApp(context: Record<string, unknown>): { app: App; stack: CallTrackingStack } {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new CallTrackingStack(app, stackName('prod'), { stage: 'prod' });
  applyNagChecks(app);
  return { app, stack };
}

/**
 * The default app, built once: the synth test and the read-only acknowledgment test share it
 * (a stack of every route takes seconds to build on a loaded machine).
 */
let defaultApp: { app: App; stack: CallTrackingStack } | undefined;
const sharedDefaultApp = () => (defaultApp ??= checkedApp({}));

/**
 * Synthesizes the app, keeping what the packs app.ts registered reported while synth ran them
 * (each walks the whole tree: running them once more afterwards would double the cost). The
 * framework fails synth only on unacknowledged errors, so the reports are read for warnings too.
 */
function synthWithReports(app: App): { error: unknown; reports: NagPackReport[] } {
  const spy = vi.spyOn(NagPack.prototype, 'validateScope');
  try {
    app.synth();
    return { error: undefined, reports: spy.mock.results.map((result) => result.value as NagPackReport) };
  } catch (error) {
    return { error, reports: spy.mock.results.map((result) => result.value as NagPackReport) };
  } finally {
    spy.mockRestore();
  }
}

/** One app with two findings the packs must stop synth on: a queue in the stack, a route without authorizer in a nested stack. */
let defective: { error: unknown; reports: NagPackReport[] } | undefined;
function defectiveSynth(): { error: unknown; reports: NagPackReport[] } {
  if (defective) return defective;
  const { app, stack } = checkedApp({});
  // A queue without TLS enforcement and without a dead-letter queue.
  new sqs.Queue(stack, 'Unchecked', { encryption: sqs.QueueEncryption.SQS_MANAGED });
  const [routeStack] = Object.values(stack.api.routeStacks);
  new CfnRoute(routeStack!, 'Unchecked', { apiId: stack.api.httpApi.apiId, routeKey: 'GET /unchecked', authorizationType: 'NONE' });
  defective = synthWithReports(app);
  return defective;
}

/** Every acknowledgment in the tree: where, which rule, why. */
function acknowledgments(root: IConstruct): { path: string; id: string; reason: string }[] {
  return root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({ path: construct.node.path, id: id.replace(/^annotation::/i, ''), reason }))),
  );
}

describe('cdk-nag', () => {
  it.each([
    ['default settings', {}],
    ['every optional resource and grant', { alarmEmail: 'ops@example.com', twilioAccountSid: 'AC1', twilioAuthTokenSecret: 'call-tracking/twilio-auth-token', emailFrom: 'calls@example.org' }],
  ])(
    'finds no unacknowledged error or warning of AwsSolutions or Serverless (%s)',
    (name, context) => {
      const { app } = name === 'default settings' ? sharedDefaultApp() : checkedApp(context);
      // The plugins app.ts registers: a finding fails synth with a report.
      const { error, reports } = synthWithReports(app);
      expect(error).toBeUndefined();
      // Both packs ran over the app, and neither reported a finding left unacknowledged (warnings included).
      expect(reports.length).toBe(nagPacks().length);
      for (const report of reports) {
        expect(report.violations.map((violation) => `${violation.severity} ${violation.ruleName}: ${violation.violatingResources.map((resource) => resource.constructPath).join(', ')}`)).toEqual([]);
      }
    },
    // Every route of the table (its .json twins too) is checked by every pack, in the nested stacks too: a
    // minute on a loaded machine, the first (cold) run most.
    180_000,
  );

  // The two findings share one synth: each test asserts that the report names its own finding.
  it('stops the synth on a finding', () => {
    expect(defectiveSynth().error).toBeInstanceOf(Error);
    expect(String(defectiveSynth().error)).toMatch(/AwsSolutions-SQS4|Serverless-SQSRedrivePolicy/);
    // The reports kept from synth's run hold the findings (what the no-finding test reads is not empty by construction).
    const rules = defectiveSynth().reports.flatMap((report) => report.violations.map((violation) => violation.ruleName));
    expect(rules).toEqual(expect.arrayContaining(['AwsSolutions-APIG4']));
    expect(rules.some((rule) => /SQS4|SQSRedrivePolicy/.test(rule))).toBe(true);
  });

  it('checks the nested stacks of routes too: an unacknowledged route there stops the synth', () => {
    expect(defectiveSynth().error).toBeInstanceOf(Error);
    expect(String(defectiveSynth().error)).toMatch(/AwsSolutions-APIG4/);
  });

  it('acknowledges the missing authorizer on each route in its nested stack, by how the route is authorised', () => {
    const { app, stack } = sharedDefaultApp();
    const found = acknowledgments(app).filter(({ id }) => id === 'AwsSolutions-APIG4');
    expect(stack.api.routes.length).toBeGreaterThan(0);
    for (const { definition, route, stack: routeStack } of stack.api.routes) {
      expect(route.node.path.startsWith(`${routeStack.node.path}/`)).toBe(true);
      expect(found.filter(({ path }) => path === route.node.path).map(({ reason }) => reason)).toEqual([ROUTE_AUTHORIZATION_REASONS[definition.auth]]);
    }
  });

  it('acknowledges each kept finding with a reason, on the resource (never the whole stack or app)', () => {
    const { app, stack } = checkedApp({ alarmEmail: 'ops@example.com' });
    const found = acknowledgments(app);
    expect(found.length).toBeGreaterThan(100);
    for (const { path, id, reason } of found) {
      expect(id).toMatch(/^(AwsSolutions|Serverless)-[A-Za-z0-9]+(\[.+\])?$/);
      expect(reason.length, `${path} ${id}`).toBeGreaterThan(30);
      expect([app.node.path, stack.node.path]).not.toContain(path);
    }
    // The table's indexes, the schedules of the stack's own schedule group, the objects of its
    // uploads bucket, its sound files', admin exports' and contact imports' prefixes, and its transcription jobs and their transcripts
    // are the only wildcard resources acknowledged besides X-Ray's.
    const wildcards = new Set(
      found
        .filter(({ id }) => id.startsWith('AwsSolutions-IAM5'))
        .map(({ id }) => id.replace(/<LeadRunnerUploads\w*\.Arn>/, '<Uploads.Arn>').replace(/<Table\w+\.Arn>/, '<Table.Arn>').replace(/schedule\/[\w.-]+\/\*/, 'schedule/<group>/*').replace(/<TranscriptionTranscripts\w*\.Arn>/, '<Transcripts.Arn>')),
    );
    expect(wildcards).toEqual(
      new Set([
        'AwsSolutions-IAM5[Resource::*]',
        'AwsSolutions-IAM5[Resource::<Table.Arn>/index/*]',
        'AwsSolutions-IAM5[Resource::<Uploads.Arn>/*]',
        'AwsSolutions-IAM5[Resource::<Uploads.Arn>/sounds/*]',
        'AwsSolutions-IAM5[Resource::<Uploads.Arn>/exports/*]',
        'AwsSolutions-IAM5[Resource::<Uploads.Arn>/imports/*]',
        'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/<group>/*]',
        'AwsSolutions-IAM5[Resource::<Transcripts.Arn>/transcripts/*]',
        'AwsSolutions-IAM5[Resource::<Transcripts.Arn>/recordings/*]',
        'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:transcribe:<AWS::Region>:<AWS::AccountId>:transcription-job/calltracking-prod-*]',
      ]),
    );
    expect(Stack.of(stack).stackName).toBe('CallTrackingService-prod');
  });
});
