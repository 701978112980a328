import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBackgroundWork } from '../../shared/adapters/background-work.js';
import { TableQueue } from '../../shared/adapters/local/table-queue.js';
import { TableWork } from '../../shared/adapters/local/table-work.js';
import { startBackgroundWorkRunner } from '../../shared/local/background-work-runner.js';
import { STEP_MAX_RECEIVES, STEPS_VISIBILITY_TIMEOUT_SECONDS } from '../../shared/adapters/steps-queue.js';
import type { BackgroundWork } from '../../shared/ports/background-work.js';
import { midDayTomorrow, pinClock, restoreClock } from '../fixtures/clock.js';

/**
 * Local background work through DynamoDB Local: the lead runner's steps queue's semantics (a
 * queue that outlives the process, delays, retries after the visibility timeout, dead letters
 * after maxReceiveCount, one taker per message).
 */
afterEach(() => restoreClock());

const stepOf = (importId: number): BackgroundWork => ({ kind: 'contact_import', companyId: 1, importId });
type Run = (work: BackgroundWork) => Promise<void>;
/** The id a work item names (these tests queue imports). */
const idOf = (work: BackgroundWork) => (work.kind === 'contact_import' ? work.importId : work.fieldId);
/** A work adapter on queue `name` with the stack's counts, as a process (a new one after a restart) makes it. */
const workOn = (name: string, run: Run, onError?: (error: unknown) => void) =>
  new TableWork(new TableQueue<BackgroundWork>({ name, visibilityTimeoutSeconds: STEPS_VISIBILITY_TIMEOUT_SECONDS, maxReceiveCount: STEP_MAX_RECEIVES }), run, onError);
const newQueueName = () => `it-work-${randomUUID()}`;

describe('local background work', () => {
  it('is made on a queue of the table with the steps queue’s visibility timeout and maxReceiveCount', () => {
    const work = createBackgroundWork({ SCHEDULER_ADAPTER: 'local', LOCAL_WORK_QUEUE_NAME: 'named' });
    expect(work).toBeInstanceOf(TableWork);
    expect((work as TableWork).queue.options).toEqual({ name: 'named', visibilityTimeoutSeconds: STEPS_VISIBILITY_TIMEOUT_SECONDS, maxReceiveCount: STEP_MAX_RECEIVES });
  });

  it('queued by one instance is run by a new one (a restart), once', async () => {
    const name = newQueueName();
    const ranBefore: number[] = [];
    const before = workOn(name, async (work) => void ranBefore.push(idOf(work)));
    await before.enqueue(stepOf(1));
    await before.enqueue(stepOf(2));
    const ranAfter: number[] = [];
    const after = workOn(name, async (work) => void ranAfter.push(idOf(work)));
    expect(await after.pending()).toEqual([stepOf(1), stepOf(2)]);
    expect(await after.drain()).toBe(2);
    expect(ranAfter.sort()).toEqual([1, 2]);
    expect(await before.drain()).toBe(0);
    expect(ranBefore).toEqual([]);
    expect(await after.pending()).toEqual([]);
  });

  it('delayed is not run before its time, and is run once the clock has moved past it', async () => {
    const start = midDayTomorrow().getTime();
    pinClock(new Date(start));
    const ran: number[] = [];
    const work = workOn(newQueueName(), async (step) => void ran.push(idOf(step)));
    await work.enqueue(stepOf(1), 30);
    expect(await work.drain()).toBe(0);
    pinClock(new Date(start + 29_000));
    expect(await work.drain()).toBe(0);
    expect(ran).toEqual([]);
    pinClock(new Date(start + 30_500));
    expect(await work.drain()).toBe(1);
    expect(ran).toEqual([1]);
  });

  it('that fails is retried after the visibility timeout, and after maxReceiveCount receives goes to the dead letters', async () => {
    let at = midDayTomorrow().getTime();
    pinClock(new Date(at));
    const errors: unknown[] = [];
    let attempts = 0;
    const work = workOn(
      newQueueName(),
      async () => {
        attempts++;
        throw new Error('step failed');
      },
      (error) => errors.push(error),
    );
    await work.enqueue(stepOf(7));
    for (let receive = 1; receive <= STEP_MAX_RECEIVES; receive++) {
      expect(await work.drain(), `receive ${receive}`).toBe(1);
      // Invisible until the visibility timeout has passed.
      pinClock(new Date(at + (STEPS_VISIBILITY_TIMEOUT_SECONDS - 1) * 1000));
      expect(await work.drain()).toBe(0);
      at += (STEPS_VISIBILITY_TIMEOUT_SECONDS + 1) * 1000;
      pinClock(new Date(at));
    }
    expect(await work.drain()).toBe(0);
    expect(attempts).toBe(STEP_MAX_RECEIVES);
    expect(errors).toHaveLength(STEP_MAX_RECEIVES);
    expect(await work.pending()).toEqual([]);
    expect((await work.queue.deadLetters()).map((letter) => ({ work: JSON.parse(letter.body), receiveCount: letter.receiveCount }))).toEqual([
      { work: stepOf(7), receiveCount: STEP_MAX_RECEIVES },
    ]);
    // Redriven, it runs again.
    expect(await work.queue.redrive()).toBe(1);
    expect(await work.drain()).toBe(1);
    expect(attempts).toBe(STEP_MAX_RECEIVES + 1);
  });

  it('drained by two instances at once runs every item exactly once', async () => {
    const name = newQueueName();
    const ran: number[] = [];
    const run: Run = async (work) => {
      ran.push(idOf(work));
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    const [one, two] = [workOn(name, run), workOn(name, run)];
    for (let importId = 1; importId <= 12; importId++) await one.enqueue(stepOf(importId));
    const [byOne, byTwo] = await Promise.all([one.drain(), two.drain()]);
    expect(byOne + byTwo).toBe(12);
    expect(ran.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
  });

  it('drained runs work queued by work in the same drain, reports a failure and runs the rest; a drain under way is joined', async () => {
    const ran: number[] = [];
    const errors: unknown[] = [];
    const local: TableWork = workOn(
      newQueueName(),
      async (work) => {
        ran.push(idOf(work));
        if (idOf(work) === 1) await local.enqueue(stepOf(3));
        if (idOf(work) === 2) throw new Error('step failed');
      },
      (error) => errors.push(error),
    );
    await local.enqueue(stepOf(1));
    await local.enqueue(stepOf(2));
    expect(ran).toEqual([]);
    const [first, joined] = [local.drain(), local.drain()];
    expect(await first).toBe(3);
    expect(await joined).toBe(3);
    expect(ran).toEqual([1, 2, 3]);
    expect(errors).toHaveLength(1);
    expect(await local.drain()).toBe(0);
    // The failed one waits for its retry.
    expect(await local.pending()).toEqual([stepOf(2)]);
  });

  it('run by npm start’s runner: what was queued before it started at once, then what is queued as it comes', async () => {
    const name = newQueueName();
    const ran: number[] = [];
    const run: Run = async (work) => void ran.push(idOf(work));
    await workOn(name, run).enqueue(stepOf(1));
    const work = workOn(name, run);
    const stop = startBackgroundWorkRunner(work, { pollMs: 60_000 });
    try {
      await vi.waitFor(() => expect(ran).toEqual([1]), { timeout: 5000 });
      await work.enqueue(stepOf(2));
      await vi.waitFor(() => expect(ran).toEqual([1, 2]), { timeout: 5000 });
    } finally {
      await stop();
    }
    expect(await work.pending()).toEqual([]);
  });
});
