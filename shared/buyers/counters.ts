import { randomInt } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, type TransactItem } from '../db/client.js';
import { keys } from '../db/keys.js';
import { getItems } from '../db/records.js';
import {
  METRICS,
  buildCounterUpdate,
  changeExceeds,
  counterAttribute,
  currentCounters,
  periodKeys,
  type CounterChange,
  type CounterItem,
  type CounterValues,
  type PeriodKeys,
} from './counter-model.js';

/**
 * The one module that changes buyer counters. Every change is a single conditional UpdateItem
 * built from the item as last read (counter-model.ts): if another writer got there first the
 * condition fails, the item is read again and the change re-decided, so a cap is never passed
 * however many requests race. Routing reserves attempts and concurrency through here; calls
 * count connections, conversions and revenue through here.
 */
const MAX_ATTEMPTS = 25;

export type CounterResult = { ok: true; counters: CounterValues } | { ok: false; reason: string };

/** The buyer a counter item belongs to, from its sort key (`stats#<padded id>`). */
export function buyerIdOfStats(item: CounterItem): number {
  return Number(String(item.sk).slice('stats#'.length));
}

/** A buyer's counter item, strongly consistent (undefined: none yet, or the buyer is gone). */
export async function readCounterItem(companyId: number, buyerId: number): Promise<CounterItem | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.buyerStats(companyId, buyerId), ConsistentRead: true }));
  return result.Item;
}

/** Counter items of several buyers (BatchGetItem), keyed by buyer id. */
export async function readCounterItems(companyId: number, buyerIds: readonly number[]): Promise<Map<number, CounterItem>> {
  const items = await getItems([...new Set(buyerIds)].map((id) => keys.buyerStats(companyId, id)));
  return new Map(items.map((item) => [buyerIdOfStats(item), item]));
}

/**
 * Applies a change to a buyer's counters, in the buyer's time zone at `now`. With limits, a
 * change that would pass a cap is refused with the cap's column name (`attempt_daily_limit`).
 * `known` is the item as the caller already read it (routing's Query), saving a read.
 */
export async function applyCounterChange(
  companyId: number,
  buyerId: number,
  timeZone: string,
  now: Date,
  change: CounterChange,
  known?: CounterItem,
): Promise<CounterResult> {
  const periods = periodKeys(now, timeZone);
  // A change without caps (counting a connection, a conversion, a release) is first tried as if
  // the item were in the current periods, without reading it: a claim wrote it moments ago, so
  // that is nearly always so. The update's condition checks it; otherwise the item is read.
  let blind = !known && !change.limits;
  let item = known ?? (blind ? assumedCurrent(periods, change) : await readCounterItem(companyId, buyerId));
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = currentCounters(item, periods);
    const exceeded = changeExceeds(current, change);
    if (exceeded) return { ok: false, reason: exceeded };
    // Releasing a reservation that is not there (a retried callback) changes nothing.
    if (change.concurrency === -1 && current.concurrency === 0 && Object.keys(change.increments).length === 0) {
      return { ok: true, counters: current };
    }
    const update = buildCounterUpdate(item, periods, { ...change, concurrency: change.concurrency === -1 && current.concurrency === 0 ? undefined : change.concurrency });
    try {
      const result = await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.buyerStats(companyId, buyerId),
          ...update,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { ok: true, counters: currentCounters(result.Attributes, periods) };
    } catch (error) {
      // A call's save may hold this item in its transaction that moment (a blind count riding in
      // it): DynamoDB refuses the update with TransactionConflictException; like a lost race, retried.
      const conflict = error instanceof Error && error.name === 'TransactionConflictException';
      if (!(error instanceof ConditionalCheckFailedException) && !conflict) throw error;
      // Someone else wrote first: back off a little (jittered, so racers spread out) and re-read.
      // A blind first try that missed (a new period, nothing to release) re-reads at once.
      if (!blind || conflict) await new Promise((done) => setTimeout(done, randomInt(1 + 2 * attempt)));
      blind = false;
      item = await readCounterItem(companyId, buyerId);
      // The buyer's counters are gone (the buyer was deleted): a call's late count creates none.
      if (!item && change.existingOnly) return { ok: false, reason: 'no_counters' };
    }
  }
  // Only sustained contention gets here; refusing is safe (the caller tries the next buyer).
  return { ok: false, reason: 'contention' };
}

/**
 * The counter item as a blind update assumes it: in the current periods, and holding a concurrent
 * call when the change releases one. Only ever used to build a conditional update.
 */
function assumedCurrent(periods: PeriodKeys, change: CounterChange): CounterItem {
  return { hour_key: periods.hourly, day_key: periods.daily, month_key: periods.monthly, concurrency: change.concurrency === -1 ? 1 : 0 };
}

/**
 * A change without caps as a member of another write's transaction (a call's save), built like
 * the blind first try of applyCounterChange: its condition holds only while the counter item is
 * in the current periods (and holds a concurrent call to release). When it fails the transaction
 * is cancelled; the caller saves without it and applies the change with applyCounterChange.
 */
export function blindCounterWrite(companyId: number, buyerId: number, timeZone: string, now: Date, change: CounterChange): TransactItem {
  const periods = periodKeys(now, timeZone);
  return { Update: { TableName: tableName, Key: keys.buyerStats(companyId, buyerId), ...buildCounterUpdate(assumedCurrent(periods, change), periods, change) } };
}

/** The change that reserves one attempt and one concurrent call for dialing a buyer, within its caps. */
export function reservationChange(now: Date, limits: CounterChange['limits']): CounterChange {
  return { increments: { attempt: 1 }, concurrency: 1, limits, at: now.toISOString() };
}

/**
 * A reservation as a member of the transaction that saves the call (no request of its own),
 * decided from the counter item as read and conditioned exactly like applyCounterChange's update (the
 * periods as read, every cap), so caps hold however many calls race. Refused here with the cap's
 * name when the item as read leaves no room. When its condition cancels the transaction, the
 * caller reads the item again (readCounterItem) and decides anew, as applyCounterChange does.
 */
export function reservationWrite(companyId: number, buyerId: number, timeZone: string, now: Date, limits: CounterChange['limits'], known: CounterItem | undefined): { ok: true; write: TransactItem } | { ok: false; reason: string } {
  const periods = periodKeys(now, timeZone);
  const change = reservationChange(now, limits);
  const exceeded = changeExceeds(currentCounters(known, periods), change);
  if (exceeded) return { ok: false, reason: exceeded };
  return { ok: true, write: { Update: { TableName: tableName, Key: keys.buyerStats(companyId, buyerId), ...buildCounterUpdate(known, periods, change) } } };
}

/** Zeroes the total counters (`reset_total_caps`); period counters carry on. */
export async function resetTotalCounters(companyId: number, buyerId: number): Promise<void> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':zero': 0 };
  const sets = METRICS.map((metric, index) => {
    names[`#t${index}`] = counterAttribute(metric, 'total');
    return `#t${index} = :zero`;
  });
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.buyerStats(companyId, buyerId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}
