import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import { queryPages } from '../db/query.js';

/** The company blacklist: callers that may not reach any buyer (one GetItem to check). */
export async function isBlacklisted(companyId: number, number: string): Promise<boolean> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.blacklist(companyId, number), ProjectionExpression: 'pk' }));
  return Boolean(result.Item);
}

/** The Put that blacklists a number, for a transaction with the change that blocks it (a lead_block action). */
export function blockNumberPut(companyId: number, number: string, at: Date) {
  return { TableName: tableName, Item: { ...keys.blacklist(companyId, number), number, blocked_at: at.toISOString() } };
}

export async function blockNumber(companyId: number, number: string, at: Date): Promise<void> {
  await db.send(new PutCommand(blockNumberPut(companyId, number, at)));
}

export async function unblockNumber(companyId: number, number: string): Promise<boolean> {
  const result = await db.send(new DeleteCommand({ TableName: tableName, Key: keys.blacklist(companyId, number), ReturnValues: 'ALL_OLD' }));
  return Boolean(result.Attributes);
}

export async function listBlacklist(companyId: number): Promise<Array<{ number: string; blocked_at: string }>> {
  const out: Array<{ number: string; blocked_at: string }> = [];
  for await (const items of queryPages({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.blacklist(companyId, '').pk } })) {
    for (const item of items) out.push({ number: String(item.number), blocked_at: String(item.blocked_at) });
  }
  return out;
}
