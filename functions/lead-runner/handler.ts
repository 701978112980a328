import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { clock } from '../../shared/adapters/clock.js';
import { importWorkOf, type ImportRef } from '../../shared/contact-imports/import-keys.js';
import type { LeadStepEntry } from '../../shared/leads/lead-record.js';
import { runLeadStep } from '../../shared/leads/step-runner.js';
import { logger } from '../../shared/logger.js';
import { METRIC } from '../../shared/observability/metric-names.js';
import { countMetric } from '../../shared/observability/metrics.js';
import { functionObservability } from '../../shared/observability/middleware.js';

/**
 * The lead runner: runs one lead's schedule step per entry (shared/leads/step-runner.ts), and
 * the contact import steps queued on its steps queue (uploads' arrivals included).
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

/** A queued contact import step (or an upload's arrival), when the message is one. */
function importWorkIn(body: string): ImportRef | undefined {
  try {
    return importWorkOf(JSON.parse(body));
  } catch {
    return undefined;
  }
}

/** Time the runner leaves itself after an import step's budget (the step's last batch, the next messages). */
const IMPORT_MARGIN_MS = 20_000;

/** Runs one step of a contact import (shared/contact-imports/import-work.ts), within what is left of this invocation. */
async function runImportStep(ref: ImportRef, context: Context | undefined): Promise<void> {
  const { advanceImport, backgroundBudgetMs } = await import('../../shared/contact-imports/import-work.js');
  const remaining = context?.getRemainingTimeInMillis?.() ?? Number.POSITIVE_INFINITY;
  const outcome = await advanceImport(ref, { budgetMs: Math.max(0, Math.min(backgroundBudgetMs(), remaining - IMPORT_MARGIN_MS)) });
  logger.info('contact import step', { ...ref, outcome });
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

async function run(entry: LeadStepEntry): Promise<string> {
  const outcome = await runLeadStep(entry, clock().now());
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
      // The same queue carries contact import steps and uploads' arrivals (docs/resources.md, "Contact imports").
      const work = importWorkIn(record.body);
      if (work) {
        try {
          await runImportStep(work, context);
        } catch (error) {
          logger.error('contact import step failed; the queue retries it', { ...work, error });
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
