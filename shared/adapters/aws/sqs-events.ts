import type { SQSClient } from '@aws-sdk/client-sqs';
import type { EventQueueMessage, EventQueuePort } from '../../ports/events.js';

/**
 * The SQS client's module, imported on first use: the SDK is external to the bundles (the Lambda
 * runtime provides it) and a static import would load it at every function's init, though a
 * function publishes only after a write.
 */
const sqsCommands = () => import('@aws-sdk/client-sqs');

/** SQS takes at most ten messages per SendMessageBatch... */
const BATCH = 10;
/** ...and at most 256 KB in the whole batch (messages carry a call, up to ~100 KB): batches stay below this. */
const BATCH_BYTES = 240 * 1024;

/** Consecutive groups of at most BATCH messages and BATCH_BYTES of bodies (a bigger message goes alone). */
export function sqsBatches(bodies: readonly string[]): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  bodies.forEach((body, index) => {
    const size = Buffer.byteLength(body, 'utf8');
    if (current.length && (current.length === BATCH || bytes + size > BATCH_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(index);
    bytes += size;
  });
  if (current.length) batches.push(current);
  return batches;
}

/**
 * The SQS queue the delivery function reads. Messages go in batches of at most ten and 240 KB; a
 * batch entry SQS refuses throws, so the caller's outbox item is left for the outbox sweeper to
 * send again.
 */
export class SqsEvents implements EventQueuePort {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(messages: readonly EventQueueMessage[], delaySeconds = 0): Promise<void> {
    const bodies = messages.map((message) => JSON.stringify(message));
    for (const indexes of sqsBatches(bodies)) {
      const batch = indexes.map((index) => messages[index]!);
      const result = await this.client.send(
        new (await sqsCommands()).SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: batch.map((message, index) => ({
            Id: String(index),
            MessageBody: bodies[indexes[index]!]!,
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
      new (await sqsCommands()).ChangeMessageVisibilityCommand({
        QueueUrl: this.queueUrl,
        ReceiptHandle: receiptHandle,
        // SQS allows at most 12 hours.
        VisibilityTimeout: Math.max(0, Math.min(12 * 60 * 60, Math.round(seconds))),
      }),
    );
  }
}
