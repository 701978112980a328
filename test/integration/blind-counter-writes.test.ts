import { randomInt } from 'node:crypto';
import { TransactionCanceledException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyCounterChange, blindCounterWrite, readCounterItems } from '../../shared/buyers/counters.js';
import { reserveAttempt } from '../fixtures/counters.js';
import { currentCounters, periodKeys, type CounterChange } from '../../shared/buyers/counter-model.js';
import { db, tableName } from '../../shared/db/client.js';

const now = new Date('2026-11-21T05:31:00Z');
const companyId = () => 21_000_000 + randomInt(1_000_000);
const counters = async (company: number, buyer: number, at = now, zone = 'UTC') => currentCounters((await readCounterItems(company, [buyer])).get(buyer), periodKeys(at, zone));

/** A call's save with a blind count riding in it: the blind write beside an item of its own; falls back as the call flow does. */
async function saveWithBlindCount(company: number, buyer: number, change: CounterChange, marker: string, at = now): Promise<'rode' | 'after'> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: tableName, Item: { pk: `T#${company}`, sk: marker } } }, blindCounterWrite(company, buyer, 'UTC', at, change)] }));
    return 'rode';
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    await applyCounterChange(company, buyer, 'UTC', at, change);
    return 'after';
  }
}

describe('blind counter changes (no read first) against DynamoDB Local', () => {
  it('count once each in the current periods, without a read, when the item is there', async () => {
    const company = companyId();
    expect((await reserveAttempt(company, 1, 'UTC', now, { caps: {} })).ok).toBe(true);
    expect((await applyCounterChange(company, 1, 'UTC', now, { increments: { connection: 1 }, concurrency: -1, existingOnly: true })).ok).toBe(true);
    expect(await counters(company, 1)).toMatchObject({ concurrency: 0, connection: { hourly: 1, daily: 1, monthly: 1, total: 1 } });
    // Nothing left to release: a second release changes nothing (the blind condition fails, the item is read).
    expect((await applyCounterChange(company, 1, 'UTC', now, { increments: {}, concurrency: -1 })).ok).toBe(true);
    expect((await counters(company, 1)).concurrency).toBe(0);
  });

  it('re-decide from the item in a new period, and create nothing for a buyer without counters when asked not to', async () => {
    const company = companyId();
    expect((await reserveAttempt(company, 2, 'UTC', now, { caps: {} })).ok).toBe(true);
    const nextHour = new Date(now.getTime() + 3600_000);
    expect(await saveWithBlindCount(company, 2, { increments: { connection: 1 }, existingOnly: true }, 'a', nextHour)).toBe('after');
    expect(await counters(company, 2, nextHour)).toMatchObject({ attempt: { hourly: 0, daily: 1 }, connection: { hourly: 1, daily: 1 } });
    expect(await applyCounterChange(company, 3, 'UTC', now, { increments: { connection: 1 }, existingOnly: true })).toEqual({ ok: false, reason: 'no_counters' });
    expect((await readCounterItems(company, [3])).size).toBe(0);
  });

  it('keep the caps and every count when claims race the calls\' transactions holding the same counter item', async () => {
    const company = companyId();
    const limits = { caps: { attempt: { daily: 30 } }, concurrency: 30 };
    // Seed the item in the current periods, then race 30 claims against 30 answered calls' saves.
    expect((await reserveAttempt(company, 9, 'UTC', now, limits)).ok).toBe(true);
    const [claims, saves] = await Promise.all([
      Promise.all(Array.from({ length: 40 }, () => reserveAttempt(company, 9, 'UTC', now, limits))),
      Promise.all(Array.from({ length: 30 }, (_, index) => saveWithBlindCount(company, 9, { increments: { connection: 1 }, existingOnly: true }, `c${index}`))),
    ]);
    expect(claims.filter((claim) => claim.ok)).toHaveLength(29);
    expect(claims.filter((claim) => !claim.ok).every((claim) => !claim.ok && ['attempt_daily_limit', 'concurrency_cap_limit'].includes(claim.reason))).toBe(true);
    expect(saves).toHaveLength(30);
    expect(await counters(company, 9)).toMatchObject({ concurrency: 30, attempt: { daily: 30 }, connection: { daily: 30, total: 30 } });
  });

  describe('when DynamoDB reports a transaction holding the counter item (TransactionConflictException)', () => {
    // DynamoDB Local runs transactions one at a time and never reports this; real DynamoDB refuses
    // an UpdateItem of an item a transaction is writing at that moment. Injected here.
    afterEach(() => vi.restoreAllMocks());

    function refuseCounterUpdates(times: number) {
      const send = db.send.bind(db) as (command: unknown) => Promise<unknown>;
      let left = times;
      const spy = vi.spyOn(db, 'send').mockImplementation((async (command: unknown) => {
        if (command instanceof UpdateCommand && String((command.input.Key as { sk?: string }).sk).startsWith('stats#') && left > 0) {
          left--;
          throw new TransactionConflictException({ message: 'Transaction is ongoing for the item', $metadata: {} });
        }
        return send(command);
      }) as never);
      return { spy, refused: () => times - left };
    }

    it('a claim is retried and reserves once, within its caps', async () => {
      const company = companyId();
      const limits = { caps: { attempt: { daily: 1 } }, concurrency: 5 };
      const conflicts = refuseCounterUpdates(2);
      expect((await reserveAttempt(company, 4, 'UTC', now, limits)).ok).toBe(true);
      expect(conflicts.refused()).toBe(2);
      vi.restoreAllMocks();
      expect(await counters(company, 4)).toMatchObject({ concurrency: 1, attempt: { daily: 1 } });
      // The cap still holds after the retried claim: a second one is refused.
      expect(await reserveAttempt(company, 4, 'UTC', now, limits)).toMatchObject({ ok: false, reason: 'attempt_daily_limit' });
    });

    it('a blind count is retried and counted once', async () => {
      const company = companyId();
      expect((await reserveAttempt(company, 5, 'UTC', now, { caps: {} })).ok).toBe(true);
      const conflicts = refuseCounterUpdates(1);
      expect((await applyCounterChange(company, 5, 'UTC', now, { increments: { connection: 1 }, concurrency: -1, existingOnly: true })).ok).toBe(true);
      expect(conflicts.refused()).toBe(1);
      vi.restoreAllMocks();
      expect(await counters(company, 5)).toMatchObject({ concurrency: 0, connection: { daily: 1, total: 1 } });
    });
  });
});
