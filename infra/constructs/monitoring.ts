import { Aws, Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type TableBaseV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRIC, METRICS_NAMESPACE, type MetricName } from '../../shared/observability/metric-names.js';
import { METRICS_SERVICE } from './function-defaults.js';

/**
 * Alarm thresholds, one place (docs/operations.md explains each and what to do). Periods are
 * five minutes unless said otherwise.
 */
export const THRESHOLDS = {
  /** Function errors (crashes, timeouts): at least this many in each of 2 periods in a row. */
  functionErrors: 1,
  /** Function throttles: any, in one period (concurrency ran out). */
  functionThrottles: 1,
  /** API 5xx as a percentage of requests, in each of 2 periods in a row. */
  api5xxPercent: 5,
  /** API p99 latency (ms), in each of 3 periods in a row. */
  apiP99LatencyMs: 3000,
  /** DynamoDB throttled requests and system errors: any, in one period. */
  tableThrottles: 1,
  tableSystemErrors: 1,
  /** Calls the stale-call sweeper ended in an hour: callbacks are being lost. */
  staleCallsPerHour: 5,
} as const;

/** The table operations the service calls (shared/), summed in the table's alarms (at most 10: a math alarm's limit). */
export const TABLE_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.BATCH_WRITE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
];

export interface DeadLetterQueue {
  queue: IQueue;
  /** Its depth alarm, made where the queue is. */
  alarm: cloudwatch.Alarm;
}

export interface MonitoringProps {
  /** Subscribed to the alarm topic by e-mail (the address confirms once); none when unset. */
  alarmEmail?: string;
  /** Every function, by a short name used in alarm ids and dashboard legends. */
  functions: Record<string, IFunction>;
  api: HttpApi;
  table: TableBaseV2;
  eventsQueue: IQueue;
  /** Oldest-message age (ApproximateAgeOfOldestMessage) the events queue reaches in normal operation. */
  eventsQueueNormalAge: Duration;
  deadLetterQueues: Record<string, DeadLetterQueue>;
}

const FIVE_MINUTES = Duration.minutes(5);

/** A business metric the functions publish (Powertools EMF, shared/observability/metric-names.ts). */
export function businessMetric(name: MetricName, props: cloudwatch.MetricOptions = {}): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { service: METRICS_SERVICE },
    statistic: cloudwatch.Stats.SUM,
    ...props,
  });
}

const pascal = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * The alarm topic (with its e-mail subscription), the alarms, and one dashboard with the same
 * figures plus the business metrics per minute.
 */
export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  /** The `alarmEmail` subscription, when set. */
  readonly emailSubscription?: sns.Subscription;
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'AlarmTopic', { displayName: `${Stack.of(this).stackName} alarms`, enforceSSL: true });
    if (props.alarmEmail) this.emailSubscription = this.topic.addSubscription(new EmailSubscription(props.alarmEmail));

    const functions = Object.entries(props.functions);
    for (const [name, fn] of functions) {
      this.alarm(`${pascal(name)}Errors`, {
        alarmDescription: `The ${name} function failed (uncaught error, timeout or out of memory): see its log group`,
        metric: fn.metricErrors({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM }),
        threshold: THRESHOLDS.functionErrors,
        evaluationPeriods: 2,
      });
      this.alarm(`${pascal(name)}Throttles`, {
        alarmDescription: `The ${name} function was throttled: its concurrency (reserved, or the account's) ran out`,
        metric: fn.metricThrottles({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM }),
        threshold: THRESHOLDS.functionThrottles,
        evaluationPeriods: 1,
      });
    }

    const requests = props.api.metricCount({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM });
    const serverErrors = props.api.metricServerError({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM });
    const serverErrorRate = new cloudwatch.MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: { requests, errors: serverErrors },
      label: '5xx %',
      period: FIVE_MINUTES,
    });
    this.alarm('Api5xxRate', {
      alarmDescription: `More than ${THRESHOLDS.api5xxPercent}% of API requests answered 5xx: see the access logs and the functions' errors`,
      metric: serverErrorRate,
      threshold: THRESHOLDS.api5xxPercent,
      evaluationPeriods: 2,
    });
    const p99 = props.api.metricLatency({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.p(99) });
    this.alarm('ApiLatencyP99', {
      alarmDescription: `API p99 latency above ${THRESHOLDS.apiP99LatencyMs} ms for 15 minutes: the carrier's webhooks time out at 15 s`,
      metric: p99,
      threshold: THRESHOLDS.apiP99LatencyMs,
      evaluationPeriods: 3,
    });

    const tableThrottles = props.table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: FIVE_MINUTES });
    this.alarm('TableThrottles', {
      alarmDescription: 'DynamoDB throttled requests to the table (a hot partition, or the account\'s on-demand limits)',
      metric: tableThrottles,
      threshold: THRESHOLDS.tableThrottles,
      evaluationPeriods: 1,
    });
    const tableSystemErrors = props.table.metricSystemErrorsForOperations({ operations: TABLE_OPERATIONS, period: FIVE_MINUTES });
    this.alarm('TableSystemErrors', {
      alarmDescription: 'DynamoDB answered requests with internal errors (HTTP 500): check the AWS Health Dashboard',
      metric: tableSystemErrors,
      threshold: THRESHOLDS.tableSystemErrors,
      evaluationPeriods: 1,
    });

    const queueAge = props.eventsQueue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.MAXIMUM });
    this.alarm('EventsQueueAge', {
      alarmDescription: 'Events wait in the queue longer than the retry schedule explains: is the delivery function failing or throttled?',
      metric: queueAge,
      threshold: props.eventsQueueNormalAge.toSeconds(),
      evaluationPeriods: 1,
    });

    for (const { alarm } of Object.values(props.deadLetterQueues)) this.notify(alarm);

    const staleCalls = businessMetric(METRIC.staleCallsEnded, { period: Duration.hours(1) });
    this.alarm('StaleCalls', {
      alarmDescription: `The stale-call sweeper ended ${THRESHOLDS.staleCallsPerHour} or more calls in an hour: the carrier's final callbacks are not arriving (voice function errors?)`,
      metric: staleCalls,
      threshold: THRESHOLDS.staleCallsPerHour,
      evaluationPeriods: 1,
    });

    this.dashboard = this.buildDashboard(props, { serverErrorRate, tableThrottles, tableSystemErrors, queueAge });
  }

  /** Sends the alarm's state changes (into alarm and back to OK) to the topic. */
  notify(alarm: cloudwatch.Alarm): void {
    alarm.addAlarmAction(new SnsAction(this.topic));
    alarm.addOkAction(new SnsAction(this.topic));
    this.alarms.push(alarm);
  }

  private alarm(id: string, props: Omit<cloudwatch.AlarmProps, 'comparisonOperator' | 'treatMissingData'>): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      ...props,
      datapointsToAlarm: props.evaluationPeriods,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      // No traffic is not a fault; the metrics only exist while things happen.
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.notify(alarm);
    return alarm;
  }

  private buildDashboard(
    props: MonitoringProps,
    figures: { serverErrorRate: cloudwatch.IMetric; tableThrottles: cloudwatch.IMetric; tableSystemErrors: cloudwatch.IMetric; queueAge: cloudwatch.IMetric },
  ): cloudwatch.Dashboard {
    const minute = Duration.minutes(1);
    const perMinute = (name: MetricName) => businessMetric(name, { period: minute, label: name });
    const functions = Object.entries(props.functions);
    const perFunction = (metric: (fn: IFunction) => cloudwatch.Metric) => functions.map(([name, fn]) => metric(fn).with({ label: name }));
    const graph = (title: string, left: cloudwatch.IMetric[], width = 8) => new cloudwatch.GraphWidget({ title, left, width, height: 6 });

    const dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      // Dashboards are per account, not per region: the stack's name and region keep stages and regions apart.
      dashboardName: `${Stack.of(this).stackName}-${Aws.REGION}`,
      defaultInterval: Duration.hours(3),
    });
    dashboard.addWidgets(
      graph('Calls per minute', [perMinute(METRIC.callsStarted), perMinute(METRIC.callsEnded), perMinute(METRIC.conversions)]),
      graph('Pings and posts per minute', [perMinute(METRIC.pings), perMinute(METRIC.posts)]),
      graph('Stale calls ended, deliveries per minute', [perMinute(METRIC.staleCallsEnded), perMinute(METRIC.deliveriesSucceeded), perMinute(METRIC.deliveriesFailed)]),
    );
    dashboard.addWidgets(graph('Lead steps run, overdue steps rescheduled per minute', [perMinute(METRIC.leadStepsRun), perMinute(METRIC.overdueLeadSteps)]));
    dashboard.addWidgets(
      graph('API requests, 4xx, 5xx per minute', [
        props.api.metricCount({ period: minute, statistic: cloudwatch.Stats.SUM, label: 'requests' }),
        props.api.metricClientError({ period: minute, statistic: cloudwatch.Stats.SUM, label: '4xx' }),
        props.api.metricServerError({ period: minute, statistic: cloudwatch.Stats.SUM, label: '5xx' }),
      ]),
      graph('API 5xx %', [figures.serverErrorRate]),
      graph('API latency (ms)', [
        props.api.metricLatency({ statistic: cloudwatch.Stats.p(50), label: 'p50' }),
        props.api.metricLatency({ statistic: cloudwatch.Stats.p(99), label: 'p99' }),
        props.api.metricIntegrationLatency({ statistic: cloudwatch.Stats.p(99), label: 'integration p99' }),
      ]),
    );
    dashboard.addWidgets(
      graph('Function errors', perFunction((fn) => fn.metricErrors({ statistic: cloudwatch.Stats.SUM }))),
      graph('Function throttles', perFunction((fn) => fn.metricThrottles({ statistic: cloudwatch.Stats.SUM }))),
      graph('Function duration p99 (ms)', perFunction((fn) => fn.metricDuration({ statistic: cloudwatch.Stats.p(99) }))),
    );
    dashboard.addWidgets(
      // Apart: both expressions name their per-operation metrics alike, which one graph refuses.
      graph('Table throttled requests', [figures.tableThrottles], 6),
      graph('Table system errors', [figures.tableSystemErrors], 6),
      graph('Events queue: oldest message age (s)', [figures.queueAge], 6),
      graph(
        'Dead letters',
        Object.entries(props.deadLetterQueues).map(([name, { queue }]) =>
          queue.metricApproximateNumberOfMessagesVisible({ statistic: cloudwatch.Stats.MAXIMUM, label: name }),
        ),
        6,
      ),
    );
    dashboard.addWidgets(new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24, height: 6 }));
    return dashboard;
  }
}
