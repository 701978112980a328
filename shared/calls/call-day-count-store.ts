import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { dayOfTime, firstIdAt, lastIdAt } from '../db/day-records.js';
import { keys, padId } from '../db/keys.js';
import { dayCountsOf, windowCount, type DayCount, type TimeRange } from './call-day-counts.js';
import { CALLS } from './call-store.js';

/**
 * The day counts of the UTC days `window` touches: one Query of the company's count partition,
 * every shard of those days, summed per day (dayCountsOf). A 30-day window is at most
 * 30 x CALL_DAY_COUNT_SHARDS items of at most about 200 bytes: about 100 KB, 25 read units, one page.
 * Strongly consistent, so a call made just before a list is listed.
 */
export async function readCallDayCounts(companyId: number, window: TimeRange): Promise<Map<string, DayCount>> {
  if (window.toMs < window.fromMs) return new Map();
  const range = keys.callDayCountDays(companyId, dayOfTime(window.fromMs), dayOfTime(window.toMs));
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': range.pk, ':from': range.low, ':to': range.high },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return dayCountsOf(items);
}

/** The calls made in `range` (within one UTC day), counted by a Select COUNT Query of its key range. */
export async function countCallsBetween(companyId: number, range: TimeRange): Promise<number> {
  let total = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        ExpressionAttributeValues: { ':pk': keys.dayPartition(companyId, CALLS, dayOfTime(range.fromMs)), ':low': padId(firstIdAt(range.fromMs)), ':high': padId(lastIdAt(range.toMs)) },
        Select: 'COUNT',
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    total += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return total;
}

/**
 * The calls made in `window`: whole hours from the day counts, the parts of at most two hours the
 * window cuts (its edges) by counting their calls' keys, only when those hours have calls.
 */
export async function countCallsInWindow(companyId: number, counts: ReadonlyMap<string, DayCount>, window: TimeRange, nowMs: number): Promise<number> {
  const { counted, partial } = windowCount(counts, window, nowMs);
  const parts = await Promise.all(partial.map((range) => countCallsBetween(companyId, range)));
  return parts.reduce((sum, part) => sum + part, counted);
}
