import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, type TransactItem } from './client.js';
import { keys, type Key } from './keys.js';
import { partitionKeyNames, sortKeyNames, tableDesign } from './table-design.js';

/**
 * A stored configuration record as its readers see it (key attributes removed), the unique
 * lookups written with it, and its resource's sequence item: the next id and the record count.
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
