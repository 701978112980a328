import type { SQSClient } from '@aws-sdk/client-sqs';
import type { BackgroundWork, BackgroundWorkPort } from '../../ports/background-work.js';

/**
 * Background work in AWS: one message on the lead runner's steps queue (LEAD_STEPS_QUEUE_URL,
 * which every function with the scheduler port may send to), taken by the runner beside its
 * lead steps (functions/lead-runner/handler.ts). A message whose work fails comes back after the
 * queue's visibility timeout, and after its last receive goes to the steps dead-letter queue.
 * The SQS modules are imported on first use, not at init: `client` may be a function making it.
 */
export class SqsBackgroundWork implements BackgroundWorkPort {
  constructor(
    private readonly client: SQSClient | (() => Promise<SQSClient>),
    private readonly queueUrl: string,
  ) {}

  async enqueue(work: BackgroundWork, delaySeconds = 0): Promise<void> {
    const { SendMessageCommand } = await import('@aws-sdk/client-sqs');
    const client = typeof this.client === 'function' ? await this.client() : this.client;
    await client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(work),
        ...(delaySeconds > 0 ? { DelaySeconds: Math.min(900, Math.round(delaySeconds)) } : {}),
      }),
    );
  }
}
