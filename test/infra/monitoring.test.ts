import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { METRICS_SERVICE } from '../../infra/constructs/function-defaults.js';
import { TABLE_OPERATIONS, THRESHOLDS } from '../../infra/constructs/monitoring.js';
import { METRIC, METRICS_NAMESPACE } from '../../shared/observability/metric-names.js';
import { type CfnResource, synth } from './support.js';

const defaults = synth();
const alarms = Object.values(defaults.resourcesOfType('AWS::CloudWatch::Alarm'));
const topicRef = { Ref: defaults.logicalIdOf(defaults.stack.monitoring.topic) };

interface MetricStat {
  Id: string;
  Expression?: string;
  MetricStat?: { Metric: { MetricName: string; Namespace: string; Dimensions: { Name: string; Value: unknown }[] }; Stat: string };
}

const alarmsOn = (metricName: string) => alarms.filter((alarm) => alarm.Properties.MetricName === metricName);
const mathAlarm = (predicate: (metrics: MetricStat[]) => boolean): CfnResource | undefined =>
  alarms.find((alarm) => Array.isArray(alarm.Properties.Metrics) && predicate(alarm.Properties.Metrics as MetricStat[]));

describe('alarm topic', () => {
  it('gets an e-mail subscription from the alarmEmail setting, and none without it', () => {
    defaults.template.resourceCountIs('AWS::SNS::Topic', 1);
    defaults.template.resourceCountIs('AWS::SNS::Subscription', 0);
    const subscribed = synth({ alarmEmail: 'ops@example.com' });
    subscribed.template.resourceCountIs('AWS::SNS::Subscription', 1);
    subscribed.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: subscribed.logicalIdOf(subscribed.stack.monitoring.topic) },
    });
  });

  it('only accepts TLS publishers', () => {
    defaults.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: Match.objectLike({ Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) }),
    });
  });

  it('hears from every alarm, into ALARM and back to OK', () => {
    expect(alarms.length).toBeGreaterThan(30);
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([topicRef]);
      expect(alarm.Properties.OKActions).toEqual([topicRef]);
    }
  });
});

describe('alarms', () => {
  const functionIds = Object.values(defaults.stack.functions).map((fn) => defaults.logicalIdOf(fn));
  const functionDimension = (alarm: CfnResource) => ((alarm.Properties.Dimensions as { Value: { Ref: string } }[])[0]!.Value.Ref);

  it('watch every function\'s errors and throttles', () => {
    expect(alarmsOn('Errors').map(functionDimension).sort()).toEqual([...functionIds].sort());
    expect(alarmsOn('Throttles').map(functionDimension).sort()).toEqual([...functionIds].sort());
    for (const alarm of alarmsOn('Errors')) {
      expect(alarm.Properties).toMatchObject({ Namespace: 'AWS/Lambda', Statistic: 'Sum', Threshold: THRESHOLDS.functionErrors, EvaluationPeriods: 2, DatapointsToAlarm: 2 });
    }
    for (const alarm of alarmsOn('Throttles')) expect(alarm.Properties).toMatchObject({ Threshold: 1, EvaluationPeriods: 1 });
  });

  it('watch the API\'s 5xx rate', () => {
    const alarm = mathAlarm((metrics) => metrics.some((metric) => metric.MetricStat?.Metric.MetricName === '5xx'));
    const metrics = alarm?.Properties.Metrics as MetricStat[];
    expect(metrics.find((metric) => metric.Expression)?.Expression).toBe('IF(requests > 0, 100 * errors / requests, 0)');
    expect(metrics.filter((metric) => metric.MetricStat).map((metric) => [metric.Id, metric.MetricStat!.Metric.MetricName, metric.MetricStat!.Metric.Namespace]).sort()).toEqual([
      ['errors', '5xx', 'AWS/ApiGateway'],
      ['requests', 'Count', 'AWS/ApiGateway'],
    ]);
    expect(alarm?.Properties).toMatchObject({ Threshold: THRESHOLDS.api5xxPercent, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
  });

  it('watch the API\'s p99 latency', () => {
    const [alarm] = alarmsOn('Latency');
    expect(alarm?.Properties).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      ExtendedStatistic: 'p99',
      Threshold: THRESHOLDS.apiP99LatencyMs,
      EvaluationPeriods: 3,
      Dimensions: [{ Name: 'ApiId', Value: { Ref: defaults.logicalIdOf(defaults.stack.api.httpApi) } }],
    });
  });

  it.each(['ThrottledRequests', 'SystemErrors'])('watch the table\'s %s over every operation the service calls', (metricName) => {
    const alarm = mathAlarm((metrics) => metrics.some((metric) => metric.MetricStat?.Metric.MetricName === metricName));
    const metrics = (alarm?.Properties.Metrics as MetricStat[]).filter((metric) => metric.MetricStat);
    expect(metrics.length).toBeLessThanOrEqual(10);
    const operations = metrics.map((metric) => metric.MetricStat!.Metric.Dimensions.find((dimension) => dimension.Name === 'Operation')?.Value);
    expect(operations.sort()).toEqual([...TABLE_OPERATIONS].sort());
    for (const metric of metrics) {
      expect(metric.MetricStat!.Metric.Dimensions).toContainEqual({ Name: 'TableName', Value: { Ref: defaults.logicalIdOf(defaults.stack.table) } });
    }
    expect(alarm?.Properties.Threshold).toBe(1);
  });

  it('watch the age of the events queue\'s oldest message, above what the retry schedule explains', () => {
    const ageAlarm = (synthesized: ReturnType<typeof synth>) => {
      const [alarm] = Object.values(synthesized.resourcesOfType('AWS::CloudWatch::Alarm')).filter((a) => a.Properties.MetricName === 'ApproximateAgeOfOldestMessage');
      expect(alarm?.Properties.Dimensions).toEqual([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [synthesized.logicalIdOf(synthesized.stack.events.queue), 'QueueName'] } }]);
      return alarm?.Properties.Threshold;
    };
    // 5 s and 5 min before the third receive (SQS leaves later ones out of the metric), plus 10 min.
    expect(ageAlarm(defaults)).toBe(5 + 300 + 600);
    expect(ageAlarm(synth({ webhookRetrySchedule: '1m,1h' }))).toBe(60 + 3600 + 600);
  });

  it('watch the depth of every dead-letter queue', () => {
    const { leadRunner } = defaults.stack;
    const queues = [defaults.stack.events.deadLetters, defaults.stack.scheduleDeadLetters, leadRunner.stepsDeadLetters, leadRunner.runnerDeadLetters].map((queue) => defaults.logicalIdOf(queue));
    const watched = alarmsOn('ApproximateNumberOfMessagesVisible').map((alarm) => (alarm.Properties.Dimensions as { Value: { 'Fn::GetAtt': [string] } }[])[0]!.Value['Fn::GetAtt'][0]);
    expect(watched.sort()).toEqual([...queues].sort());
  });

  it('watch calls stuck in progress: the stale-call sweeper\'s metric, by namespace, name and service only', () => {
    const [alarm] = alarmsOn(METRIC.staleCallsEnded);
    expect(alarm?.Properties).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      Dimensions: [{ Name: 'service', Value: METRICS_SERVICE }],
      Statistic: 'Sum',
      Period: 3600,
      Threshold: THRESHOLDS.staleCallsPerHour,
      TreatMissingData: 'notBreaching',
    });
  });
});

describe('dashboard', () => {
  const dashboards = Object.values(defaults.resourcesOfType('AWS::CloudWatch::Dashboard'));
  const body = JSON.stringify(dashboards[0]?.Properties.DashboardBody);

  it('is one, named after the stack and region', () => {
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]?.Properties.DashboardName).toEqual({ 'Fn::Join': ['', ['CallTrackingService-prod-', { Ref: 'AWS::Region' }]] });
  });

  it('shows every business metric per minute, read by namespace, name and service', () => {
    for (const name of Object.values(METRIC)) {
      expect(body).toContain(`[\\"${METRICS_NAMESPACE}\\",\\"${name}\\",\\"service\\",\\"${METRICS_SERVICE}\\",{\\"label\\":\\"${name}\\",\\"period\\":60,\\"stat\\":\\"Sum\\"}]`);
    }
    expect(body).toContain('Calls per minute');
    expect(body).toContain('Pings and posts per minute');
  });

  it('shows the figures the alarms watch, and the alarms', () => {
    for (const metricName of ['5xx', 'Latency', 'Errors', 'Throttles', 'ThrottledRequests', 'SystemErrors', 'ApproximateAgeOfOldestMessage', 'ApproximateNumberOfMessagesVisible']) {
      expect(body, metricName).toContain(`\\"${metricName}\\"`);
    }
    expect(body).toContain('\\"type\\":\\"alarm\\"');
    for (const id of Object.keys(defaults.resourcesOfType('AWS::CloudWatch::Alarm'))) expect(body).toContain(`{"Fn::GetAtt":["${id}","Arn"]}`);
  });
});
