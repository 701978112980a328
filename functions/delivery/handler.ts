import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { deliverBatch } from '../../shared/events/delivery.js';
import { functionObservability } from '../../shared/observability/middleware.js';

/**
 * The delivery function: reads the events queue in batches (SQS event source with
 * ReportBatchItemFailures), so only the messages that failed come back, each after the delay of
 * its next attempt (shared/events/delivery.ts). Local mode calls this same handler.
 */
export const handler = middy<SQSEvent, SQSBatchResponse>()
  .use(functionObservability())
  .handler(async (event) => {
    const failed = await deliverBatch(
      event.Records.map((record) => ({
        messageId: record.messageId,
        receiptHandle: record.receiptHandle,
        body: record.body,
        receiveCount: Number(record.attributes.ApproximateReceiveCount ?? 1),
      })),
    );
    return { batchItemFailures: failed.map((messageId) => ({ itemIdentifier: messageId })) };
  });
