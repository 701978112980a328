import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { EventQueuePort, QueueMessage } from '../../ports/events.js';

/** SQS takes at most ten messages per SendMessageBatch. */
const BATCH = 10;

/**
 * The SQS queue the delivery function reads. Messages go in batches of ten; a batch entry SQS
 * refuses throws, so the caller keeps its outbox item and the outbox sweeper sends it again.
 */
export class SqsEvents implements EventQueuePort {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(messages: readonly QueueMessage[], delaySeconds = 0): Promise<void> {
    for (let start = 0; start < messages.length; start += BATCH) {
      const batch = messages.slice(start, start + BATCH);
      const result = await this.client.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: batch.map((message, index) => ({
            Id: String(index),
            MessageBody: JSON.stringify(message),
            ...(delaySeconds > 0 ? { DelaySeconds: Math.min(900, Math.round(delaySeconds)) } : {}),
            MessageAttributes: {
              kind: { DataType: 'String', StringValue: message.kind },
              company_id: { DataType: 'Number', StringValue: String(message.companyId) },
            },
          })),
        }),
      );
      if (result.Failed?.length) {
        throw new Error(`SQS refused ${result.Failed.length} of ${batch.length} messages: ${result.Failed.map((failed) => failed.Code).join(', ')}`);
      }
    }
  }

  async retryLater(receiptHandle: string, seconds: number): Promise<void> {
    await this.client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: this.queueUrl,
        ReceiptHandle: receiptHandle,
        // SQS allows at most 12 hours.
        VisibilityTimeout: Math.max(0, Math.min(12 * 60 * 60, Math.round(seconds))),
      }),
    );
  }
}
