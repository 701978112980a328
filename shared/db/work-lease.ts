import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { keys } from './keys.js';

/**
 * Resumable work on a record (a number order filling, a contact import running): one request at
 * a time holds it, for at most WORK_LEASE_MS, and only while the record is `pending` or `in_progress`.
 * A request that dies mid-work leaves a lease that simply expires.
 */
export const WORK_LEASE_MS = 60_000;

/** Takes the record's lease (setting it `in_progress`); false when it is finished or another request holds it. */
export async function takeWorkLease(companyId: number, resource: string, id: number, now: Date, options: { markStarted?: boolean } = {}): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.record(companyId, resource, id),
        UpdateExpression: `SET lease_until = :until, #status = :in_progress${options.markStarted ? ', started_at = if_not_exists(started_at, :now)' : ''}`,
        ConditionExpression: 'attribute_exists(pk) AND #status IN (:pending, :in_progress) AND (attribute_not_exists(lease_until) OR lease_until <= :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':until': new Date(now.getTime() + WORK_LEASE_MS).toISOString(), ':now': now.toISOString(), ':pending': 'pending', ':in_progress': 'in_progress' },
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** A time budget in milliseconds: `fallback` unless the environment variable `name` holds a number >= 0 (tests of resume set 0). */
export function budgetFromEnv(name: string, fallback: number): number {
  const configured = process.env[name];
  const value = Number(configured);
  return configured !== undefined && configured !== '' && Number.isFinite(value) && value >= 0 ? value : fallback;
}
