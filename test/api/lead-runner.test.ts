import { randomUUID } from 'node:crypto';
import type { Context, SQSEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TableScheduler } from '../../shared/adapters/local/table-scheduler.js';
import { setSchedulerPort } from '../../shared/adapters/scheduler.js';
import type { LeadStepEntry } from '../../shared/leads/lead-record.js';
import { runDueSteps, startLocalRunner } from '../../shared/leads/local-runner.js';
import { OVERDUE_GRACE_MS, sweepOverdueSteps } from '../../shared/leads/overdue-steps.js';
import { runLeadStep } from '../../shared/leads/step-runner.js';
import { pinClock, restoreClock, midDayTomorrow } from '../fixtures/clock.js';
import { createTestCompany } from '../fixtures/company.js';
import { storeLead } from '../fixtures/stored-leads.js';

// The schedule engine is built on another branch: here its contract is played by a mock, so these
// tests cover the runner's mechanics (what runs, when, in which order, once, and what is removed).
vi.mock('../../shared/leads/step-runner.js', () => ({ runLeadStep: vi.fn() }));
const engine = vi.mocked(runLeadStep);

const ran = () => engine.mock.calls.map(([entry]) => entry);

/** A scheduler of its own per test: nothing left by another test is due. */
const freshScheduler = () => new TableScheduler(`runner-test-${randomUUID()}`);

beforeEach(() => {
  engine.mockReset();
  engine.mockResolvedValue('ran');
});

describe('local runner', () => {
  it('runs what is due, each once, earliest first, and removes it; later entries wait', async () => {
    const scheduler = freshScheduler();
    const t = midDayTomorrow();
    const at = (seconds: number) => new Date(t.getTime() + seconds * 1000);
    const a = { companyId: 1, leadId: 11, version: 1 };
    const b = { companyId: 1, leadId: 12, version: 4 };
    const later = { companyId: 1, leadId: 13, version: 1 };
    await scheduler.schedule(b, at(30));
    await scheduler.schedule(a, at(10));
    await scheduler.schedule(later, at(120));
    engine.mockImplementation(async (entry) => (entry.leadId === 12 ? 'stale' : 'ran'));

    const report = await runDueSteps(scheduler, at(60));
    expect(ran()).toEqual([a, b]);
    expect(report).toMatchObject({ ran: 1, stale: 1, missing: 0, failed: 0 });
    expect(report.order.map((entry) => entry.outcome)).toEqual(['ran', 'stale']);
    expect((await scheduler.pending()).map((due) => due.entry)).toEqual([later]);

    // Run again at the same time: nothing runs twice.
    expect((await runDueSteps(scheduler, at(60))).order).toEqual([]);
    expect(engine).toHaveBeenCalledTimes(2);
    // The engine gets the runner's time, not the entry's.
    expect(engine.mock.calls[0]![1]).toEqual(at(60));
  });

  it('orders entries due in the same second by lead_priority (lower first, blank last)', async () => {
    const company = await createTestCompany('runner-priority');
    const t = midDayTomorrow();
    const low = await storeLead(company.id, t, { lead_priority: 1 });
    const high = await storeLead(company.id, t, { lead_priority: 9 });
    const blank = await storeLead(company.id, t);
    const scheduler = freshScheduler();
    const due = new Date(t.getTime() + 5_000);
    for (const lead of [blank, high, low]) await scheduler.schedule({ companyId: company.id, leadId: lead.id, version: 1 }, new Date(due.getTime() + (lead === blank ? 0 : lead === high ? 100 : 900)));
    await runDueSteps(scheduler, new Date(due.getTime() + 1_000));
    expect(ran().map((entry) => entry.leadId)).toEqual([low.id, high.id, blank.id]);
  });

  it('removes and reports a failed run instead of retrying it every second', async () => {
    const scheduler = freshScheduler();
    const t = midDayTomorrow();
    await scheduler.schedule({ companyId: 1, leadId: 21, version: 1 }, t);
    engine.mockRejectedValueOnce(new Error('engine down'));
    const report = await runDueSteps(scheduler, t);
    expect(report.failed).toBe(1);
    expect(await scheduler.pending()).toEqual([]);
  });

  it('restarted mid-wait, runs the step once its time has come on the clock', async () => {
    const scheduler = freshScheduler();
    const t = midDayTomorrow();
    const entry = { companyId: 1, leadId: 31, version: 2 };
    pinClock(t);
    try {
      await scheduler.schedule(entry, new Date(t.getTime() + 2 * 3_600_000));
      const first = startLocalRunner(scheduler, { pollMs: 60_000 });
      await first.pass();
      expect(engine).not.toHaveBeenCalled();
      await first.stop();

      // Down while the wait ends; the new process runs it on its first pass.
      pinClock(new Date(t.getTime() + 2 * 3_600_000 + 1_000));
      const reports: number[] = [];
      const second = startLocalRunner(scheduler, { pollMs: 60_000, onRun: (report) => reports.push(report.ran) });
      await second.pass();
      await second.pass();
      await second.stop();
      expect(ran()).toEqual([entry]);
      expect(reports).toEqual([1]);
      expect(await scheduler.pending()).toEqual([]);
    } finally {
      restoreClock();
    }
  });
});

describe('overdue-step recovery sweeper', () => {
  it('schedules again, for now and with the same version, the active leads overdue past the grace period', async () => {
    const company = await createTestCompany('runner-overdue');
    const now = midDayTomorrow();
    const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
    const overdue = await storeLead(company.id, now, { phase: 'actions', next_action_at: ago(OVERDUE_GRACE_MS + 60_000), step_version: 7 });
    // Late, but within the grace period: its own fire may still come.
    await storeLead(company.id, now, { phase: 'actions', next_action_at: ago(60_000), step_version: 2 });
    // Ended: not waiting (and not on the index).
    await storeLead(company.id, now, { status: 'completed', phase: null, next_action_at: null });
    const scheduler = freshScheduler();
    setSchedulerPort(scheduler);
    try {
      const result = await sweepOverdueSteps(now, [company.id]);
      expect(result.rescheduled).toEqual([{ companyId: company.id, leadId: overdue.id, version: 7 }]);
      const pending = await scheduler.pending();
      expect(pending.map((due) => due.entry)).toEqual([{ companyId: company.id, leadId: overdue.id, version: 7 }]);
      expect(pending[0]!.dueAt).toEqual(now);
    } finally {
      setSchedulerPort();
    }
  });
});

describe('lead runner function', () => {
  const context = { invokedFunctionArn: 'arn:aws:lambda:us-east-1:111122223333:function:runner:live', functionName: 'runner', awsRequestId: 'r' } as unknown as Context;
  const sqsEvent = (bodies: string[]): SQSEvent =>
    ({ Records: bodies.map((body, index) => ({ messageId: `m${index}`, receiptHandle: `h${index}`, body, attributes: { ApproximateReceiveCount: '1' } })) }) as unknown as SQSEvent;

  it('runs a Scheduler fire (the entry as the event) and drops a malformed one without failing', async () => {
    const { handler } = await import('../../functions/lead-runner/handler.js');
    const entry: LeadStepEntry = { companyId: 3, leadId: 44, version: 5 };
    expect(await handler(entry as never, context)).toEqual({ outcome: 'ran' });
    expect(await handler({ companyId: 3, leadId: 'x' } as never, context)).toEqual({ outcome: 'malformed' });
    expect(ran()).toEqual([entry]);
    // Schedules the runner makes target itself: its ARN from the context, qualifier dropped.
    expect(process.env.LEAD_RUNNER_ARN).toBe('arn:aws:lambda:us-east-1:111122223333:function:runner');
  });

  it('reports only the queued steps that failed; malformed messages are dropped, not retried', async () => {
    const { handler } = await import('../../functions/lead-runner/handler.js');
    engine.mockImplementation(async (entry) => {
      if (entry.leadId === 2) throw new Error('engine down');
      return 'ran';
    });
    const response = await handler(
      sqsEvent([JSON.stringify({ companyId: 1, leadId: 1, version: 1 }), JSON.stringify({ companyId: 1, leadId: 2, version: 1 }), 'not json', JSON.stringify({ companyId: -1, leadId: 3, version: 1 })]) as never,
      context,
    );
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect(ran().map((entry) => entry.leadId)).toEqual([1, 2]);
  });
});
