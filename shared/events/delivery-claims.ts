import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';

/**
 * Idempotency of deliveries: before sending, the delivery function claims the message's id (an
 * event to one subscription, one webhook URL, one e-mail) with a conditional write. A duplicate
 * of the message (SQS delivers at least once; the outbox may publish twice) finds the claim
 * `done` (already sent) or `sending` under a live lease (another worker is on it) and sends
 * nothing. A failed attempt marks the claim `failed`, so the retry can claim it again; a worker
 * that died mid-send leaves a lease that runs out, after which the redelivered message claims.
 */
export type ClaimOutcome = 'claimed' | 'done' | 'busy';

/** Claims are kept past any retry schedule and the dead-letter queue's retention. */
const CLAIM_RETENTION_SECONDS = 15 * 24 * 60 * 60;

export async function claimDelivery(companyId: number, messageId: string, now: Date, leaseSeconds: number): Promise<ClaimOutcome> {
  try {
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.deliveryClaim(companyId, messageId),
          status: 'sending',
          lease_until: now.getTime() + leaseSeconds * 1000,
          updated_at: now.toISOString(),
          expires_at: Math.floor(now.getTime() / 1000) + CLAIM_RETENTION_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR #s = :failed OR (#s = :sending AND lease_until < :now)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':failed': 'failed', ':sending': 'sending', ':now': now.getTime() },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'claimed';
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return error.Item?.status?.S === 'done' ? 'done' : 'busy';
    throw error;
  }
}

async function settle(companyId: number, messageId: string, status: 'done' | 'failed', now: Date): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.deliveryClaim(companyId, messageId),
      UpdateExpression: 'SET #s = :status, updated_at = :now',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':status': status, ':now': now.toISOString() },
    }),
  );
}

/** The message was sent: every later copy of it sends nothing. */
export const markDelivered = (companyId: number, messageId: string, now: Date) => settle(companyId, messageId, 'done', now);

/** The attempt failed: the next attempt may claim again. */
export const releaseDelivery = (companyId: number, messageId: string, now: Date) => settle(companyId, messageId, 'failed', now);
