import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';

/** The company blacklist: callers that may not reach any buyer (one GetItem to check). */
export async function isBlacklisted(companyId: number, number: string): Promise<boolean> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.blacklist(companyId, number), ProjectionExpression: 'pk' }));
  return Boolean(result.Item);
}

/** The Put that blacklists a number (also written in a lead's transaction: `blocked`). */
export function blacklistPut(companyId: number, number: string, at: Date) {
  return { TableName: tableName, Item: { ...keys.blacklist(companyId, number), number, blocked_at: at.toISOString() } };
}

/** The Delete that takes a number off the blacklist (a lead's `unblock_contact`). */
export function blacklistDelete(companyId: number, number: string) {
  return { TableName: tableName, Key: keys.blacklist(companyId, number) };
}

/** The caller's blacklist entry, if any (one GetItem). */
export async function blacklistEntry(companyId: number, number: string): Promise<{ number: string; blocked_at: string } | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.blacklist(companyId, number) }));
  return result.Item ? { number: String(result.Item.number), blocked_at: String(result.Item.blocked_at) } : undefined;
}

export async function blockNumber(companyId: number, number: string, at: Date): Promise<void> {
  await db.send(new PutCommand(blacklistPut(companyId, number, at)));
}

export async function unblockNumber(companyId: number, number: string): Promise<boolean> {
  const result = await db.send(new DeleteCommand({ TableName: tableName, Key: keys.blacklist(companyId, number), ReturnValues: 'ALL_OLD' }));
  return Boolean(result.Attributes);
}


/**
 * A page of the blacklist in number order: up to `limit` entries after `afterNumber` (one Query,
 * and another only when DynamoDB cut the page short), and whether more follow.
 */
export async function blacklistPage(companyId: number, afterNumber: string | undefined, limit: number): Promise<{ entries: Array<{ number: string; blocked_at: string }>; more: boolean }> {
  const entries: Array<{ number: string; blocked_at: string }> = [];
  const pk = keys.blacklist(companyId, '').pk;
  let startKey: Record<string, unknown> | undefined = afterNumber !== undefined ? { pk, sk: afterNumber } : undefined;
  do {
    const page = await db.send(
      new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, Limit: limit + 1 - entries.length, ExclusiveStartKey: startKey }),
    );
    for (const item of page.Items ?? []) entries.push({ number: String(item.number), blocked_at: String(item.blocked_at) });
    startKey = page.LastEvaluatedKey;
  } while (startKey && entries.length <= limit);
  return { entries: entries.slice(0, limit), more: entries.length > limit };
}
