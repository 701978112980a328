import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, type TransactItem } from '../db/client.js';
import { keys } from '../db/keys.js';

/**
 * Rate limits counted in DynamoDB: one counter item per scope and window (minute, hour, day,
 * in UTC) that expires with its window. All the limits of a request are taken in one
 * transaction, each conditioned on its count being below its limit, so concurrent requests
 * can never pass one and a refused request counts against none.
 */
export type RateWindow = 'minute' | 'hour' | 'day';

export interface RateCheck {
  /** What is counted, e.g. `webhook#3` or `webhook#3#ts#7`. */
  scope: string;
  window: RateWindow;
  limit: number;
  /** Named in the 429, e.g. `rate_limit_per_minute`. */
  field: string;
}

const WINDOW_SECONDS: Record<RateWindow, number> = { minute: 60, hour: 3600, day: 86400 };

/** The window `now` falls in (its key) and when that window's counter may be deleted. Pure. */
export function rateWindow(now: Date, window: RateWindow): { key: string; expiresAt: number } {
  const seconds = WINDOW_SECONDS[window];
  const start = Math.floor(now.getTime() / 1000 / seconds) * seconds;
  return { key: `${window}#${start}`, expiresAt: start + 2 * seconds };
}

/**
 * Counts one request against every check and writes `alongside` (the request's log entry, a
 * reservation) in the same transaction, so a request is counted exactly when its effects are
 * written; returns the first limit it would pass, if any (then nothing is written).
 */
export async function takeRateLimits(companyId: number, checks: readonly RateCheck[], now: Date, alongside: readonly TransactItem[] = []): Promise<RateCheck | undefined> {
  const active = checks.filter((check) => Number.isFinite(check.limit) && check.limit >= 0);
  if (active.length === 0) {
    if (alongside.length) await db.send(new TransactWriteCommand({ TransactItems: [...alongside] }));
    return undefined;
  }
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [...active.map((check): TransactItem => {
          const window = rateWindow(now, check.window);
          return {
            Update: {
              TableName: tableName,
              Key: keys.rateCounter(companyId, check.scope, window.key),
              UpdateExpression: 'ADD #c :one SET #e = :expires',
              ConditionExpression: 'attribute_not_exists(#c) OR #c < :limit',
              ExpressionAttributeNames: { '#c': 'count', '#e': 'expires_at' },
              ExpressionAttributeValues: { ':one': 1, ':limit': check.limit, ':expires': window.expiresAt },
            },
          };
        }), ...alongside],
      }),
    );
    return undefined;
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    const failed = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
    if (failed >= 0 && failed < active.length) return active[failed];
    throw error;
  }
}
