import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { maxAttempts, scheduleSpanSeconds, type RetryPolicy } from '../../shared/events/retry-schedule.js';

export interface EventsQueueProps {
  /** The retry schedule the delivery function follows: one receive per attempt. */
  policy: RetryPolicy;
  /** The delivery function's timeout; the visibility timeout is six times it (AWS's advice for SQS event sources). */
  consumerTimeout: Duration;
}

/**
 * The queue between the outbox and the delivery function. A message is received once per
 * attempt (the function pushes a failed one's visibility out to its next attempt), so the redrive
 * policy's maxReceiveCount is the number of attempts: after the last one the message moves to
 * the dead-letter queue, kept 14 days for a redrive (docs/events.md), with an alarm on its depth.
 */
export class EventsQueue extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetters: sqs.Queue;
  readonly deadLetterAlarm: cloudwatch.Alarm;
  /**
   * The oldest-message age (ApproximateAgeOfOldestMessage) normal retries reach. SQS leaves a
   * message received three times or more out of that metric, so only the first two delays of
   * the schedule count, plus ten minutes for a batch in progress and the metric's lag.
   */
  readonly normalOldestMessageAge: Duration;

  constructor(scope: Construct, id: string, props: EventsQueueProps) {
    super(scope, id);
    this.deadLetters = new sqs.Queue(this, 'DeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Dead letters kept for a redrive: never deleted by a stack update or deletion.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Kept well past the whole schedule, so a message is never dropped while it still has attempts.
    const retention = Duration.seconds(Math.max(4 * 24 * 3600, scheduleSpanSeconds(props.policy) + 2 * 24 * 3600));
    this.queue = new sqs.Queue(this, 'Queue', {
      retentionPeriod: retention.toSeconds() > 14 * 24 * 3600 ? Duration.days(14) : retention,
      visibilityTimeout: Duration.seconds(props.consumerTimeout.toSeconds() * 6),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: maxAttempts(props.policy) },
      // Events not yet delivered: a replacement would drop them (infra/stateful-resources.json pins it).
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.deadLetterAlarm = deadLetterDepthAlarm(
      this,
      'DeadLettersAlarm',
      this.deadLetters,
      'Events gave up on after every attempt are waiting in the dead-letter queue (redrive: docs/events.md)',
    );
    const [first = 0, second = 0] = props.policy.delays;
    this.normalOldestMessageAge = Duration.seconds(first + second + 10 * 60);
  }
}

/** An alarm while the dead-letter queue holds anything. */
export function deadLetterDepthAlarm(scope: Construct, id: string, queue: sqs.IQueue, description: string): cloudwatch.Alarm {
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription: description,
    metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}
