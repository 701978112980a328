import { randomUUID } from 'node:crypto';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.js';
import { dayOfTime, dayRecordPut } from '../db/day-records.js';
import { timeSortableId } from '../db/ids.js';
import { keys } from '../db/keys.js';
import { queryPages } from '../db/query.js';
import { rollupCellUpdate } from '../db/rollup-update.js';
import type { StoredRecord } from '../db/records.js';
import { rangeMonths } from '../leads/lead-rollups.js';

/**
 * Number impressions: each time a ring pool gives a landing-page visitor a number
 * (`POST /api/v1/ring_pools/{id}/visitor_number`) one entry goes to the `impressions` day log
 * (`GET /api/v1/impressions`) and the day's counter of that pool and number goes up by one
 * (`GET /api/v1/datasets/number_impressions`), both in one transaction written right after
 * the number's hold (the hold is a conditional Put of its own, retried on races).
 */
export const IMPRESSIONS = 'impressions';

export const IMPRESSION_COLUMNS = ['id', 'uuid', 'ring_pool_id', 'phone_number_id', 'number', 'tokens', 'held_until', 'created_at'] as const;

export interface Impression {
  ring_pool_id: number;
  phone_number_id: number;
  number: string;
  tokens: Record<string, string>;
  held_until: string;
}

export async function recordImpression(companyId: number, impression: Impression, now: Date): Promise<void> {
  const entry = {
    id: timeSortableId(now.getTime()),
    uuid: randomUUID(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    ...impression,
  } satisfies StoredRecord;
  const day = dayOfTime(now.getTime());
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: dayRecordPut(companyId, IMPRESSIONS, entry) },
        rollupCellUpdate(keys.impressionRollup(companyId, day, impression.ring_pool_id, impression.number), { impressions: 1 }, {
          day,
          ring_pool_id: String(impression.ring_pool_id),
          phone_number_id: String(impression.phone_number_id),
          number: impression.number,
        }),
      ],
    }),
  );
}

export interface ImpressionRollup {
  day: string;
  ring_pool_id: number;
  phone_number_id: number;
  number: string;
  impressions: number;
}

/** The counters of UTC days `fromDay`..`toDay` (inclusive): one Query per UTC month, never the log. */
export async function impressionRollups(companyId: number, fromDay: string, toDay: string): Promise<ImpressionRollup[]> {
  if (fromDay > toDay) return [];
  const months = rangeMonths(Date.parse(`${fromDay}T00:00:00Z`), Date.parse(`${toDay}T00:00:00Z`));
  const batches = await Promise.all(
    months.map(async (month) => {
      const out: ImpressionRollup[] = [];
      for await (const items of queryPages({
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        // `#` sorts before every digit and `~` after: whole days.
        ExpressionAttributeValues: { ':pk': keys.impressionRollups(companyId, month), ':low': `${fromDay}#`, ':high': `${toDay}#~` },
      })) {
        for (const item of items) {
          out.push({ day: String(item.day), ring_pool_id: Number(item.ring_pool_id), phone_number_id: Number(item.phone_number_id), number: String(item.number), impressions: Number(item.impressions ?? 0) });
        }
      }
      return out;
    }),
  );
  return batches.flat();
}
