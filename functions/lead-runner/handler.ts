import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { clock } from '../../shared/adapters/clock.js';
import { fieldCleanupOf, type FieldCleanupRef } from '../../shared/contact-fields/field-cleanup-plan.js';
import { importWorkOf, type ImportRef } from '../../shared/contact-imports/import-keys.js';
import type { LeadStepEntry } from '../../shared/leads/lead-record.js';
import { lazyModule } from '../../shared/http/lazy-operation.js';
import { logger } from '../../shared/logger.js';
import { METRIC } from '../../shared/observability/metric-names.js';
import { countMetric } from '../../shared/observability/metrics.js';
import { functionObservability } from '../../shared/observability/middleware.js';

/**
 * The lead runner: runs one lead's schedule step per entry (shared/leads/step-runner.ts), and
 * the background work queued on its steps queue: contact import steps (uploads' arrivals
 * included) and deleted contact fields' cleanups.
 * Invoked by EventBridge Scheduler with the entry as the event (asynchronously: a thrown error
 * is retried twice by Lambda, then goes to the runner's dead-letter queue), and by its steps
 * queue for steps due within a minute (SQS event source with partial batch responses: only the
 * failed entries come back, up to the redrive policy's count). Malformed input is logged and
 * dropped: retrying it cannot help.
 */
type RunnerEvent = SQSEvent | Record<string, unknown>;
type RunnerResult = SQSBatchResponse | { outcome: string };

const ID = (value: unknown, min: number): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= min;

/** The entry an event or message body stands for, or undefined when it is not one. Pure. */
export function parseEntry(value: unknown): LeadStepEntry | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { companyId, leadId, version } = value as Record<string, unknown>;
  return ID(companyId, 1) && ID(leadId, 1) && ID(version, 0) ? { companyId, leadId, version } : undefined;
}

function parseBody(body: string): LeadStepEntry | undefined {
  try {
    return parseEntry(JSON.parse(body));
  } catch {
    return undefined;
  }
}

/** Background work queued on the steps queue, when the message is some. */
type QueuedWork = { kind: 'contact_import'; ref: ImportRef } | { kind: 'contact_field_cleanup'; ref: FieldCleanupRef };

/** The background work a message stands for: a contact import step (or an upload's arrival), a contact field's cleanup. */
function queuedWorkIn(body: string): QueuedWork | undefined {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return undefined;
  }
  const cleanup = fieldCleanupOf(message);
  if (cleanup) return { kind: 'contact_field_cleanup', ref: cleanup };
  const imported = importWorkOf(message);
  return imported ? { kind: 'contact_import', ref: imported } : undefined;
}

/** Time the runner leaves itself after a background step's budget (the step's last batch or page, the next messages). */
const BACKGROUND_MARGIN_MS = 20_000;

/** A background step's budget: its own, cut to what is left of this invocation. */
function budgetWithin(own: number, context: Context | undefined): number {
  const remaining = context?.getRemainingTimeInMillis?.() ?? Number.POSITIVE_INFINITY;
  return Math.max(0, Math.min(own, remaining - BACKGROUND_MARGIN_MS));
}

/**
 * Runs one step of background work within what is left of this invocation: a contact import's
 * (shared/contact-imports/import-work.ts) or a deleted contact field's cleanup (shared/contact-fields/field-cleanup.ts).
 */
async function runBackgroundStep(work: QueuedWork, context: Context | undefined): Promise<void> {
  if (work.kind === 'contact_field_cleanup') {
    const { advanceFieldCleanup, cleanupBudgetMs } = await import('../../shared/contact-fields/field-cleanup.js');
    const outcome = await advanceFieldCleanup(work.ref, { budgetMs: budgetWithin(cleanupBudgetMs(), context) });
    logger.info('contact field cleanup step', { ...work.ref, outcome });
    return;
  }
  const { advanceImport, backgroundBudgetMs } = await import('../../shared/contact-imports/import-work.js');
  const outcome = await advanceImport(work.ref, { budgetMs: budgetWithin(backgroundBudgetMs(), context) });
  logger.info('contact import step', { ...work.ref, outcome });
}

function isSqsEvent(event: RunnerEvent): event is SQSEvent {
  return Array.isArray((event as SQSEvent).Records);
}

/**
 * The function's own ARN, which the schedules it makes target (the stack cannot pass a function
 * its own ARN without a cycle): the invoked ARN without a version or alias qualifier.
 */
export function unqualifiedArn(invokedArn: string): string {
  return invokedArn.split(':').slice(0, 7).join(':');
}

/** The step runner and every step's module, evaluated on the first step rather than at cold start (as route groups load their operations). */
const stepRunner = lazyModule(() => import('../../shared/leads/step-runner.js'));

async function run(entry: LeadStepEntry): Promise<string> {
  const outcome = await (await stepRunner()).runLeadStep(entry, clock().now());
  countMetric(METRIC.leadStepsRun);
  logger.info('lead step', { ...entry, outcome });
  return outcome;
}

export const handler = middy<RunnerEvent, RunnerResult, Error, Context>()
  .use(functionObservability())
  .handler(async (event, context) => {
    if (!process.env.LEAD_RUNNER_ARN && context?.invokedFunctionArn) process.env.LEAD_RUNNER_ARN = unqualifiedArn(context.invokedFunctionArn);
    if (!isSqsEvent(event)) {
      const entry = parseEntry(event);
      if (!entry) {
        logger.error('lead runner: not a step entry, dropped', { event });
        return { outcome: 'malformed' };
      }
      return { outcome: await run(entry) };
    }
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      // The same queue carries background work: contact import steps, uploads' arrivals, field cleanups (docs/resources.md).
      const work = queuedWorkIn(record.body);
      if (work) {
        try {
          await runBackgroundStep(work, context);
        } catch (error) {
          logger.error('background step failed; the queue retries it', { kind: work.kind, ...work.ref, error });
          failures.push({ itemIdentifier: record.messageId });
        }
        continue;
      }
      const entry = parseBody(record.body);
      if (!entry) {
        logger.error('lead runner: queued message is not a step entry, dropped', { messageId: record.messageId, body: record.body.slice(0, 500) });
        continue;
      }
      try {
        await run(entry);
      } catch (error) {
        logger.error('lead step failed; the queue retries it', { ...entry, error });
        failures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures: failures };
  });
