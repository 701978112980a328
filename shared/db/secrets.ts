import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from './client.js';
import { keys } from './keys.js';

const cache = new Map<string, Promise<Buffer>>();

async function loadOrCreate(name: string): Promise<Buffer> {
  const existing = await db.send(new GetCommand({ TableName: tableName, Key: keys.secret(name), ConsistentRead: true }));
  if (existing.Item) return Buffer.from(String(existing.Item.value), 'base64');
  const value = randomBytes(32).toString('base64');
  try {
    await db.send(
      new PutCommand({ TableName: tableName, Item: { ...keys.secret(name), value }, ConditionExpression: 'attribute_not_exists(pk)' }),
    );
    return Buffer.from(value, 'base64');
  } catch (error) {
    // Another instance made it first: use theirs.
    if (error instanceof ConditionalCheckFailedException) return loadOrCreate(name);
    throw error;
  }
}

/**
 * A random 256-bit key made once per deployment and kept in the table, so every function
 * signs and checks with the same key without a secrets service. Read once per cold start.
 */
export function deploymentSecret(name: string): Promise<Buffer> {
  let secret = cache.get(name);
  if (!secret) {
    secret = loadOrCreate(name);
    secret.catch(() => cache.delete(name));
    cache.set(name, secret);
  }
  return secret;
}
