import type { BackgroundWork, BackgroundWorkPort } from '../../ports/background-work.js';
import type { TableQueue } from './table-queue.js';

/** SQS's longest message delay; a longer one is cut to it, as SqsBackgroundWork does. */
const MAX_DELAY_SECONDS = 900;

/**
 * Local background work, as the lead runner's steps queue holds it in AWS: each item is a
 * message of a TableQueue of its own (items of the table, so what was queued survives a restart
 * of `npm start`), visible after its delay on the service's clock. `drain()` runs what is visible
 * now, one message at a time, until none is left (work that queues more work is run too): a run
 * that succeeds deletes its message; one that fails is handed to `onError` and its message comes
 * back after the queue's visibility timeout, and after the queue's maxReceiveCount receives goes
 * to its dead letters (the queue's `redrive()` moves them back). `npm start` drains as soon as
 * something is queued and every second (shared/local/background-work-runner.ts); tests drain
 * when they choose (drainLocalWork), so nothing runs behind their back.
 */
export class TableWork implements BackgroundWorkPort {
  private draining: Promise<number> | undefined;

  constructor(
    readonly queue: TableQueue<BackgroundWork>,
    private readonly run: (work: BackgroundWork) => Promise<void>,
    private readonly onError: (error: unknown, work: BackgroundWork) => void = () => undefined,
  ) {}

  async enqueue(work: BackgroundWork, delaySeconds = 0): Promise<void> {
    await this.queue.send([work], Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.round(delaySeconds))));
  }

  /** Called after every enqueue (`npm start` drains then). */
  onEnqueue(listener: () => void): () => void {
    return this.queue.onSend(listener);
  }

  /** What is queued, waiting or in flight, in the order it was queued (tests). */
  async pending(): Promise<BackgroundWork[]> {
    return (await this.queue.peek()).map((body) => JSON.parse(body) as BackgroundWork);
  }

  /**
   * Runs the work visible now until none is left; the number of items run (failed ones included).
   * A drain of this instance under way is joined, not doubled; another instance (process) draining
   * the same queue never takes the same message (the queue's receive is conditional).
   */
  drain(): Promise<number> {
    if (this.draining) return this.draining;
    const draining = (async () => {
      // Started on the next turn, so `draining` is set before the loop can end.
      await Promise.resolve();
      let ran = 0;
      for (let [message] = await this.queue.receive(1); message; [message] = await this.queue.receive(1)) {
        ran++;
        const work = JSON.parse(message.body) as BackgroundWork;
        try {
          await this.run(work);
          await this.queue.delete(message.receiptHandle);
        } catch (error) {
          // Left to the visibility timeout: the next receive is the retry, or the dead letters.
          this.onError(error, work);
        }
      }
      return ran;
    })();
    this.draining = draining.finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }
}
