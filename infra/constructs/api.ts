import { HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { type RouteGroup, routeGroups, routeKey, routes } from '../../shared/http/routes.js';
import { createServiceFunction } from './function-defaults.js';

export interface ServiceApiProps {
  table: ITableV2;
  /** Sender address for SES (a verified identity in the account). */
  emailFrom: string;
  /**
   * The Twilio-compatible carrier of the number provider port. Unset values are left out of the
   * environment, and the provider then refuses to start with a message naming the context keys.
   */
  twilio?: { accountSid?: string; authToken?: string; apiBase?: string };
  /** The queue the events port publishes to. */
  eventsQueue: IQueue;
}

/** `subscriptions` → `Subscriptions`, for readable construct ids. */
const pascal = (name: string): string =>
  name.replace(/(^|[-_])([a-z0-9])/g, (_match, _sep: string, char: string) => char.toUpperCase());

/**
 * The HTTP API, generated from the shared route table: one function per route group, one route
 * per route-table entry, and a `$default` route so unmatched requests get the service's own 404/405.
 */
export class ServiceApi extends Construct {
  readonly httpApi: HttpApi;
  readonly groupFunctions: Record<RouteGroup, NodejsFunction>;
  readonly fallbackFunction: NodejsFunction;

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);
    const { table } = props;

    // The fallback only renders error envelopes: no table name, no table permissions.
    this.fallbackFunction = createServiceFunction(this, 'FallbackFunction', {
      entry: 'functions/fallback/handler.ts',
      description: 'Unmatched requests ($default route)',
    });
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Call tracking service API',
      defaultIntegration: new HttpLambdaIntegration('FallbackIntegration', this.fallbackFunction),
    });

    const groups = Object.keys(routeGroups) as RouteGroup[];
    const integrations = new Map<RouteGroup, HttpLambdaIntegration>();
    const functions: Partial<Record<RouteGroup, NodejsFunction>> = {};
    for (const group of groups) {
      const definition = routeGroups[group];
      const fn = createServiceFunction(this, `${pascal(group)}Function`, {
        entry: `functions/${group}/handler.ts`,
        description: definition.description,
        tableName: table.tableName,
      });
      const ports: readonly string[] = 'ports' in definition ? definition.ports : [];
      if (ports.includes('email')) {
        fn.addEnvironment('EMAIL_ADAPTER', 'ses');
        fn.addEnvironment('EMAIL_FROM', props.emailFrom);
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['ses:SendEmail'], resources: ['*'] }));
      }
      // The carrier's settings: for buying numbers, controlling calls, and checking its signatures.
      if (ports.includes('numbers') || ports.includes('telephony') || ports.includes('carrier')) {
        const twilio = props.twilio ?? {};
        if (twilio.accountSid) fn.addEnvironment('TWILIO_ACCOUNT_SID', twilio.accountSid);
        if (twilio.authToken) fn.addEnvironment('TWILIO_AUTH_TOKEN', twilio.authToken);
        if (twilio.apiBase) fn.addEnvironment('TWILIO_API_BASE', twilio.apiBase);
      }
      if (ports.includes('numbers')) {
        fn.addEnvironment('NUMBER_PROVIDER', 'twilio');
        // Bought numbers send their calls to this API's voice webhooks.
        fn.addEnvironment('VOICE_WEBHOOK_BASE', `${this.httpApi.apiEndpoint}/api/v1/voice/twilio`);
      }
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
      functions[group] = fn;
      integrations.set(group, new HttpLambdaIntegration(`${pascal(group)}Integration`, fn));
    }
    this.groupFunctions = functions as Record<RouteGroup, NodejsFunction>;

    for (const route of routes) {
      const key = HttpRouteKey.with(route.path, HttpMethod[route.method]);
      // The local gateway matches on routeKey(); fail synth if API Gateway's key ever differs.
      if (key.key !== routeKey(route)) throw new Error(`Route key mismatch: ${key.key} vs ${routeKey(route)}`);
      new HttpRoute(this, routeKey(route), {
        httpApi: this.httpApi,
        routeKey: key,
        integration: integrations.get(route.group)!,
      });
    }
  }

  /** The default stage's invoke URL. */
  get url(): string {
    return this.httpApi.url ?? this.httpApi.apiEndpoint;
  }
}
