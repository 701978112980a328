import { Duration, NestedStack, Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  CfnRoute,
  type CfnStage,
  HttpApi,
  HttpIntegration,
  HttpIntegrationType,
  HttpMethod,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
  PayloadFormatVersion,
  type ThrottleSettings,
} from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { docsAfterBundlingCommands } from '../../functions/docs/shipped-files.js';
import { type RouteDefinition, type RouteGroup, routeGroups, routeKey, routes } from '../../shared/http/routes.js';
import { isPartnerRoute } from '../../shared/http/route-definition.js';
import { ACCESS_LOG_FIELDS } from './access-log.js';
import { createServiceFunction } from './function-defaults.js';
import { allowReadingSecret, allowSendingEmail } from './grants.js';
import { LambdaProxyIntegration, allowApiToInvoke } from './lambda-proxy-integration.js';
import { assignRouteStacks, pascal } from './route-stacks.js';

export interface ServiceApiProps {
  table: ITableV2;
  /**
   * The private ranges outgoing requests may reach (docs/events.md): read by every function that
   * checks or calls a customer's URL, which besides the delivery function are the route groups
   * that validate webhook and bidder URLs and ask bidders for bids (docs/rtb.md). Unset: none.
   */
  webhookAllowedCidrs?: string;
  /** Sender address for SES (a verified identity in the account, or an address of a verified domain). */
  emailFrom: string;
  /**
   * The Twilio-compatible carrier of the number provider port. Unset values are left out of the
   * environment, and the provider then refuses to start with a message naming the settings.
   * `authTokenSecret` is the Secrets Manager secret (name or ARN) the functions read the token
   * from at run time: the token itself is never in the template or an environment.
   */
  twilio?: { accountSid?: string; authTokenSecret?: string; apiBase?: string };
  /** The queue the events port publishes to. */
  eventsQueue: IQueue;
  /** Retention of the functions' log groups and of the access logs. */
  logRetention: logs.RetentionDays;
  /** The default stage's throttling, for every route. */
  throttle: Required<ThrottleSettings>;
  /** Each public ping/post route's own, tighter throttling. */
  partnerThrottle: Required<ThrottleSettings>;
  /** Concurrency reserved for the voice webhooks' function; unset: none. */
  voiceReservedConcurrency?: number;
  /** The routes to serve; default: the route table. Empty: only `$default` (docs/operations.md, "API routes"). */
  routes?: readonly RouteDefinition[];
}

/**
 * The HTTP API, generated from the shared route table: one function per route group, one route
 * per route-table entry, and a `$default` route so unmatched requests get the service's own 404/405.
 * Its `$default` stage throttles every route, the partner routes tighter, and writes access logs.
 * The routes live in nested stacks, one per route group (infra/constructs/route-stacks.ts): a
 * template holds at most 500 resources, and the route table alone outgrows that.
 */
export class ServiceApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: logs.LogGroup;
  readonly groupFunctions: Record<RouteGroup, NodejsFunction>;
  readonly fallbackFunction: NodejsFunction;
  /** Each group's integration (in this stack; every nested route stack refers to it). */
  readonly integrations: Record<RouteGroup, HttpIntegration>;
  /** The nested stacks holding the routes, by name (`Subscriptions`, or `Schedules2` for a split group). */
  readonly routeStacks: Record<string, NestedStack> = {};
  /** Each route-table entry with its API Gateway route and the nested stack that holds it. */
  readonly routes: { definition: RouteDefinition; route: CfnRoute; stack: NestedStack }[] = [];

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);
    const { table, logRetention } = props;

    // The fallback renders error envelopes and forwards loosely written paths: no table name, no table permissions.
    this.fallbackFunction = createServiceFunction(this, 'FallbackFunction', {
      entry: 'functions/fallback/handler.ts',
      description: 'Unmatched requests ($default route)',
      logRetention,
      // Outlasts the route function it may wait for (a loosely written path, below).
      timeout: Duration.seconds(15),
    });
    this.httpApi = new HttpApi(this, 'HttpApi', {
      // The stack's name (stage included), so each stage's API is told apart in the console.
      apiName: Stack.of(this).stackName,
      description: 'Call tracking service API',
      defaultIntegration: new LambdaProxyIntegration('FallbackIntegration', this.fallbackFunction),
      // The stage below instead: HttpApi's own takes neither throttling nor access logs.
      createDefaultStage: false,
    });
    allowApiToInvoke(this.fallbackFunction, this.httpApi);

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: logRetention });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });

    const groups = Object.keys(routeGroups) as RouteGroup[];
    const integrations: Partial<Record<RouteGroup, HttpIntegration>> = {};
    const functions: Partial<Record<RouteGroup, NodejsFunction>> = {};
    for (const group of groups) {
      const definition = routeGroups[group];
      const fn = createServiceFunction(this, `${pascal(group)}Function`, {
        entry: `functions/${group}/handler.ts`,
        description: definition.description,
        tableName: table.tableName,
        logRetention,
        // The carrier's webhooks keep their capacity whatever the other routes do.
        reservedConcurrency: group === 'voice' ? props.voiceReservedConcurrency : undefined,
        // The reference page's script and the OpenAPI document ship beside the bundle, not inside it.
        afterBundling: group === 'docs' ? docsAfterBundlingCommands : undefined,
      });
      if (props.webhookAllowedCidrs) fn.addEnvironment('WEBHOOK_ALLOWED_CIDRS', props.webhookAllowedCidrs);
      const ports: readonly string[] = 'ports' in definition ? definition.ports : [];
      if (ports.includes('email')) {
        fn.addEnvironment('EMAIL_ADAPTER', 'ses');
        fn.addEnvironment('EMAIL_FROM', props.emailFrom);
        allowSendingEmail(fn, props.emailFrom);
      }
      // The carrier's settings: for buying numbers, controlling calls, checking its signatures, and
      // copying its recordings to S3 for Amazon Transcribe (shared/adapters/aws/carrier-recording-copy.ts).
      if (ports.includes('numbers') || ports.includes('telephony') || ports.includes('carrier') || ports.includes('transcription')) {
        const twilio = props.twilio ?? {};
        if (twilio.accountSid) fn.addEnvironment('TWILIO_ACCOUNT_SID', twilio.accountSid);
        if (twilio.authTokenSecret) {
          // The function reads (and caches) the token at run time, so a rotation needs no deploy.
          fn.addEnvironment('TWILIO_AUTH_TOKEN_SECRET', twilio.authTokenSecret);
          allowReadingSecret(fn, twilio.authTokenSecret);
        }
        if (twilio.apiBase) fn.addEnvironment('TWILIO_API_BASE', twilio.apiBase);
      }
      if (ports.includes('numbers')) fn.addEnvironment('NUMBER_PROVIDER', 'twilio');
      // Bought numbers and placed outbound calls send their calls to this API's voice webhooks.
      if (ports.includes('numbers') || ports.includes('telephony')) fn.addEnvironment('VOICE_WEBHOOK_BASE', this.voiceWebhookBase);
      if (ports.includes('telephony')) fn.addEnvironment('TELEPHONY_ADAPTER', 'twilio');
      if (ports.includes('events')) {
        fn.addEnvironment('EVENTS_ADAPTER', 'sqs');
        fn.addEnvironment('EVENTS_QUEUE_URL', props.eventsQueue.queueUrl);
        props.eventsQueue.grantSendMessages(fn);
      }
      // Least privilege: exactly the group's declared actions, on the table and its indexes; none, no statement.
      const tableActions: readonly string[] = definition.tableActions;
      if (tableActions.length) {
        fn.addToRolePolicy(
          new iam.PolicyStatement({
            actions: [...tableActions],
            resources: [table.tableArn, `${table.tableArn}/index/*`],
          }),
        );
      }
      allowApiToInvoke(fn, this.httpApi);
      functions[group] = fn;
      // In this stack, created explicitly (not bound by a route), so its id does not depend on which route comes first.
      integrations[group] = new HttpIntegration(this, `${pascal(group)}Integration`, {
        httpApi: this.httpApi,
        integrationType: HttpIntegrationType.AWS_PROXY,
        integrationUri: fn.functionArn,
        payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
      });
    }
    this.groupFunctions = functions as Record<RouteGroup, NodejsFunction>;
    this.integrations = integrations as Record<RouteGroup, HttpIntegration>;

    // A path with a trailing slash names a route no API Gateway route can hold (a route's path may
    // not end in "/"): it reaches $default, whose function hands it to the route's function
    // (functions/fallback/handler.ts). Exactly those functions' ARNs, no versions.
    this.fallbackFunction.addEnvironment('ROUTE_FUNCTIONS', Stack.of(this).toJsonString(Object.fromEntries(groups.map((group) => [group, this.groupFunctions[group].functionName]))));
    this.fallbackFunction.addToRolePolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: groups.map((group) => this.groupFunctions[group].functionArn) }));

    const partnerRouteSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    for (const assignment of assignRouteStacks(props.routes ?? routes)) {
      // The API and the integration come in as the nested stack's parameters (CDK adds them).
      const stack = new NestedStack(this, `Routes${assignment.name}`, { description: `API routes of the ${assignment.group} route group` });
      this.routeStacks[assignment.name] = stack;
      const target = `integrations/${this.integrations[assignment.group].integrationId}`;
      // A nested stack's top-level construct gets its id, alphanumerics only, as logical id (readable, no hash).
      const logicalIds = new Map<string, string>();
      for (const route of assignment.routes) {
        const key = HttpRouteKey.with(route.path, HttpMethod[route.method]);
        // The local gateway matches on routeKey(); fail synth if API Gateway's key ever differs.
        if (key.key !== routeKey(route)) throw new Error(`Route key mismatch: ${key.key} vs ${routeKey(route)}`);
        const logicalId = key.key.replace(/[^A-Za-z0-9]/g, '');
        if (logicalIds.has(logicalId)) throw new Error(`Routes "${logicalIds.get(logicalId)}" and "${key.key}" would share the logical id ${logicalId} in Routes${assignment.name}`);
        logicalIds.set(logicalId, key.key);
        // What HttpRoute synthesizes, without binding an integration into the route's stack.
        const cfnRoute = new CfnRoute(stack, routeKey(route), { apiId: this.httpApi.apiId, routeKey: key.key, target, authorizationType: 'NONE' });
        this.routes.push({ definition: route, route: cfnRoute, stack });
        if (isPartnerRoute(route)) {
          partnerRouteSettings[key.key] = { ThrottlingRateLimit: props.partnerThrottle.rateLimit, ThrottlingBurstLimit: props.partnerThrottle.burstLimit };
          // A stage may only name routes that exist: create them (their nested stack) first.
          this.stage.node.addDependency(cfnRoute);
        }
      }
    }
    // Route-level throttling has no L2 property (JSON keyed by route key, CloudFormation's casing).
    // None without routes (apiRoutes=none): a stage may not name a route that does not exist.
    if (Object.keys(partnerRouteSettings).length) (this.stage.node.defaultChild as CfnStage).routeSettings = partnerRouteSettings;
  }

  /** Where the carrier reaches the voice webhooks (numbers' voice URL, outbound calls' answer and status URLs). */
  get voiceWebhookBase(): string {
    return `${this.httpApi.apiEndpoint}/api/v1/voice/twilio`;
  }

  /** The default stage's invoke URL. */
  get url(): string {
    return this.stage.url;
  }
}
