import type { BackgroundWork, BackgroundWorkPort } from '../../ports/background-work.js';

/**
 * Local background work: queued in memory and run in this process by `drain()`, one item at a
 * time, until nothing is left (work that queues more work is run too). `npm start` drains as
 * soon as something is queued (onEnqueue); tests drain when they choose, so nothing runs behind
 * their back. Delays are not kept: the work runs at the next drain. Work in memory is lost with
 * the process (an import then stays `in_progress` until the client resumes it); a failure is
 * handed to `onError` and not retried.
 */
export class InProcessWork implements BackgroundWorkPort {
  private readonly queued: BackgroundWork[] = [];
  private readonly listeners = new Set<() => void>();
  private draining: Promise<number> | undefined;

  constructor(
    private readonly run: (work: BackgroundWork) => Promise<void>,
    private readonly onError: (error: unknown, work: BackgroundWork) => void = () => undefined,
  ) {}

  async enqueue(work: BackgroundWork): Promise<void> {
    this.queued.push(work);
    for (const listener of this.listeners) listener();
  }

  /** Called after every enqueue (`npm start` drains then). */
  onEnqueue(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** What is waiting (tests). */
  pending(): readonly BackgroundWork[] {
    return [...this.queued];
  }

  /** Runs queued work until none is left; the number of items run. A drain under way is joined, not doubled. */
  drain(): Promise<number> {
    if (this.draining) return this.draining;
    const draining = (async () => {
      // Started on the next turn, so `draining` is set before the loop can end.
      await Promise.resolve();
      let ran = 0;
      for (let work = this.queued.shift(); work; work = this.queued.shift()) {
        ran++;
        const current = work;
        await this.run(current).catch((error: unknown) => this.onError(error, current));
      }
      return ran;
    })();
    this.draining = draining.finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }
}
