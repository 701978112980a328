import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { keys, type Key } from './keys.js';
import { withoutKeys, type StoredRecord } from './record-items.js';

/** Reads of records and lookup items by key: one GetItem, or BatchGetItem in batches side by side. */

export async function getRecord(companyId: number, resource: string, id: number): Promise<StoredRecord | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.record(companyId, resource, id) }));
  return result.Item ? withoutKeys(result.Item) : undefined;
}

/** Reads the lookup item of a unique value; undefined when nothing holds it. */
export async function getLookup(key: Key): Promise<{ company_id: number; id: number } | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: key }));
  return result.Item ? { company_id: Number(result.Item.company_id), id: Number(result.Item.id) } : undefined;
}

/**
 * The items that exist among `itemKeys`, in no particular order (BatchGetItem, 100 a call).
 * `consistent`: strongly consistent reads (twice the read units), for an item a step must see as
 * the previous step left it (a call between its webhooks).
 */
export async function getItems(itemKeys: readonly Key[], options: { consistent?: boolean } = {}): Promise<Record<string, unknown>[]> {
  // BatchGetItem takes 100 keys: the batches go out side by side (one round trip up to 2,500
  // keys; a bigger read goes in waves so one request cannot open hundreds of connections), each
  // retrying its own unprocessed keys with backoff.
  const batches: Array<readonly Key[]> = [];
  for (let start = 0; start < itemKeys.length; start += 100) batches.push(itemKeys.slice(start, start + 100));
  const items: Record<string, unknown>[] = [];
  for (let start = 0; start < batches.length; start += BATCHES_AT_ONCE) {
    for (const found of await Promise.all(batches.slice(start, start + BATCHES_AT_ONCE).map((batch) => getBatch(batch, options.consistent === true)))) items.push(...found);
  }
  return items;
}

/** BatchGetItems in flight at once for one read. */
const BATCHES_AT_ONCE = 25;

async function getBatch(batch: readonly Key[], consistent: boolean): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let requestKeys: Record<string, unknown>[] | undefined = [...batch];
  for (let attempt = 0; requestKeys?.length && attempt < 8; attempt++) {
    const result = await db.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: requestKeys, ...(consistent ? { ConsistentRead: true } : {}) } } }));
    items.push(...(result.Responses?.[tableName] ?? []));
    requestKeys = result.UnprocessedKeys?.[tableName]?.Keys as Record<string, unknown>[] | undefined;
    if (requestKeys?.length) await new Promise((done) => setTimeout(done, 25 * 2 ** attempt));
  }
  if (requestKeys?.length) throw new Error('BatchGetItem left keys unprocessed');
  return items;
}

/** Records by id, in the order asked, skipping ids that do not exist (BatchGetItem, 100 a call). */
export async function getRecords(companyId: number, resource: string, ids: readonly number[]): Promise<StoredRecord[]> {
  const unique = [...new Set(ids)];
  const found = new Map<number, StoredRecord>();
  for (const item of await getItems(unique.map((id) => keys.record(companyId, resource, id)))) {
    const record = withoutKeys(item);
    found.set(record.id, record);
  }
  return ids.flatMap((id) => {
    const record = found.get(id);
    return record ? [record] : [];
  });
}
