import type { TableWork } from '../adapters/local/table-work.js';
import { startDrainLoop, type DrainLoopOptions } from './drain-loop.js';

/**
 * `npm start`'s background work runner, as the lead runner takes the steps queue in AWS: drains
 * at start-up (what an earlier run queued and did not finish), after every enqueue (once the
 * request that queued it has answered) and every `pollMs` (delayed work and retries come due with
 * time, not with enqueues). Returns a stop function that resolves once the drain under way is done.
 */
export function startBackgroundWorkRunner(work: TableWork, options: DrainLoopOptions = {}): () => Promise<void> {
  return startDrainLoop(() => work.drain(), (wake) => work.onEnqueue(() => setImmediate(wake)), options);
}
