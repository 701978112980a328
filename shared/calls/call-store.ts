import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, type TransactItem } from '../db/client.js';
import { dayOfId } from '../db/day-records.js';
import { timeOfId, timeSortableId } from '../db/ids.js';
import { keys, padId } from '../db/keys.js';
import { getLookup, withoutKeys, type StoredRecord } from '../db/records.js';
import { rollupCellUpdate } from '../db/rollup-update.js';
import { callDayShardOf, hourAttribute } from './call-day-counts.js';
import { callOfUuid, callUuid } from './call-uuid.js';
import { callFromItem, callItemAttributes, NULL_OMITTED, storedAttribute, timelineChunk } from './call-item.js';

/**
 * Calls: high-volume records in one partition per company and UTC day (ids are time-sortable),
 * found by id alone (the day is in the id), by uuid (the secure endpoints carry no credentials:
 * the uuid names the company and id, call-uuid.ts; a global lookup for calls made before), by caller through gsi2, and while live through gsi1, which
 * only calls in progress carry.
 */
export const CALLS = 'calls';

export type CallRecord = StoredRecord & {
  status: string;
  in_progress: boolean;
  caller_number: string | null;
  offer_id: number | null;
  version: number;
};

export function callKey(companyId: number, id: number) {
  return { pk: keys.dayPartition(companyId, CALLS, dayOfId(id)), sk: padId(id) };
}

function indexAttributes(companyId: number, call: { id: number; in_progress: boolean; caller_number: string | null }) {
  return {
    ...(call.in_progress ? { gsi1pk: keys.liveCalls(companyId), gsi1sk: padId(call.id) } : {}),
    ...(call.caller_number ? { gsi2pk: keys.callsOfCaller(companyId, call.caller_number), gsi2sk: padId(call.id) } : {}),
  };
}

/** The call a carrier's call id belongs to (carriers retry their first webhook). */
export function carrierCallKey(carrier: string, carrierCallId: string) {
  return keys.globalLookup(CALLS, 'carrier_call', `${carrier}:${carrierCallId}`);
}

export async function findCallByCarrierId(carrier: string, carrierCallId: string): Promise<{ companyId: number; call: CallRecord } | undefined> {
  const lookup = await getLookup(carrierCallKey(carrier, carrierCallId));
  if (!lookup) return undefined;
  const call = await getCall(lookup.company_id, lookup.id);
  return call ? { companyId: lookup.company_id, call } : undefined;
}

/**
 * The Update that counts a new call in its UTC day and hour (atomic ADD; shared/calls/call-day-counts.ts),
 * in the day's shard its id picks, for the transaction that writes the call: a call is counted
 * exactly when it exists. Calls are never deleted and carry no TTL, so the counts never go down.
 */
export function callDayCountUpdate(companyId: number, callId: number): TransactItem {
  const day = dayOfId(callId);
  return rollupCellUpdate(keys.callDayCount(companyId, day, callDayShardOf(callId)), { calls: 1, [hourAttribute(new Date(timeOfId(callId)).getUTCHours())]: 1 }, { day });
}

/** Fresh ids drawn for a new call whose id another call of the company already has. */
const ID_ATTEMPTS = 5;

/** Retries (with a short random pause) when a concurrent call's transaction held the same day-count shard. */
const CONFLICT_ATTEMPTS = 8;

/**
 * Why a transaction carrying a buyer's reservation (shared/routing/claim.ts, claimInSave) was
 * cancelled by that reservation alone: its condition failed, or another request held the counter
 * item that moment.
 */
export type ClaimRefusal = 'condition' | 'conflict';

/** The ClaimRefusal of a transaction cancelled by its item at `index` (the reservation), if that item stopped it. */
export function claimRefusal(error: unknown, index: number): ClaimRefusal | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  const code = error.CancellationReasons?.[index]?.Code;
  return code === 'ConditionalCheckFailed' ? 'condition' : code === 'TransactionConflict' ? 'conflict' : undefined;
}

/**
 * Writes a new call with its carrier-call lookup (and its uuid's, for a uuid not made from its
 * key: call-uuid.ts), and counts it in its day (callDayCountUpdate), in one transaction, with
 * `claim` (a buyer's reservation) when given: `{ refused }` when that alone stopped it. False
 * when the carrier's call already has a record (a retried webhook that raced the first). When
 * another call of the company got the same id (same millisecond and random part), `call.id` is
 * drawn again for the same millisecond (its uuid with it) and the write retried.
 */
export async function createCall(companyId: number, call: CallRecord & { carrier: string; carrier_call_id: string }, alongside?: readonly TransactItem[]): Promise<boolean>;
export async function createCall(companyId: number, call: CallRecord & { carrier: string; carrier_call_id: string }, alongside: readonly TransactItem[], claim: TransactItem | undefined): Promise<boolean | { refused: ClaimRefusal }>;
export async function createCall(
  companyId: number,
  call: CallRecord & { carrier: string; carrier_call_id: string },
  /** Writes that must happen with the call or not at all (its events' outbox items). */
  alongside: readonly TransactItem[] = [],
  /** The reservation of the buyer the call dials (shared/routing/claim.ts, claimInSave). */
  claim?: TransactItem,
): Promise<boolean | { refused: ClaimRefusal }> {
  let conflicts = 0;
  for (let attempt = 1; ; attempt++) {
    // A uuid made from the call's key (call-uuid.ts) needs no lookup item; a random one (a seeded call) does.
    const own = callOfUuid(call.uuid);
    const uuidLookup: TransactItem[] =
      own?.companyId === companyId && own.callId === call.id
        ? []
        : [{ Put: { TableName: tableName, Item: { ...keys.globalLookup(CALLS, 'uuid', call.uuid), company_id: companyId, resource: CALLS, id: call.id }, ConditionExpression: 'attribute_not_exists(pk)' } }];
    const claimAt = 2 + uuidLookup.length;
    try {
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName,
                Item: { ...callKey(companyId, call.id), ...indexAttributes(companyId, call), company_id: companyId, ...callItemAttributes(call) },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: tableName,
                Item: { ...carrierCallKey(call.carrier, call.carrier_call_id), company_id: companyId, resource: CALLS, id: call.id },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            ...uuidLookup,
            // At claimAt, so its cancellation reason has a known place.
            ...(claim ? [claim] : []),
            ...alongside,
            // Last, so the cancellation reasons above keep their places.
            callDayCountUpdate(companyId, call.id),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      if (reasons[1]?.Code === 'ConditionalCheckFailed') return false;
      // The claim's own retries (claimInSave) decide what a refused or contended reservation becomes.
      const refused = claim ? claimRefusal(error, claimAt) : undefined;
      if (refused) return { refused };
      // Another call's transaction held the same day-count shard that moment: nothing was written, try again.
      if (reasons.some((reason) => reason.Code === 'TransactionConflict') && ++conflicts <= CONFLICT_ATTEMPTS) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * conflicts));
        attempt--;
        continue;
      }
      if (reasons[0]?.Code === 'ConditionalCheckFailed' && attempt < ID_ATTEMPTS) {
        const ownUuid = uuidLookup.length === 0;
        call.id = timeSortableId(timeOfId(call.id));
        // A uuid made from the key follows the new id.
        if (ownUuid) call.uuid = callUuid(companyId, call.id);
        continue;
      }
      throw error;
    }
  }
}

export async function getCall(companyId: number, id: number): Promise<CallRecord | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: callKey(companyId, id), ConsistentRead: true }));
  return result.Item ? storedCall(result.Item) : undefined;
}

/** A call item as read (any read of calls: by key, by index, in a batch), as the engine and the API see it (call-item.ts). */
export function storedCall(item: Record<string, unknown>): CallRecord {
  return callFromItem(withoutKeys(item)) as CallRecord;
}

/**
 * A call by uuid, with its company: one GetItem of the call its uuid names (call-uuid.ts), or for
 * a random uuid (calls made before) two: the global lookup, then the call.
 */
export async function getCallByUuid(uuid: string): Promise<{ companyId: number; call: CallRecord } | undefined> {
  const own = callOfUuid(uuid);
  if (own) {
    const call = await getCall(own.companyId, own.callId);
    // Only the call that carries this very uuid: a made-up one naming another call finds nothing.
    return call && call.uuid === uuid.toLowerCase() ? { companyId: own.companyId, call } : undefined;
  }
  const lookup = await getLookup(keys.globalLookup(CALLS, 'uuid', uuid));
  if (!lookup) return undefined;
  const call = await getCall(lookup.company_id, lookup.id);
  return call ? { companyId: lookup.company_id, call } : undefined;
}

/**
 * Saves a call's new state if nobody saved another since `expectedVersion` (optimistic
 * concurrency: carriers retry and race their callbacks). False when the version moved on.
 */
export async function saveCall(
  companyId: number,
  call: CallRecord,
  expectedVersion: number,
  /** Writes that must happen with this save or not at all (rollups of a finished call). */
  alongside: Array<Record<string, unknown>> = [],
  /**
   * The call as read at `expectedVersion`: only the attributes that differ from it are written,
   * and timeline entries added at its end are appended (the version check makes it exact).
   */
  before?: Record<string, unknown>,
): Promise<boolean> {
  const { id, ...fields } = call;
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':expected': expectedVersion };
  const sets: string[] = [];
  const removes: string[] = [];
  const index = indexAttributes(companyId, call);
  const all: Record<string, unknown> = { ...fields, ...index };
  Object.entries(all).forEach(([name, value], i) => {
    if (name === 'uuid' || name === 'company_id') return;
    const change = before ? attributeChange(before, name, value ?? null) : { kind: 'set' as const };
    if (change.kind === 'same') return;
    names[`#f${i}`] = name;
    // Stored as call-item.ts says: new timeline entries as one more chunk, attempts packed, null columns left out.
    if (change.kind === 'append') {
      values[`:f${i}`] = name === 'timeline' ? [timelineChunk(call, change.added)] : change.added;
      sets.push(`#f${i} = list_append(#f${i}, :f${i})`);
      return;
    }
    if ((value ?? null) === null && NULL_OMITTED.has(name)) {
      removes.push(`#f${i}`);
      return;
    }
    values[`:f${i}`] = storedAttribute(call, name, value ?? null);
    sets.push(`#f${i} = :f${i}`);
  });
  if (!call.in_progress) {
    names['#g1'] = 'gsi1pk';
    names['#g1s'] = 'gsi1sk';
    removes.push('#g1', '#g1s');
  }
  const update = {
    TableName: tableName,
    Key: callKey(companyId, id),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: '#version = :expected',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
  try {
    if (alongside.length === 0) await db.send(new UpdateCommand(update));
    else await db.send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...alongside] }));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    if (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
    throw error;
  }
}

/** How an attribute of a saved call changed from the stored one: not at all, entries appended to a list, or else. */
function attributeChange(before: Record<string, unknown>, name: string, value: unknown): { kind: 'same' } | { kind: 'append'; added: unknown[] } | { kind: 'set' } {
  if (!(name in before)) return { kind: 'set' };
  const stored = before[name] ?? null;
  if (JSON.stringify(stored) === JSON.stringify(value)) return { kind: 'same' };
  // A list that only grew at its end (the timeline): append the new entries, not the whole list.
  if (Array.isArray(stored) && stored.length > 0 && Array.isArray(value) && value.length > stored.length && JSON.stringify(value.slice(0, stored.length)) === JSON.stringify(stored)) {
    return { kind: 'append', added: value.slice(stored.length) };
  }
  return { kind: 'set' };
}

async function queryIndex(indexName: 'gsi1' | 'gsi2', pkName: string, pk: string, limit: number, beforeId?: number): Promise<CallRecord[]> {
  const calls: CallRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  const skName = indexName === 'gsi1' ? 'gsi1sk' : 'gsi2sk';
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: indexName,
        KeyConditionExpression: beforeId === undefined ? '#pk = :pk' : '#pk = :pk AND #sk < :before',
        ExpressionAttributeNames: { '#pk': pkName, ...(beforeId === undefined ? {} : { '#sk': skName }) },
        ExpressionAttributeValues: { ':pk': pk, ...(beforeId === undefined ? {} : { ':before': padId(beforeId) }) },
        ScanIndexForward: false,
        Limit: Math.min(limit - calls.length, 1000),
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) calls.push(storedCall(item));
    startKey = page.LastEvaluatedKey;
  } while (startKey && calls.length < limit);
  return calls;
}

/** A caller's calls, newest first (gsi2). */
export function callsOfCaller(companyId: number, caller: string, limit: number, beforeId?: number): Promise<CallRecord[]> {
  return queryIndex('gsi2', 'gsi2pk', keys.callsOfCaller(companyId, caller), limit, beforeId);
}

/** Calls in progress, newest first (the sparse gsi1), optionally strictly before a call id (a cursor). */
export function liveCalls(companyId: number, limit: number, beforeId?: number): Promise<CallRecord[]> {
  return queryIndex('gsi1', 'gsi1pk', keys.liveCalls(companyId), limit, beforeId);
}
