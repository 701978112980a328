import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { allCompanyIds } from '../db/companies.js';
import { db, tableName } from '../db/client.js';
import { dayOfTime } from '../db/day-records.js';
import { ID_EPOCH_MS, timeOfId } from '../db/ids.js';
import { keys } from '../db/keys.js';
import { CLOCK_SLACK_MS } from '../time.js';
import { dayCountAttributes, dayCountOfTimes } from './call-day-counts.js';
import { CALLS } from './call-store.js';

/**
 * The data migration that counts calls made before the day counts existed (shared/calls/
 * call-day-counts.ts): for every finished UTC day of a company, the day's calls are read (their
 * keys only) and its count item is written with the exact figures. Run by
 * `npm run backfill:call-days` (shared/local/backfill-call-days-cli.ts), once after deploying the
 * counts and again after the day of the deploy has ended (that day is not finished during the first run).
 *
 * Idempotent and safe beside live traffic: a finished day gets no new calls (ids carry their
 * creation time; the clock slack is waited out), so writing its exact count replaces the same
 * figure or the partial one the deploy day began with. Cost: one Query per company and day since
 * `fromMs` (an empty day is 0.5 read units), reading each call once; one PutItem per day with calls.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

/** Days counted at once per company. */
const PARALLEL_DAYS = 8;

export interface BackfillResult {
  days: number;
  calls: number;
}

/** The creation times of one day's calls (keys only). */
async function callTimesOfDay(companyId: number, day: string): Promise<number[]> {
  const times: number[] = [];
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
    for (const item of page.Items ?? []) times.push(timeOfId(Number(item.sk)));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return times;
}

/** Writes the exact counts of a company's finished days from `fromMs` (default: the id epoch) to `now`. */
export async function backfillCompanyCallDays(companyId: number, now: Date, fromMs = ID_EPOCH_MS): Promise<BackfillResult> {
  const days: string[] = [];
  for (let dayStart = Math.floor(Math.max(fromMs, ID_EPOCH_MS) / DAY_MS) * DAY_MS; dayStart + DAY_MS + CLOCK_SLACK_MS <= now.getTime(); dayStart += DAY_MS) days.push(dayOfTime(dayStart));
  const result: BackfillResult = { days: 0, calls: 0 };
  for (let start = 0; start < days.length; start += PARALLEL_DAYS) {
    await Promise.all(
      days.slice(start, start + PARALLEL_DAYS).map(async (day) => {
        const times = await callTimesOfDay(companyId, day);
        if (times.length === 0) return;
        await db.send(new PutCommand({ TableName: tableName, Item: { ...keys.callDayCount(companyId, day), ...dayCountAttributes(dayCountOfTimes(day, times)) } }));
        result.days += 1;
        result.calls += times.length;
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
