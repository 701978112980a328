import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DomainEvent, EventsPort } from '../../ports/events.js';

/** Events onto the SQS queue the delivery function reads (its dead-letter queue is in the stack). */
export class SqsEvents implements EventsPort {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async publish(event: DomainEvent): Promise<void> {
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(event),
        MessageAttributes: {
          event: { DataType: 'String', StringValue: event.name },
          company_id: { DataType: 'Number', StringValue: String(event.companyId) },
        },
      }),
    );
  }
}
