import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { allCompanyIds } from '../db/companies.js';
import { db, tableName, type TransactItem } from '../db/client.js';
import { dayOfTime } from '../db/day-records.js';
import { ID_EPOCH_MS } from '../db/ids.js';
import { keys } from '../db/keys.js';
import { CLOCK_SLACK_MS } from '../time.js';
import { dayCountAttributes, shardCountsOfIds, type DayCount } from './call-day-counts.js';
import { CALLS } from './call-store.js';

/**
 * The data migration that counts calls made before the day counts existed (shared/calls/
 * call-day-counts.ts): for every finished UTC day of a company, the day's calls are read (their
 * keys only) and all its count shards are replaced with the exact figures, each call in the shard
 * its id picks, in one transaction (Put of the shards with calls, Delete of the others). Run by
 * `npm run backfill:call-days` (shared/local/backfill-call-days-cli.ts), once after deploying the
 * counts and again after the day of the deploy has ended (that day is not finished during the first run).
 *
 * Idempotent and safe beside live traffic: a finished day gets no new calls (ids carry their
 * creation time; the clock slack is waited out), so writing its exact counts replaces the same
 * figures or the partial ones the deploy day began with. Cost: one Query per company and day since
 * `fromMs` (an empty day is 0.5 read units), reading each call once; one transaction of
 * CALL_DAY_COUNT_SHARDS writes (32 write units) per day with calls.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

/** Days counted at once per company. */
const PARALLEL_DAYS = 8;

export interface BackfillResult {
  days: number;
  calls: number;
}

/** The ids of one day's calls (keys only). */
async function callIdsOfDay(companyId: number, day: string): Promise<number[]> {
  const ids: number[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.dayPartition(companyId, CALLS, day) },
        ProjectionExpression: 'sk',
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) ids.push(Number(item.sk));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return ids;
}

/** Every shard of a day replaced by its exact count: Put when it has calls, Delete when not. */
function shardWrites(companyId: number, day: string, shards: readonly DayCount[]): TransactItem[] {
  return shards.map((count, shard) => {
    const key = keys.callDayCount(companyId, day, shard);
    return count.calls > 0 ? { Put: { TableName: tableName, Item: { ...key, ...dayCountAttributes(count) } } } : { Delete: { TableName: tableName, Key: key } };
  });
}

/** Writes the exact counts of a company's finished days from `fromMs` (default: the id epoch) to `now`. */
export async function backfillCompanyCallDays(companyId: number, now: Date, fromMs = ID_EPOCH_MS): Promise<BackfillResult> {
  const days: string[] = [];
  for (let dayStart = Math.floor(Math.max(fromMs, ID_EPOCH_MS) / DAY_MS) * DAY_MS; dayStart + DAY_MS + CLOCK_SLACK_MS <= now.getTime(); dayStart += DAY_MS) days.push(dayOfTime(dayStart));
  const result: BackfillResult = { days: 0, calls: 0 };
  for (let start = 0; start < days.length; start += PARALLEL_DAYS) {
    await Promise.all(
      days.slice(start, start + PARALLEL_DAYS).map(async (day) => {
        const ids = await callIdsOfDay(companyId, day);
        if (ids.length === 0) return;
        await db.send(new TransactWriteCommand({ TransactItems: shardWrites(companyId, day, shardCountsOfIds(day, ids)) }));
        result.days += 1;
        result.calls += ids.length;
      }),
    );
  }
  return result;
}

/** The backfill of every company (1..n of the company sequence), or of the given ones. */
export async function backfillCallDayCounts(now: Date, options: { companyIds?: readonly number[]; fromMs?: number } = {}): Promise<BackfillResult & { companies: number }> {
  const companies = options.companyIds ?? (await allCompanyIds());
  const total = { companies: companies.length, days: 0, calls: 0 };
  for (const companyId of companies) {
    const result = await backfillCompanyCallDays(companyId, now, options.fromMs);
    total.days += result.days;
    total.calls += result.calls;
  }
  return total;
}
