import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { keys } from './keys.js';

/**
 * Storage of configuration records (subscriptions, offers, buyers...): one partition per
 * company and resource, sort key = zero-padded id, ids from a per-company sequence.
 */
export type StoredRecord = Record<string, unknown> & { id: number; uuid: string; created_at: string; updated_at: string };

const KEY_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'expires_at'];

/** Removes storage-only attributes. */
export function withoutKeys(item: Record<string, unknown>): StoredRecord {
  const copy: Record<string, unknown> = { ...item };
  for (const name of KEY_ATTRIBUTES) delete copy[name];
  return copy as StoredRecord;
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

export async function getRecord(companyId: number, resource: string, id: number): Promise<StoredRecord | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.record(companyId, resource, id) }));
  return result.Item ? withoutKeys(result.Item) : undefined;
}

export async function putNewRecord(companyId: number, resource: string, record: StoredRecord): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...keys.record(companyId, resource, record.id), company_id: companyId, ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/**
 * Sets the given attributes (null stores null: a blanked field) on an existing record.
 * Returns undefined when the record does not exist.
 */
export async function updateRecord(
  companyId: number,
  resource: string,
  id: number,
  changes: Record<string, unknown>,
): Promise<StoredRecord | undefined> {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return getRecord(companyId, resource, id);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = entries.map(([name, value], index) => {
    names[`#a${index}`] = name;
    values[`:v${index}`] = value;
    return `#a${index} = :v${index}`;
  });
  try {
    const result = await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.record(companyId, resource, id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes ? withoutKeys(result.Attributes) : undefined;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** Deletes a record; returns what was deleted, or undefined when there was nothing. */
export async function deleteRecord(companyId: number, resource: string, id: number): Promise<StoredRecord | undefined> {
  const result = await db.send(
    new DeleteCommand({ TableName: tableName, Key: keys.record(companyId, resource, id), ReturnValues: 'ALL_OLD' }),
  );
  return result.Attributes ? withoutKeys(result.Attributes) : undefined;
}

/**
 * Every record of a company's configuration resource, in id order: one Query on its partition,
 * following LastEvaluatedKey. Configuration sets are small (hundreds), which is why listing
 * them whole and sorting in memory is the cheaper design; high-volume records page instead.
 */
export async function queryAllRecords(companyId: number, resource: string): Promise<StoredRecord[]> {
  const items: StoredRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.resourcePartition(companyId, resource) },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) items.push(withoutKeys(item));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
