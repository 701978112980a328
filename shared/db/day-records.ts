import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { ID_EPOCH_MS, timeOfId } from './ids.js';
import { keys, padId, type Key } from './keys.js';
import { withoutKeys, type StoredRecord } from './records.js';

/**
 * High-volume records (webhook logs now, calls later): time-sortable ids, one partition per
 * company, resource and UTC day, so no partition or counter item runs hot. The day is part of
 * the id, so a record is found by id alone with one GetItem.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

export function dayOfTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function dayOfId(id: number): string {
  return dayOfTime(timeOfId(id));
}

/** Ids of one millisecond: the random part's range (shared/db/ids.ts). */
const IDS_PER_MS = 4096;

/** The smallest time-sortable id of a record made at or after `ms`. */
export function firstIdAt(ms: number): number {
  if (ms <= ID_EPOCH_MS) return 0;
  return Math.min((Math.ceil(ms) - ID_EPOCH_MS) * IDS_PER_MS, Number.MAX_SAFE_INTEGER);
}

/** The largest time-sortable id of a record made at or before `ms` (-1: none can be). */
export function lastIdAt(ms: number): number {
  if (ms < ID_EPOCH_MS) return -1;
  return Math.min((Math.floor(ms) - ID_EPOCH_MS) * IDS_PER_MS + IDS_PER_MS - 1, Number.MAX_SAFE_INTEGER);
}

/** The key of a record of a day-partitioned resource: its day's partition (from the id), the padded id. */
export function dayRecordKey(companyId: number, resource: string, id: number): Key {
  return { pk: keys.dayPartition(companyId, resource, dayOfId(id)), sk: padId(id) };
}

/** The Put of a new day record, for a transaction that writes it with other items. */
export function dayRecordPut(companyId: number, resource: string, record: StoredRecord) {
  return {
    TableName: tableName,
    Item: { ...dayRecordKey(companyId, resource, record.id), company_id: companyId, ...record },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

export async function putDayRecord(companyId: number, resource: string, record: StoredRecord): Promise<void> {
  await db.send(new PutCommand(dayRecordPut(companyId, resource, record)));
}

/** Deletes a record of a day-partitioned resource by id (nothing when it is not there). */
export async function deleteDayRecord(companyId: number, resource: string, id: number): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName, Key: dayRecordKey(companyId, resource, id) }));
}

export async function getDayRecord(companyId: number, resource: string, id: number): Promise<StoredRecord | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: dayRecordKey(companyId, resource, id) }));
  return result.Item ? withoutKeys(result.Item) : undefined;
}

export interface DayPageRequest {
  companyId: number;
  resource: string;
  /** Newest first, strictly before this id (a cursor), else from `toMs`. */
  beforeId?: number;
  fromMs: number;
  toMs: number;
  limit: number;
  accept?: (record: StoredRecord) => boolean;
  /** The record as its resource stores it, from the item read (keys removed by default); `accept` sees its result. */
  read?: (item: Record<string, unknown>) => StoredRecord;
  /** When known (from a count of the records per day), the only days that can hold records: no other day is queried. */
  days?: ReadonlySet<string>;
  /** Only these attributes of each item (`id` always): less to transfer when a read sums a few fields of many records. */
  attributes?: readonly string[];
}

/**
 * Day partitions one page may read (queried days: with `days`, days skipped do not count). A long window over sparse data stops here and answers
 * what it found with `resumeBeforeId`, which the caller turns into the next cursor, so no
 * request walks years of empty days (and none goes on working after its client gave up).
 */
export const MAX_DAYS_PER_PAGE = 120;

export interface DayPage {
  records: StoredRecord[];
  exhausted: boolean;
  /** Set when the page stopped at MAX_DAYS_PER_PAGE: the next page reads before this id. */
  resumeBeforeId?: number;
}

/**
 * Records between two times, newest first: one Query per day partition (of `days` when given),
 * from the newest day back, stopping as soon as `limit` records are found. Nothing exists before the id epoch, so
 * the window starts there at the earliest.
 */
export async function queryDayRecords(request: DayPageRequest): Promise<DayPage> {
  const records: StoredRecord[] = [];
  const fromMs = Math.max(request.fromMs, ID_EPOCH_MS);
  const upper = request.beforeId !== undefined ? Math.min(request.toMs, timeOfId(request.beforeId)) : request.toMs;
  let days = 0;
  const names = request.attributes ? [...new Set(['id', ...request.attributes])] : undefined;
  const projection = names ? { ProjectionExpression: names.map((_, index) => `#a${index}`).join(', '), ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#a${index}`, name])) } : {};
  for (let dayStart = Date.parse(`${dayOfTime(upper)}T00:00:00Z`); dayStart + DAY_MS > fromMs; dayStart -= DAY_MS) {
    if (request.days && !request.days.has(dayOfTime(dayStart))) continue;
    if (++days > MAX_DAYS_PER_PAGE) return { records, exhausted: false, resumeBeforeId: firstIdAt(dayStart + DAY_MS) };
    let startKey: Record<string, unknown> | undefined;
    // The key range of the day that can hold records of [fromMs, upper] (ids encode their time).
    const lastId = Math.min(lastIdAt(upper), request.beforeId !== undefined ? request.beforeId - 1 : Number.MAX_SAFE_INTEGER);
    const firstId = firstIdAt(fromMs);
    if (lastId < firstId) break;
    do {
      const page = await db.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
          ExpressionAttributeValues: {
            ':pk': keys.dayPartition(request.companyId, request.resource, dayOfTime(dayStart)),
            ':low': padId(firstId),
            ':high': padId(lastId),
          },
          ScanIndexForward: false,
          Limit: Math.max(request.limit - records.length, request.accept ? 100 : 1),
          ExclusiveStartKey: startKey,
          ...projection,
        }),
      );
      for (const item of page.Items ?? []) {
        const record = request.read ? request.read(item) : withoutKeys(item);
        const created = timeOfId(record.id);
        if (created > request.toMs || created < fromMs) continue;
        if (request.accept && !request.accept(record)) continue;
        records.push(record);
        if (records.length >= request.limit) return { records, exhausted: false };
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
  return { records, exhausted: true };
}
