import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { dayOfTime } from '../db/day-records.js';
import { keys } from '../db/keys.js';
import { queryPages } from '../db/query.js';

/**
 * Charges of billed API features, summed per company, UTC day and kind: each charged request
 * adds its amount and one to the count of that day's item with one atomic UpdateItem (DynamoDB
 * adds numbers in decimal, so 0.0002 a request sums exactly). No item per request is kept.
 */
// Data appends are charged per data type requested (shared/data-appends/prices.ts): one kind each.
export const CHARGE_KINDS = ['advanced_call_analysis', 'data_append_caller_name', 'data_append_carrier_type', 'data_append_address', 'data_append_demographics'] as const;
export type ChargeKind = (typeof CHARGE_KINDS)[number];

/** Default rate of `GET /api/v1/calls/:id/events` (reference, Limits). */
export const ADVANCED_CALL_ANALYSIS_RATE = 0.0002;

export interface ChargeRollup {
  day: string;
  kind: string;
  count: number;
  amount: number;
  created_at: string;
  updated_at: string;
}

export async function recordCharge(companyId: number, kind: ChargeKind, amount: number, at: Date): Promise<void> {
  const now = at.toISOString();
  const day = dayOfTime(at.getTime());
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.chargeRollup(companyId, day, kind),
      UpdateExpression: 'ADD #count :one, #amount :amount SET #day = :day, #kind = :kind, #created = if_not_exists(#created, :now), #updated = :now',
      ExpressionAttributeNames: { '#count': 'count', '#amount': 'amount', '#day': 'day', '#kind': 'kind', '#created': 'created_at', '#updated': 'updated_at' },
      ExpressionAttributeValues: { ':one': 1, ':amount': amount, ':day': day, ':kind': kind, ':now': now },
    }),
  );
}

/** The rollups of days `fromDay`..`toDay` (inclusive, YYYY-MM-DD), newest day first: one Query. */
export async function chargeRollups(companyId: number, fromDay: string, toDay: string): Promise<ChargeRollup[]> {
  const rollups: ChargeRollup[] = [];
  const pages = queryPages({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
    // `#` sorts before every kind's first letter and `~` after it: whole days.
    ExpressionAttributeValues: { ':pk': keys.chargeRollups(companyId), ':low': `${fromDay}#`, ':high': `${toDay}#~` },
    ScanIndexForward: false,
  });
  for await (const items of pages) {
    for (const item of items) {
      rollups.push({
        day: String(item.day),
        kind: String(item.kind),
        count: Number(item.count ?? 0),
        amount: Number(item.amount ?? 0),
        created_at: String(item.created_at),
        updated_at: String(item.updated_at),
      });
    }
  }
  return rollups;
}
