import { afterEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { ConflictException, CreateScheduleCommand, DeleteScheduleCommand, ResourceNotFoundException, SchedulerClient, ValidationException } from '@aws-sdk/client-scheduler';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { atExpression, EventBridgeScheduler, queueDelaySeconds, scheduleName, schedulerConfigFromEnv } from '../../shared/adapters/aws/event-bridge-scheduler.js';
import { createSchedulerPort } from '../../shared/adapters/scheduler.js';

const config = {
  groupName: 'stack-leads',
  runnerArn: 'arn:aws:lambda:us-east-1:111122223333:function:runner',
  roleArn: 'arn:aws:iam::111122223333:role/scheduler',
  queueUrl: 'https://sqs.us-east-1.amazonaws.com/111122223333/steps',
  deadLetterArn: 'arn:aws:sqs:us-east-1:111122223333:runner-dlq',
};
const now = new Date('2026-11-23T10:00:00.250Z');
const entry = { companyId: 12, leadId: 1234567890123456, version: 3 };
const schedulerMock = mockClient(SchedulerClient);
const sqsMock = mockClient(SQSClient);

function adapter(): EventBridgeScheduler {
  return new EventBridgeScheduler(new SchedulerClient({ region: 'us-east-1' }), new SQSClient({ region: 'us-east-1' }), config, () => now);
}

afterEach(() => {
  schedulerMock.reset();
  sqsMock.reset();
});

describe('EventBridge Scheduler adapter', () => {
  it('makes a step due in a minute or more one one-time schedule in the group, targeting the runner', async () => {
    schedulerMock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    await adapter().schedule(entry, new Date('2026-11-23T12:00:05.900Z'));
    const calls = schedulerMock.commandCalls(CreateScheduleCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      Name: 'l-12-1234567890123456-3',
      GroupName: 'stack-leads',
      ScheduleExpression: 'at(2026-11-23T12:00:05)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: config.runnerArn,
        RoleArn: config.roleArn,
        Input: JSON.stringify(entry),
        RetryPolicy: { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 20 },
        DeadLetterConfig: { Arn: config.deadLetterArn },
      },
    });
    expect(sqsMock.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('takes an existing schedule of the same name (a repeated schedule) as success', async () => {
    schedulerMock.on(CreateScheduleCommand).rejects(new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} }));
    await expect(adapter().schedule(entry, new Date(now.getTime() + 3_600_000))).resolves.toBeUndefined();
  });

  it('propagates any other refusal, so the caller (and the recovery sweeper) know the step is not scheduled', async () => {
    schedulerMock.on(CreateScheduleCommand).rejects(new ValidationException({ message: 'bad', Message: 'bad', $metadata: {} }));
    await expect(adapter().schedule(entry, new Date(now.getTime() + 3_600_000))).rejects.toThrow('bad');
  });

  it('sends a step due within a minute to the steps queue with its delay, 0 for a past one', async () => {
    sqsMock.on(SendMessageCommand).resolves({ MessageId: 'm' });
    const scheduler = adapter();
    await scheduler.schedule(entry, new Date(now.getTime() + 59_999));
    await scheduler.schedule(entry, new Date(now.getTime() - 10_000));
    await scheduler.schedule(entry, new Date(now.getTime() + 20_100));
    const inputs = sqsMock.commandCalls(SendMessageCommand).map((call) => call.args[0].input);
    expect(inputs).toEqual([
      { QueueUrl: config.queueUrl, MessageBody: JSON.stringify(entry), DelaySeconds: 60 },
      { QueueUrl: config.queueUrl, MessageBody: JSON.stringify(entry), DelaySeconds: 0 },
      { QueueUrl: config.queueUrl, MessageBody: JSON.stringify(entry), DelaySeconds: 21 },
    ]);
    expect(schedulerMock.commandCalls(CreateScheduleCommand)).toHaveLength(0);
  });

  it('cancels by deleting the schedule of the same name; one already gone is fine', async () => {
    schedulerMock.on(DeleteScheduleCommand).resolvesOnce({}).rejectsOnce(new ResourceNotFoundException({ message: 'gone', Message: 'gone', $metadata: {} }));
    await adapter().cancel(entry);
    await adapter().cancel(entry);
    const inputs = schedulerMock.commandCalls(DeleteScheduleCommand).map((call) => call.args[0].input);
    expect(inputs).toEqual([
      { Name: 'l-12-1234567890123456-3', GroupName: 'stack-leads' },
      { Name: 'l-12-1234567890123456-3', GroupName: 'stack-leads' },
    ]);
  });

  it('names schedules deterministically within 64 characters and writes at() in UTC seconds', () => {
    const biggest = { companyId: 9_999_999_999_999_999, leadId: 9_007_199_254_740_991, version: 9_007_199_254_740_991 };
    expect(scheduleName(biggest).length).toBeLessThanOrEqual(64);
    expect(scheduleName(biggest)).toMatch(/^[0-9a-zA-Z\-_.]+$/);
    expect(scheduleName(entry)).toBe(scheduleName({ ...entry }));
    expect(scheduleName({ ...entry, version: 4 })).not.toBe(scheduleName(entry));
    expect(atExpression(new Date('2027-01-02T03:04:05.999Z'))).toBe('at(2027-01-02T03:04:05)');
    expect(queueDelaySeconds(new Date(now.getTime() + 500), now)).toBe(1);
  });

  it('is what SCHEDULER_ADAPTER=aws wires, and refuses to start without its settings, naming them', () => {
    expect(() => createSchedulerPort({ SCHEDULER_ADAPTER: 'aws', LEAD_SCHEDULE_GROUP: 'g' })).toThrow(/LEAD_RUNNER_ARN, LEAD_SCHEDULER_ROLE_ARN, LEAD_STEPS_QUEUE_URL, LEAD_RUNNER_DLQ_ARN/);
    const env = { LEAD_SCHEDULE_GROUP: 'g', LEAD_RUNNER_ARN: 'r', LEAD_SCHEDULER_ROLE_ARN: 'role', LEAD_STEPS_QUEUE_URL: 'q', LEAD_RUNNER_DLQ_ARN: 'd' };
    expect(schedulerConfigFromEnv(env)).toEqual({ groupName: 'g', runnerArn: 'r', roleArn: 'role', queueUrl: 'q', deadLetterArn: 'd' });
    expect(createSchedulerPort({ SCHEDULER_ADAPTER: 'aws', ...env })).toBeInstanceOf(EventBridgeScheduler);
  });
});
