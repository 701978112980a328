import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import { updateRecord } from '../db/records.js';
import { newSigningSecret } from './signing.js';
import { shouldDisable, type RetryPolicy } from './retry-schedule.js';

/**
 * What deliveries change on a subscription record: its signing secret (made on first use for a
 * subscription older than signing), `failing_since` (the first failure of the current run of
 * failures; cleared by a success) and, when a delivery's last attempt fails after failing for
 * WEBHOOK_DISABLE_AFTER, `enabled: false` with `disabled_at` and `disabled_reason`.
 */
const SUBSCRIPTIONS = 'subscriptions';

/** The secrets that sign a delivery now: the current one, and the previous one while a rotation's grace lasts. */
export async function signingSecrets(companyId: number, subscription: Record<string, unknown>, now: Date): Promise<string[]> {
  let secret = typeof subscription.secret === 'string' ? subscription.secret : undefined;
  if (!secret) {
    // Conditional, so two first deliveries at once end up with one secret.
    const result = await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.record(companyId, SUBSCRIPTIONS, Number(subscription.id)),
        UpdateExpression: 'SET secret = if_not_exists(secret, :secret)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':secret': newSigningSecret() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    secret = String(result.Attributes?.secret);
  }
  const previous = subscription.previous_secret;
  const graceEnds = typeof subscription.previous_secret_expires_at === 'string' ? Date.parse(subscription.previous_secret_expires_at) : 0;
  return typeof previous === 'string' && graceEnds > now.getTime() ? [secret, previous] : [secret];
}

export async function deliverySucceeded(companyId: number, subscription: Record<string, unknown>): Promise<void> {
  if (subscription.failing_since) await updateRecord(companyId, SUBSCRIPTIONS, Number(subscription.id), { failing_since: null });
}

/** Notes a failed attempt; disables the subscription when its deliveries have failed long enough. True when it did. */
export async function deliveryFailed(
  companyId: number,
  subscription: Record<string, unknown>,
  attempt: { last: boolean; error: string },
  policy: RetryPolicy,
  now: Date,
): Promise<boolean> {
  const since = typeof subscription.failing_since === 'string' ? new Date(subscription.failing_since) : undefined;
  if (shouldDisable(policy, since ?? now, attempt.last, now)) {
    await updateRecord(companyId, SUBSCRIPTIONS, Number(subscription.id), {
      enabled: false,
      failing_since: (since ?? now).toISOString(),
      disabled_at: now.toISOString(),
      disabled_reason: `deliveries failing since ${(since ?? now).toISOString()}; last error: ${attempt.error}`.slice(0, 500),
    });
    return true;
  }
  if (!since) await updateRecord(companyId, SUBSCRIPTIONS, Number(subscription.id), { failing_since: now.toISOString() });
  return false;
}
