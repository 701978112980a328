import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import { handler } from '../../functions/delivery/handler.js';
import type { ReceivedMessage, TableQueue } from '../adapters/local/table-queue.js';
import { buildLambdaContext } from './lambda-event.js';
import { startDrainLoop, type DrainLoopOptions } from './drain-loop.js';

/**
 * Local mode's event source mapping: receives batches from the table queue, invokes the delivery
 * function's own handler with an SQS event, and deletes what it reports as done, as Lambda does
 * with a partial batch response. Failed messages were already given their next due time by the
 * handler (or come back after the visibility timeout if it threw).
 */
function sqsEventOf(messages: readonly ReceivedMessage[]): SQSEvent {
  return {
    Records: messages.map((message) => ({
      messageId: message.messageId,
      receiptHandle: message.receiptHandle,
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: '0',
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: '0',
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'local:table-queue',
      eventSourceARN: 'local:table-queue',
      awsRegion: 'local',
    })),
  };
}

/** Handles every message due now, batch after batch, until none is due; how many were handled and failed. */
export async function drainQueue(queue: TableQueue, options: { maxBatches?: number } = {}): Promise<{ handled: number; failed: number }> {
  let handled = 0;
  let failed = 0;
  for (let batch = 0; batch < (options.maxBatches ?? 1000); batch++) {
    const messages = await queue.receive(10);
    if (messages.length === 0) break;
    let failedIds: Set<string>;
    try {
      const response = await handler(sqsEventOf(messages), buildLambdaContext('delivery', randomUUID()));
      failedIds = new Set(response.batchItemFailures.map((failure) => failure.itemIdentifier));
    } catch {
      // As Lambda: a failed invocation leaves the whole batch to its visibility timeout.
      failedIds = new Set(messages.map((message) => message.messageId));
    }
    for (const message of messages) {
      if (failedIds.has(message.messageId)) failed++;
      else await queue.delete(message.receiptHandle);
    }
    handled += messages.length;
  }
  return { handled, failed };
}

/**
 * `npm start`'s delivery loop: drains on every send and every `pollMs` (retries come due with
 * time, not with sends). Returns a stop function that resolves once the drain under way is done.
 */
export function startDeliveryWorker(queue: TableQueue, options: DrainLoopOptions = {}): () => Promise<void> {
  return startDrainLoop(() => drainQueue(queue), (wake) => queue.onSend(wake), options);
}
