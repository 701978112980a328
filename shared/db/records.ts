import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../http/errors.js';
import { db, tableName, type TransactItem } from './client.js';
import { keys, padId, type Key } from './keys.js';
import { partitionKeyNames, sortKeyNames, tableDesign } from './table-design.js';

/**
 * Storage of configuration records (subscriptions, offers, buyers...): one partition per
 * company and resource, sort key = zero-padded id, ids from a per-company sequence whose item
 * also counts the records (kept in step by the same transactions that create and delete).
 */
export type StoredRecord = Record<string, unknown> & { id: number; uuid: string; created_at: string; updated_at: string };

const KEY_ATTRIBUTES = [...partitionKeyNames, ...sortKeyNames, tableDesign.ttlAttribute];

/** Removes storage-only attributes. */
export function withoutKeys(item: Record<string, unknown>): StoredRecord {
  const copy: Record<string, unknown> = { ...item };
  for (const name of KEY_ATTRIBUTES) delete copy[name];
  return copy as StoredRecord;
}

/**
 * A unique-value lookup item to write with a record; `field` names it in a 409. `attributes`
 * are copied into the item (the routing fields of a tracking number), so a reader of the
 * lookup needs no second read.
 */
export interface LookupWrite {
  key: Key;
  field: string;
  attributes?: Record<string, unknown>;
}

/** The next id of a company's resource (atomic ADD on the sequence item). */
export async function nextId(companyId: number, resource: string): Promise<number> {
  const result = await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.sequence(companyId, resource),
      UpdateExpression: 'ADD #v :one',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.value);
}

/** The transaction item moving a resource's record count (on its sequence item) with a create (+1) or deletes (-1 each). */
export function recordCountChange(companyId: number, resource: string, by: number): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: keys.sequence(companyId, resource),
      UpdateExpression: 'ADD #c :by',
      ExpressionAttributeNames: { '#c': 'count' },
      ExpressionAttributeValues: { ':by': by },
    },
  };
}

/** How many records of the resource the company has (one GetItem on the sequence item). */
export async function countRecords(companyId: number, resource: string): Promise<number> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.sequence(companyId, resource) }));
  return Number(result.Item?.count ?? 0);
}

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

/** Runs a transaction, turning a failed uniqueness condition into a 409 on its field. */
async function transact(items: TransactItem[], conflictFields: Map<number, string>): Promise<void> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      const reasons = error.CancellationReasons ?? [];
      for (const [index, field] of conflictFields) {
        if (reasons[index]?.Code === 'ConditionalCheckFailed') throw new ConflictError(field);
      }
      if (reasons[0]?.Code === 'ConditionalCheckFailed') throw new ConditionalCheckFailedException({ message: 'record condition failed', $metadata: {} });
    }
    throw error;
  }
}

function lookupItem(companyId: number, resource: string, id: number, lookup: LookupWrite): Record<string, unknown> {
  return { ...lookup.attributes, ...lookup.key, company_id: companyId, resource, id };
}

function lookupPuts(companyId: number, resource: string, id: number, lookups: readonly LookupWrite[], offset: number) {
  const items: TransactItem[] = [];
  const conflicts = new Map<number, string>();
  lookups.forEach((lookup, index) => {
    conflicts.set(offset + index, lookup.field);
    items.push({
      Put: {
        TableName: tableName,
        Item: lookupItem(companyId, resource, id, lookup),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  });
  return { items, conflicts };
}

/**
 * Creates a record with its unique lookups and bumps the resource's count, all or nothing.
 * A taken unique value is a 409 naming its field.
 */
export async function createRecord(
  companyId: number,
  resource: string,
  record: StoredRecord,
  lookups: readonly LookupWrite[] = [],
  /** Writes that must happen with the record or not at all (outbox items of its messages, its change log entry). */
  alongside: readonly TransactItem[] = [],
): Promise<void> {
  const puts = lookupPuts(companyId, resource, record.id, lookups, 1);
  await transact(
    [
      {
        Put: {
          TableName: tableName,
          Item: { ...keys.record(companyId, resource, record.id), company_id: companyId, ...record },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...puts.items,
      recordCountChange(companyId, resource, 1),
      ...alongside,
    ],
    puts.conflicts,
  );
}

/**
 * The UpdateExpression setting `changes` (undefined values left out) and removing `remove`, with
 * its names (`#a<n>`, `#r<n>`) and values (`:v<n>`; undefined when nothing is set).
 */
export function setExpression(changes: Record<string, unknown>, remove: readonly string[] = []) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(changes)
    .filter(([, value]) => value !== undefined)
    .map(([name, value], index) => {
      names[`#a${index}`] = name;
      values[`:v${index}`] = value;
      return `#a${index} = :v${index}`;
    });
  const removes = remove.map((name, index) => {
    names[`#r${index}`] = name;
    return `#r${index}`;
  });
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].filter(Boolean).join(' ');
  return { expression, names, values: sets.length ? values : undefined, empty: sets.length === 0 && removes.length === 0 };
}

/**
 * Sets the given attributes (null stores null: a blanked field) on an existing record, moving
 * unique lookups when their values change and re-writing the lookups in `refresh` (whose copied
 * attributes changed), in one transaction. Returns undefined when the record does not exist.
 */
export async function updateRecord(
  companyId: number,
  resource: string,
  id: number,
  changes: Record<string, unknown>,
  lookups: { remove: readonly Key[]; add: readonly LookupWrite[]; refresh?: readonly LookupWrite[] } = { remove: [], add: [] },
  /** Writes that must happen with the change or not at all (outbox items of its messages, its change log entry). */
  alongside: readonly TransactItem[] = [],
  /** Attributes to REMOVE (index entries the record no longer has: a sparse index must not list it). */
  remove: readonly string[] = [],
): Promise<StoredRecord | undefined> {
  const set = setExpression(changes, remove);
  if (set.empty) return getRecord(companyId, resource, id);
  const update = {
    TableName: tableName,
    Key: keys.record(companyId, resource, id),
    UpdateExpression: set.expression,
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: set.names,
    ExpressionAttributeValues: set.values,
  };
  try {
    const refresh = lookups.refresh ?? [];
    if (lookups.remove.length === 0 && lookups.add.length === 0 && refresh.length === 0 && alongside.length === 0) {
      const result = await db.send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' }));
      return result.Attributes ? withoutKeys(result.Attributes) : undefined;
    }
    const puts = lookupPuts(companyId, resource, id, lookups.add, 1);
    await transact(
      [
        { Update: update },
        ...puts.items,
        ...lookups.remove.map((key) => ({ Delete: { TableName: tableName, Key: key } })),
        // The record's own lookups, unconditionally: the Update's condition already proves the record exists.
        ...refresh.map((lookup) => ({ Put: { TableName: tableName, Item: lookupItem(companyId, resource, id, lookup) } })),
        ...alongside,
      ],
      puts.conflicts,
    );
    // Strongly consistent: the answer must show the write it follows (a transaction returns no values).
    const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.record(companyId, resource, id), ConsistentRead: true }));
    return result.Item ? withoutKeys(result.Item) : undefined;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** Deletes a record with its lookups and lowers the count; false when it was already gone. */
export async function deleteRecord(
  companyId: number,
  resource: string,
  id: number,
  lookups: readonly Key[] = [],
  /** Writes that must happen with the delete or not at all (its change log entry). */
  alongside: readonly TransactItem[] = [],
): Promise<boolean> {
  try {
    await transact(
      [
        { Delete: { TableName: tableName, Key: keys.record(companyId, resource, id), ConditionExpression: 'attribute_exists(pk)' } },
        ...lookups.map((key) => ({ Delete: { TableName: tableName, Key: key } })),
        recordCountChange(companyId, resource, -1),
        ...alongside,
      ],
      new Map(),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Deletes records of one resource with their lookups and lowers the count by as many, in one
 * transaction (keep it within DynamoDB's 100 items: two per record with one lookup, plus the
 * count); false, writing nothing, when one of them was gone already or a concurrent transaction
 * held one (the caller may then delete them one at a time with deleteRecord).
 */
export async function deleteRecordsTogether(companyId: number, resource: string, records: ReadonlyArray<{ id: number; lookups: readonly Key[] }>): Promise<boolean> {
  if (!records.length) return true;
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          ...records.flatMap(({ id, lookups }) => [
            { Delete: { TableName: tableName, Key: keys.record(companyId, resource, id), ConditionExpression: 'attribute_exists(pk)' } },
            ...lookups.map((key) => ({ Delete: { TableName: tableName, Key: key } })),
          ]),
          recordCountChange(companyId, resource, -records.length),
        ],
      }),
    );
    return true;
  } catch (error) {
    // Gone, or being deleted by a concurrent transaction: the caller's one-at-a-time deletes settle which.
    const reasons = error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []) : [];
    if (reasons.some((reason) => reason.Code === 'ConditionalCheckFailed' || reason.Code === 'TransactionConflict')) return false;
    throw error;
  }
}

/** Reads that a list made, for the paging measurements in bench/. */
export interface ReadStats {
  queries: number;
  itemsRead: number;
}

export interface RecordPageRequest {
  companyId: number;
  resource: string;
  direction: 'asc' | 'desc';
  /** Stop after this many matching records. */
  limit: number;
  /** Start after this id (exclusive), in the direction of travel. */
  afterId?: number;
  /** Keep only records passing this; the query reads on until `limit` pass or none are left. */
  accept?: (record: StoredRecord) => boolean;
  /**
   * Read only these attributes of each record (a ProjectionExpression; `id` is always read):
   * what a re-ordered or filtered numbered page needs to pick its rows. DynamoDB still charges
   * for the whole items read, but returns, parses and holds only these.
   */
  attributes?: readonly string[];
  /** Stop after this many Query calls (`exhausted` says whether the set ended). */
  maxQueries?: number;
  stats?: ReadStats;
}

/** The largest id a sort key can hold (16 digits). */
const MAX_ID = 10 ** 16 - 1;

/** Items a filtered Query asks for at least, so a sparse filter does not cost a Query per match. */
const FILTERED_MIN_LIMIT = 100;

/**
 * How many items to ask for when `missing` matches are still needed. Unfiltered: exactly that.
 * Filtered: at least a batch, since most items may not match (items read past the page's last
 * record are dropped; the cursor points at the last record returned). None for a whole set: a
 * Limit must fit an int32.
 */
function queryLimit(missing: number, filtered: boolean): number | undefined {
  if (missing > 10_000) return undefined;
  return filtered ? Math.max(missing, FILTERED_MIN_LIMIT) : Math.max(1, missing);
}

/** A ProjectionExpression of `id` and the given attributes, every name a placeholder (`name`, `number` are reserved words). */
function projectionOf(attributes: readonly string[]): { expression: string; names: Record<string, string> } {
  const wanted = [...new Set(['id', ...attributes])];
  return { expression: wanted.map((_, index) => `#p${index}`).join(', '), names: Object.fromEntries(wanted.map((name, index) => [`#p${index}`, name])) };
}

/**
 * Records in id order, reading only as many items as it takes to find `limit` matches: each
 * Query asks for the number still missing, so an unfiltered page reads exactly its records.
 */
export async function queryRecordPage(request: RecordPageRequest): Promise<{ records: StoredRecord[]; exhausted: boolean }> {
  const records: StoredRecord[] = [];
  const pk = keys.resourcePartition(request.companyId, request.resource);
  // Records are exactly the zero-padded ids: the range leaves out companion items (`stats#...`).
  let low = 0;
  let high = MAX_ID;
  if (request.afterId !== undefined) {
    if (request.direction === 'asc') low = request.afterId + 1;
    else high = request.afterId - 1;
  }
  if (low > high) return { records, exhausted: true };
  const projection = request.attributes ? projectionOf(request.attributes) : undefined;
  let startKey: Record<string, unknown> | undefined;
  let queries = 0;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        ExpressionAttributeValues: { ':pk': pk, ':low': padId(low), ':high': padId(high) },
        ...(projection ? { ProjectionExpression: projection.expression, ExpressionAttributeNames: projection.names } : {}),
        ScanIndexForward: request.direction === 'asc',
        Limit: queryLimit(request.limit - records.length, Boolean(request.accept)),
        ExclusiveStartKey: startKey,
      }),
    );
    if (request.stats) {
      request.stats.queries += 1;
      request.stats.itemsRead += page.Items?.length ?? 0;
    }
    for (const item of page.Items ?? []) {
      const record = withoutKeys(item);
      if (!request.accept || request.accept(record)) records.push(record);
      if (records.length >= request.limit) break;
    }
    startKey = page.LastEvaluatedKey;
    queries += 1;
  } while (startKey && records.length < request.limit && queries < (request.maxQueries ?? Number.POSITIVE_INFINITY));
  return { records, exhausted: !startKey && records.length < request.limit };
}

/** Every record of a company's resource, in id order (configuration sets are small). */
export async function queryAllRecords(companyId: number, resource: string, stats?: ReadStats): Promise<StoredRecord[]> {
  const { records } = await queryRecordPage({ companyId, resource, direction: 'asc', limit: Number.MAX_SAFE_INTEGER, stats });
  return records;
}

/**
 * Every record of a company's resource, for picking a page by an order or filters. The first
 * Query reads whole items, as a whole-set read would: a set that fits its response (1 MB of
 * items) is read in that one request and is its own page's rows (`whole`). A larger set goes on
 * from there with projected Queries of `id` and `attributes` only, and the page's rows are read
 * by id afterwards. (DynamoDB charges a projected read for the whole items; the projection saves
 * what is sent, parsed and held, not read units.)
 */
export async function queryRecordsToPick(
  companyId: number,
  resource: string,
  attributes: readonly string[],
  stats?: ReadStats,
): Promise<{ records: Array<Record<string, unknown> & { id: number }>; whole: boolean }> {
  const all = Number.MAX_SAFE_INTEGER;
  const first = await queryRecordPage({ companyId, resource, direction: 'asc', limit: all, maxQueries: 1, stats });
  const last = first.records[first.records.length - 1];
  if (first.exhausted || !last) return { records: first.records, whole: true };
  const rest = await queryRecordPage({ companyId, resource, direction: 'asc', limit: all, afterId: last.id, attributes, stats });
  return { records: [...first.records, ...rest.records], whole: false };
}
