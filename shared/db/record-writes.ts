import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../http/errors.js';
import { db, tableName, type TransactItem } from './client.js';
import { keys, type Key } from './keys.js';
import { recordCountChange, withoutKeys, type LookupWrite, type StoredRecord } from './record-items.js';
import { getRecord } from './record-reads.js';

/**
 * Writes of records, each in one transaction with its unique lookups and the record count: a
 * taken unique value is a 409 naming its field, a record gone meanwhile is reported, not written.
 */

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
