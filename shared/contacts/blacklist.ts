import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';

/** The company blacklist: callers that may not reach any buyer (one GetItem to check). */
export async function isBlacklisted(companyId: number, number: string): Promise<boolean> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.blacklist(companyId, number), ProjectionExpression: 'pk' }));
  return Boolean(result.Item);
}

export async function blockNumber(companyId: number, number: string, at: Date): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName, Item: { ...keys.blacklist(companyId, number), number, blocked_at: at.toISOString() } }));
}

export async function unblockNumber(companyId: number, number: string): Promise<boolean> {
  const result = await db.send(new DeleteCommand({ TableName: tableName, Key: keys.blacklist(companyId, number), ReturnValues: 'ALL_OLD' }));
  return Boolean(result.Attributes);
}

export async function listBlacklist(companyId: number): Promise<Array<{ number: string; blocked_at: string }>> {
  const out: Array<{ number: string; blocked_at: string }> = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.blacklist(companyId, '').pk },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) out.push({ number: String(item.number), blocked_at: String(item.blocked_at) });
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return out;
}
