import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
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

function counterUpdate(companyId: number, check: RateCheck, now: Date) {
  const window = rateWindow(now, check.window);
  return {
    TableName: tableName,
    Key: keys.rateCounter(companyId, check.scope, window.key),
    UpdateExpression: 'ADD #c :one SET #e = :expires',
    ConditionExpression: 'attribute_not_exists(#c) OR #c < :limit',
    ExpressionAttributeNames: { '#c': 'count', '#e': 'expires_at' },
    ExpressionAttributeValues: { ':one': 1, ':limit': check.limit, ':expires': window.expiresAt },
  };
}

/**
 * Counts one request against every check; returns the first limit it would pass, if any (then
 * none is counted). Callers take the limits after every other check has passed, so a refused
 * request uses up no slot. One check is one conditional UpdateItem; several are one transaction,
 * so no request passes one limit and fails another half-counted. (A transaction costs twice the
 * writes, which is why the request's own log entry is not in it.)
 */
export async function takeRateLimits(companyId: number, checks: readonly RateCheck[], now: Date): Promise<RateCheck | undefined> {
  const active = checks.filter((check) => Number.isFinite(check.limit) && check.limit >= 0);
  if (active.length === 0) return undefined;
  if (active.length === 1) {
    try {
      await db.send(new UpdateCommand(counterUpdate(companyId, active[0]!, now)));
      return undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return active[0];
      throw error;
    }
  }
  try {
    await db.send(new TransactWriteCommand({ TransactItems: active.map((check) => ({ Update: counterUpdate(companyId, check, now) })) }));
    return undefined;
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    const failed = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
    if (failed >= 0) return active[failed];
    throw error;
  }
}
