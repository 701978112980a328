import { clock } from '../adapters/clock.js';
import type { DueEntry, TableScheduler } from '../adapters/local/table-scheduler.js';
import { logger } from '../logger.js';
import { getLead } from './lead-store.js';
import { runLeadStep, type StepOutcome } from './step-runner.js';

/**
 * Local mode's lead runner (what EventBridge Scheduler and the runner's queue do in AWS): every
 * second it reads the table scheduler's entries due on the service's clock, runs each through
 * the schedule engine and removes it after. A crash between the run and the removal runs the
 * entry again on the next start; the engine's step-version claim makes that a no-op. An entry
 * whose run fails is removed too (logged): the overdue-step sweeper schedules the lead's step
 * again a few minutes later (shared/leads/overdue-steps.ts), as a retry with a pause instead of
 * a loop failing every second.
 */
export interface RunReport {
  ran: number;
  stale: number;
  missing: number;
  failed: number;
  /** The entries run, in the order they ran. */
  order: Array<{ companyId: number; leadId: number; version: number; outcome: StepOutcome | 'failed' }>;
}

/** Entries read per pass: the earliest due ones. */
export const LOCAL_RUNNER_BATCH = 100;

const dueSecond = (due: DueEntry) => Math.floor(due.dueAt.getTime() / 1000);

/**
 * The order a batch runs in: due time (to the second, the runner's granularity), then
 * `lead_priority` ascending (blank last) among entries due in the same second. Only leads that
 * tie on the second are read for their priority, so a batch of distinct times costs no reads.
 */
export async function runOrder(batch: readonly DueEntry[]): Promise<DueEntry[]> {
  const perSecond = new Map<number, number>();
  for (const due of batch) perSecond.set(dueSecond(due), (perSecond.get(dueSecond(due)) ?? 0) + 1);
  const tied = batch.filter((due) => perSecond.get(dueSecond(due))! > 1);
  const priorities = new Map<DueEntry, number>();
  await Promise.all(
    tied.map(async (due) => {
      const lead = await getLead(due.entry.companyId, due.entry.leadId);
      priorities.set(due, typeof lead?.lead_priority === 'number' ? lead.lead_priority : Number.POSITIVE_INFINITY);
    }),
  );
  const priority = (due: DueEntry) => priorities.get(due) ?? Number.POSITIVE_INFINITY;
  return batch
    .map((due, index) => ({ due, index }))
    .sort((a, b) => dueSecond(a.due) - dueSecond(b.due) || priority(a.due) - priority(b.due) || a.index - b.index)
    .map(({ due }) => due);
}

/** Runs the entries due at `now` (at most `limit`), each once, removing each after its run. */
export async function runDueSteps(scheduler: TableScheduler, now: Date, limit = LOCAL_RUNNER_BATCH): Promise<RunReport> {
  const report: RunReport = { ran: 0, stale: 0, missing: 0, failed: 0, order: [] };
  for (const due of await runOrder(await scheduler.due(now, limit))) {
    let outcome: StepOutcome | 'failed';
    try {
      outcome = await runLeadStep(due.entry, now);
    } catch (error) {
      logger.error('lead step failed; the overdue-step sweeper schedules it again', { entry: due.entry, error });
      outcome = 'failed';
    }
    await scheduler.remove(due);
    report[outcome] += 1;
    report.order.push({ ...due.entry, outcome });
  }
  return report;
}

export interface LocalRunnerOptions {
  pollMs?: number;
  onRun?: (report: RunReport) => void;
  onError?: (error: unknown) => void;
}

export interface LocalRunner {
  /** Resolves once a pass that started after this call has finished (tests wait on it, not on time). */
  pass(): Promise<void>;
  /** Stops polling; resolves when the pass under way is done. */
  stop(): Promise<void>;
}

/**
 * `npm start`'s loop: a pass at start (what came due while the service was down) and every
 * `pollMs` (default a second), on the clock port's time, one pass at a time; a pass that finds a
 * full batch goes on at once.
 */
export function startLocalRunner(scheduler: TableScheduler, options: LocalRunnerOptions = {}): LocalRunner {
  let current: Promise<void> | undefined;
  let stopped = false;
  let waiters: Array<() => void> = [];
  const run = (): void => {
    if (stopped || current) return;
    const finished = waiters;
    waiters = [];
    current = (async () => {
      for (;;) {
        const report = await runDueSteps(scheduler, clock().now());
        if (report.order.length) options.onRun?.(report);
        if (stopped || report.order.length < LOCAL_RUNNER_BATCH) break;
      }
    })()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        current = undefined;
        for (const done of finished) done();
        // Someone asked for a pass while this one ran: it must start after their call.
        if (waiters.length) run();
      });
  };
  const timer = setInterval(run, options.pollMs ?? 1000);
  timer.unref();
  run();
  return {
    pass: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
        if (!current) run();
        if (stopped) resolve();
      }),
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      while (current) await current;
    },
  };
}
