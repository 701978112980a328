import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { allCompanyIds } from '../db/companies.js';
import { keys } from '../db/keys.js';
import { queryPages } from '../db/query.js';
import { setExpression } from '../db/records.js';
import { PHONE_NUMBERS } from './lookup.js';
import { numberIndexRepair } from './number-index.js';

/**
 * The data migration that gives tracking numbers stored before the number index existed their
 * index entries (number-index.ts), so a post finds them in their offer's and pool's partitions.
 * Run by `npm run backfill:number-index` (shared/local/backfill-number-index-cli.ts) once after
 * deploying the index.
 *
 * Idempotent and safe beside live traffic: each number's entries are derived from its stored
 * offer_id and ring_pool_id and written only when they differ, on the condition that those two
 * are still what was read (a number changed meanwhile went through the engine, which wrote its
 * own entries: it is left alone). Cost: one Query per company's numbers (1 MB a page, each number
 * read once) and one UpdateItem per number whose entries were missing or wrong; a second run
 * writes nothing.
 */

/** Updates sent at once. */
const PARALLEL_UPDATES = 16;

export interface NumberIndexBackfillResult {
  /** Numbers read. */
  numbers: number;
  /** Numbers whose entries were written. */
  updated: number;
  /** Numbers changed by a write while the backfill ran (that write stored their entries). */
  skipped: number;
}

/** The condition that a field is still what the backfill read (a number, or null / absent). */
function unchanged(field: string, value: unknown, names: Record<string, string>, values: Record<string, unknown>): string {
  names[`#${field}`] = field;
  if (typeof value === 'number') {
    values[`:${field}`] = value;
    return `#${field} = :${field}`;
  }
  values[':null'] = null;
  return `(attribute_not_exists(#${field}) OR #${field} = :null)`;
}

/** Writes one number's entries; false when the number changed (or went) since it was read. */
export async function repairNumberIndex(companyId: number, item: Record<string, unknown>, change: { set: Record<string, string>; remove: string[] }): Promise<boolean> {
  const update = setExpression(change.set, change.remove);
  const names: Record<string, string> = { ...update.names };
  const values: Record<string, unknown> = { ...update.values };
  const condition = ['attribute_exists(pk)', unchanged('offer_id', item.offer_id, names, values), unchanged('ring_pool_id', item.ring_pool_id, names, values)].join(' AND ');
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.record(companyId, PHONE_NUMBERS, Number(item.id)),
        UpdateExpression: update.expression,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Gives one company's numbers their index entries. */
export async function backfillCompanyNumberIndex(companyId: number): Promise<NumberIndexBackfillResult> {
  const result: NumberIndexBackfillResult = { numbers: 0, updated: 0, skipped: 0 };
  for await (const items of queryPages({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.resourcePartition(companyId, PHONE_NUMBERS) }, ConsistentRead: true })) {
    result.numbers += items.length;
    const repairs = items.flatMap((item) => {
      const change = numberIndexRepair(companyId, item);
      return change ? [{ item, change }] : [];
    });
    for (let start = 0; start < repairs.length; start += PARALLEL_UPDATES) {
      const done = await Promise.all(repairs.slice(start, start + PARALLEL_UPDATES).map(({ item, change }) => repairNumberIndex(companyId, item, change)));
      for (const written of done) {
        if (written) result.updated += 1;
        else result.skipped += 1;
      }
    }
  }
  return result;
}

/** The backfill of every company (1..n of the company sequence), or of the given ones. */
export async function backfillNumberIndex(options: { companyIds?: readonly number[] } = {}): Promise<NumberIndexBackfillResult & { companies: number }> {
  const companies = options.companyIds ?? (await allCompanyIds());
  const total = { companies: companies.length, numbers: 0, updated: 0, skipped: 0 };
  for (const companyId of companies) {
    const result = await backfillCompanyNumberIndex(companyId);
    total.numbers += result.numbers;
    total.updated += result.updated;
    total.skipped += result.skipped;
  }
  return total;
}
