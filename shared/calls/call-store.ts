import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, type TransactItem } from '../db/client.js';
import { dayOfId, dayRecordKey } from '../db/day-records.js';
import { timeOfId, timeSortableId } from '../db/ids.js';
import { keys, padId } from '../db/keys.js';
import { getItems, getLookup, withoutKeys, type StoredRecord } from '../db/records.js';
import { tableDesign, type TableIndex } from '../db/table-design.js';
import { rollupCellUpdate } from '../db/rollup-update.js';
import { callDayShardOf, hourAttribute } from './call-day-counts.js';
import { callOfUuid, callUuid } from './call-uuid.js';
import { callFromItem, callItemAttributes, NULL_OMITTED, storedAttribute, timelineChunk } from './call-item.js';

/**
 * Calls: high-volume records in one partition per company and UTC day (ids are time-sortable),
 * found by id alone (the day is in the id), by uuid (the secure endpoints carry no credentials:
 * the uuid names the company and id, call-uuid.ts; a global lookup for calls made before), by caller
 * through gsi2 and while live through gsi3 (see the index entries below).
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
  return dayRecordKey(companyId, CALLS, id);
}

/**
 * The indexes a call is found by (docs/table-design.md). While live, gsi3 (projection INCLUDE
 * offer_id): its entry is put when the call is made and deleted when it ends, and no save between
 * touches it (but a menu's routing to another offer), where an ALL entry would be rewritten, a
 * write unit, by each of the call's saves. By
 * caller, gsi2 through the call's carrier-call lookup item, which is written once with the call and
 * never again, so its entry is too. Calls stored before carry both entries on the call item itself
 * (live in gsi1, by caller in gsi2); the reads take those as well, and a save of a live one moves
 * its live entry to gsi3.
 */
const LIVE_INDEX = indexNamed('gsi3');
const OLD_LIVE_INDEX = indexNamed('gsi1');
const CALLER_INDEX = indexNamed('gsi2');

function indexNamed(name: string): TableIndex {
  const index = (tableDesign.globalIndexes as readonly TableIndex[]).find((candidate) => candidate.indexName === name);
  if (!index) throw new Error(`no index ${name} in the table design`);
  return index;
}

/** The call item's own index entry: live calls only. */
function indexAttributes(companyId: number, call: { id: number; in_progress: boolean }) {
  return call.in_progress ? { [LIVE_INDEX.partitionKey]: keys.liveCalls(companyId), [LIVE_INDEX.sortKey]: padId(call.id) } : {};
}

/** The carrier-call lookup's index entry: the call among its caller's calls. */
function callerIndexAttributes(companyId: number, call: { id: number; caller_number: string | null }) {
  return call.caller_number ? { [CALLER_INDEX.partitionKey]: keys.callsOfCaller(companyId, call.caller_number), [CALLER_INDEX.sortKey]: padId(call.id) } : {};
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
                Item: { ...carrierCallKey(call.carrier, call.carrier_call_id), ...callerIndexAttributes(companyId, call), company_id: companyId, resource: CALLS, id: call.id },
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
  // A call stored before gsi3 loses its gsi1 entry. Removing an attribute the item lacks changes
  // nothing (and writes no index entry), so every save asks.
  const gone = [...(call.in_progress ? [] : [LIVE_INDEX]), OLD_LIVE_INDEX].flatMap((index) => [index.partitionKey, index.sortKey]);
  gone.forEach((name, i) => {
    names[`#g${i}`] = name;
    removes.push(`#g${i}`);
  });
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

/** Items of an index keyed by padded call id, newest first, optionally strictly below a call id. */
async function queryIndex(index: TableIndex, pk: string, limit: number, beforeId?: number): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: index.indexName,
        KeyConditionExpression: beforeId === undefined ? '#pk = :pk' : '#pk = :pk AND #sk < :before',
        ExpressionAttributeNames: { '#pk': index.partitionKey, ...(beforeId === undefined ? {} : { '#sk': index.sortKey }) },
        ExpressionAttributeValues: { ':pk': pk, ...(beforeId === undefined ? {} : { ':before': padId(beforeId) }) },
        ScanIndexForward: false,
        Limit: Math.min(limit - items.length, 1000),
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < limit);
  return items;
}

/** An index entry of a call: its id, and the item when the entry is the whole call (an ALL index's copy of the call item). */
interface CallEntry {
  id: number;
  item: Record<string, unknown>;
  whole: boolean;
}

function entriesOf(index: TableIndex, companyId: number, items: readonly Record<string, unknown>[]): CallEntry[] {
  return items.map((item) => {
    const id = Number(item[index.sortKey]);
    const own = callKey(companyId, id);
    return { id, item, whole: index.projection === 'ALL' && item.pk === own.pk && item.sk === own.sk };
  });
}

/** The calls of entries, in their order: a whole call as it is, the others read by key (one BatchGetItem). */
async function callsOfEntries(companyId: number, entries: readonly CallEntry[]): Promise<CallRecord[]> {
  const fetched = await getItems(entries.filter((entry) => !entry.whole).map((entry) => callKey(companyId, entry.id)));
  const byId = new Map(fetched.map((item) => [Number(item.id), item]));
  return entries.flatMap((entry) => {
    const item = entry.whole ? entry.item : byId.get(entry.id);
    return item ? [storedCall(item)] : [];
  });
}

/**
 * A caller's calls, newest first (gsi2): the carrier-call lookups' entries, read then by key, and
 * the call items of calls stored before, which are their own entries.
 */
export async function callsOfCaller(companyId: number, caller: string, limit: number, beforeId?: number): Promise<CallRecord[]> {
  return callsOfEntries(companyId, entriesOf(CALLER_INDEX, companyId, await queryIndex(CALLER_INDEX, keys.callsOfCaller(companyId, caller), limit, beforeId)));
}

/**
 * Calls in progress, newest first, optionally strictly before a call id (a cursor) and of one
 * offer: gsi3 (its entries carry the offer, so only that offer's calls are read) beside gsi1 for
 * calls stored before gsi3. Each index gives its newest `limit`, so the newest `limit` of both
 * together are right; a call in both (moved a moment ago) shows once.
 */
export async function liveCalls(companyId: number, limit: number, beforeId?: number, offerId?: number): Promise<CallRecord[]> {
  const pk = keys.liveCalls(companyId);
  const [entries, older] = await Promise.all([queryIndex(LIVE_INDEX, pk, limit, beforeId), queryIndex(OLD_LIVE_INDEX, pk, limit, beforeId)]);
  const byId = new Map<number, CallEntry>();
  for (const entry of [...entriesOf(LIVE_INDEX, companyId, entries), ...entriesOf(OLD_LIVE_INDEX, companyId, older)]) {
    if (!byId.has(entry.id) && (offerId === undefined || entry.item.offer_id === offerId)) byId.set(entry.id, entry);
  }
  return callsOfEntries(companyId, [...byId.values()].sort((a, b) => b.id - a.id).slice(0, limit));
}
