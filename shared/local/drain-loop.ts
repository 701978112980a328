/** Options of a local worker's loop. */
export interface DrainLoopOptions {
  /** How often to drain without a signal: delayed work and retries come due with time, not with sends. */
  pollMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * A local worker's loop (`npm start`'s delivery worker and background work runner): drains at
 * start, whenever `subscribe` signals new work, and every `pollMs`. Never two drains at once;
 * work signalled while a drain ends gets one more pass instead of waiting for the timer. Returns
 * a stop function that resolves once the drain under way is done.
 */
export function startDrainLoop(drain: () => Promise<unknown>, subscribe: (wake: () => void) => () => void, options: DrainLoopOptions = {}): () => Promise<void> {
  let current: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const run = (): void => {
    if (stopped) return;
    if (current) {
      again = true;
      return;
    }
    current = drain()
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
  const unsubscribe = subscribe(run);
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
