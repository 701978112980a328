import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import { logger } from '../logger.js';
import { RecentMap } from '../recent-map.js';

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
 * Per company, scope and window kind, the window in which this function instance last saw the
 * count near its limit (at least NEAR_SHARE of it) or refused: a hint, only for the order of
 * takeRateLimitsBeside's requests, never for whether a request passes.
 */
const nearLimit = new RecentMap<string, string>(10_000);
const NEAR_SHARE = 0.9;
const hintKey = (companyId: number, check: RateCheck) => `${companyId}#${check.scope}#${check.window}`;

function noteNear(companyId: number, check: RateCheck, now: Date): void {
  nearLimit.set(hintKey(companyId, check), rateWindow(now, check.window).key);
}

/** Whether this instance saw any of the checks near its limit in the current window. */
function seenNear(companyId: number, checks: readonly RateCheck[], now: Date): boolean {
  return checks.some((check) => nearLimit.get(hintKey(companyId, check)) === rateWindow(now, check.window).key);
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
    const check = active[0]!;
    try {
      const result = await db.send(new UpdateCommand({ ...counterUpdate(companyId, check, now), ReturnValues: 'UPDATED_NEW' }));
      if (Number(result.Attributes?.count ?? 0) >= NEAR_SHARE * check.limit) noteNear(companyId, check, now);
      return undefined;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      noteNear(companyId, check, now);
      return check;
    }
  }
  // Concurrent requests of one webhook count on the same items: DynamoDB cancels a transaction
  // that meets another on them (TransactionConflict), having written nothing; it is tried again.
  for (let attempt = 1; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: active.map((check) => ({ Update: counterUpdate(companyId, check, now) })) }));
      return undefined;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failed = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
      if (failed >= 0) {
        noteNear(companyId, active[failed]!, now);
        return active[failed];
      }
      if (attempt >= CONFLICT_ATTEMPTS || !reasons.some((reason) => reason.Code === 'TransactionConflict')) throw error;
      await new Promise((done) => setTimeout(done, Math.random() * 10 * 2 ** attempt));
    }
  }
}

/** Tries of a rate-limit transaction that keeps meeting others (about 1.3 s of jittered waits at most). */
const CONFLICT_ATTEMPTS = 7;

/**
 * takeRateLimits with the request's own write (its log entry): both in one step, unless this
 * instance saw one of the limits near use in the current window; then the limits first and the
 * write only if they pass. Either way a refused request leaves nothing of its write: in one step
 * the write is undone (`undo`, best effort: the request is refused whether or not it succeeds), so
 * a refused request costs a write and its undo only while its limits were far from use, and a
 * flood of refused requests (seen near the limit) writes nothing but their failed counts.
 * Returns the limit refused, if any.
 */
export async function takeRateLimitsBeside(companyId: number, checks: readonly RateCheck[], now: Date, write: () => Promise<void>, undo: () => Promise<void>): Promise<RateCheck | undefined> {
  if (seenNear(companyId, checks, now)) {
    const limited = await takeRateLimits(companyId, checks, now);
    if (!limited) await write();
    return limited;
  }
  const [limits, written] = await Promise.allSettled([takeRateLimits(companyId, checks, now), write()]);
  if (limits.status === 'fulfilled' && !limits.value) {
    if (written.status === 'rejected') throw written.reason;
    return undefined;
  }
  if (written.status === 'fulfilled') {
    await undo().catch((error: unknown) => logger.warn('rate limits: a refused request\'s write was not undone', { error, companyId }));
  }
  if (limits.status === 'rejected') throw limits.reason;
  return limits.value;
}
