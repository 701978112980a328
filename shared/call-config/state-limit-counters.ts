import { randomInt } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import { utcDay } from './state-limits.js';
import type { StateLimit } from './state-limits.js';

/**
 * The counters of state call limits, changed only here. Taking a call's slots is one
 * conditional ADD per counter (a limit's `live` count and its count of the UTC day), all the
 * call's limits in one transaction: no call passes a limit however many race, and a refused call
 * counts against none. Releasing is a conditional ADD of -1 that never goes below zero; the call
 * record says whether its slots are still held, so it happens once (finishCall).
 */
const MAX_ATTEMPTS = 10;

function liveUpdate(companyId: number, limit: StateLimit) {
  return {
    TableName: tableName,
    Key: keys.stateLimitCounter(companyId, limit.id, 'live'),
    UpdateExpression: 'ADD #c :one',
    ConditionExpression: 'attribute_not_exists(#c) OR #c < :max',
    ExpressionAttributeNames: { '#c': 'count' },
    ExpressionAttributeValues: { ':one': 1, ':max': limit.concurrent_limit },
  };
}

function dayUpdate(companyId: number, limit: StateLimit, at: Date) {
  const day = utcDay(at);
  return {
    TableName: tableName,
    Key: keys.stateLimitCounter(companyId, limit.id, `day#${day}`),
    UpdateExpression: 'ADD #c :one SET #e = :expires',
    ConditionExpression: 'attribute_not_exists(#c) OR #c < :max',
    ExpressionAttributeNames: { '#c': 'count', '#e': 'expires_at' },
    // Kept two days past its own, then removed by TTL.
    ExpressionAttributeValues: { ':one': 1, ':max': limit.daily_limit, ':expires': Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + 3 * 86400 },
  };
}

export type StateSlots = { ok: true; held: number[] } | { ok: false; limit: StateLimit; exceeded: 'concurrent_limit' | 'daily_limit' };

/** Takes one slot of every limit (live and daily counters); `held` = the limits whose live slot must be released. */
export async function takeStateSlots(companyId: number, limits: readonly StateLimit[], at: Date): Promise<StateSlots> {
  const updates: Array<{ limit: StateLimit; exceeded: 'concurrent_limit' | 'daily_limit'; update: ReturnType<typeof liveUpdate> }> = [];
  for (const limit of limits) {
    if (limit.concurrent_limit !== null) updates.push({ limit, exceeded: 'concurrent_limit', update: liveUpdate(companyId, limit) });
    if (limit.daily_limit !== null) updates.push({ limit, exceeded: 'daily_limit', update: dayUpdate(companyId, limit, at) });
  }
  const held = [...new Set(limits.filter((limit) => limit.concurrent_limit !== null).map((limit) => limit.id))];
  if (updates.length === 0) return { ok: true, held: [] };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    try {
      if (updates.length === 1) await db.send(new UpdateCommand(updates[0]!.update));
      else await db.send(new TransactWriteCommand({ TransactItems: updates.map(({ update }) => ({ Update: update })) }));
      return { ok: true, held };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return { ok: false, limit: updates[0]!.limit, exceeded: updates[0]!.exceeded };
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failed = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
      if (failed >= 0) return { ok: false, limit: updates[failed]!.limit, exceeded: updates[failed]!.exceeded };
      // A concurrent transaction on the same counter: try again shortly (jittered).
      await new Promise((done) => setTimeout(done, randomInt(2 + 4 * attempt)));
    }
  }
  throw new Error('State call limit counters kept conflicting');
}

/** Gives back the live slots of `limitIds` (never below zero). */
export async function releaseStateSlots(companyId: number, limitIds: readonly number[]): Promise<void> {
  await Promise.all(
    limitIds.map(async (limitId) => {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.stateLimitCounter(companyId, limitId, 'live'),
            UpdateExpression: 'ADD #c :minus',
            ConditionExpression: '#c > :zero',
            ExpressionAttributeNames: { '#c': 'count' },
            ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }),
  );
}
