import type { TableWork } from '../adapters/local/table-work.js';

/**
 * `npm start`'s background work runner, as the lead runner takes the steps queue in AWS: drains
 * at start-up (what an earlier run queued and did not finish), after every enqueue (once the
 * request that queued it has answered) and every `pollMs` (delayed work and retries come due with
 * time, not with enqueues). Returns a stop function that resolves once the drain under way is done.
 */
export function startBackgroundWorkRunner(work: TableWork, options: { pollMs?: number; onError?: (error: unknown) => void } = {}): () => Promise<void> {
  let current: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const run = (): void => {
    if (stopped) return;
    if (current) {
      // Queued while a drain ends: one more pass, so it does not wait for the timer.
      again = true;
      return;
    }
    current = work
      .drain()
      .then(() => undefined)
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        current = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };
  const unsubscribe = work.onEnqueue(() => setImmediate(run));
  const timer = setInterval(run, options.pollMs ?? 1000);
  timer.unref();
  run();
  return async () => {
    stopped = true;
    unsubscribe();
    clearInterval(timer);
    while (current) await current;
  };
}
