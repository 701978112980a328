import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import { rangePartitions, type TimeRange } from './report-aggregation.js';
import { categoryItems, storedCategoriesOf, type ReportCategory, type RollupItem } from './rollups.js';

/**
 * Reads the rollup cells of one category for a range: one Query per UTC day partition (its
 * sort keys are `<HH>#<kind>#<value>`, so the key condition narrows the first and last day
 * to the hours in range and a filter keeps the kinds the category is read from), never the calls
 * themselves.
 */
const PARALLEL_DAYS = 8;

async function queryDay(companyId: number, day: string, firstHour: string, lastHour: string, kinds: readonly string[]): Promise<RollupItem[]> {
  const items: RollupItem[] = [];
  const whole = firstHour === '00' && lastHour === '23';
  const bounds = keys.callRollupHours(companyId, day, firstHour, lastHour);
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: whole ? '#pk = :pk' : '#pk = :pk AND #sk BETWEEN :low AND :high',
        FilterExpression: `#category IN (${kinds.map((_, index) => `:k${index}`).join(', ')})`,
        ExpressionAttributeNames: { '#pk': 'pk', '#category': 'category', ...(whole ? {} : { '#sk': 'sk' }) },
        ExpressionAttributeValues: {
          ':pk': bounds.pk,
          ...Object.fromEntries(kinds.map((kind, index) => [`:k${index}`, kind])),
          ...(whole ? {} : { ':low': bounds.low, ':high': bounds.high }),
        },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) items.push(item as RollupItem);
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Every cell of `category` whose UTC hour starts within the range, as categoryItems reads the stored ones. */
export async function queryRollups(companyId: number, range: TimeRange, category: ReportCategory): Promise<RollupItem[]> {
  const partitions = rangePartitions(range);
  const kinds = storedCategoriesOf(category);
  const out: RollupItem[] = [];
  for (let start = 0; start < partitions.length; start += PARALLEL_DAYS) {
    const batch = await Promise.all(partitions.slice(start, start + PARALLEL_DAYS).map((p) => queryDay(companyId, p.day, p.firstHour, p.lastHour, kinds)));
    for (const items of batch) out.push(...items);
  }
  return categoryItems(out, category);
}
