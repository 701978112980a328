import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import type { TransactItem } from '../../shared/db/client.js';
import { retryLogCollision } from '../../shared/resources/change-log.js';

const cancelled = (codes: string[]) => new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });
const entry = (id: number): TransactItem[] => [{ Put: { TableName: 't', Item: { pk: 'p', sk: String(id) } } }];

describe('retryLogCollision', () => {
  it('runs the write again with a new entry when only the entry (the last item) was refused', async () => {
    let made = 0;
    const seen: unknown[] = [];
    const result = await retryLogCollision(
      () => entry(++made),
      async (log) => {
        seen.push(log[0]!.Put!.Item!.sk);
        if (seen.length === 1) throw cancelled(['None', 'None', 'ConditionalCheckFailed']);
        return 'saved';
      },
    );
    expect(result).toBe('saved');
    expect(seen).toEqual(['1', '2']);
  });

  it('does not retry when the change itself was refused, or without an entry, or forever', async () => {
    let calls = 0;
    const failing = (codes: string[], log: () => TransactItem[] = () => entry(1)) =>
      retryLogCollision(log, async () => {
        calls++;
        throw cancelled(codes);
      });
    await expect(failing(['ConditionalCheckFailed', 'None', 'ConditionalCheckFailed'])).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(calls).toBe(1);
    calls = 0;
    await expect(failing(['None', 'ConditionalCheckFailed'], () => [])).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(calls).toBe(1);
    calls = 0;
    await expect(failing(['None', 'ConditionalCheckFailed'])).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(calls).toBe(4);
  });
});
