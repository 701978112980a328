import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { keys, padId } from './keys.js';
import { withoutKeys, type StoredRecord } from './record-items.js';

/** Queries of a company's records of one resource, in id order: a page, the whole set, or the attributes to pick a page from. */

/** Reads that a list made, for the paging measurements in bench/. */
export interface ReadStats {
  queries: number;
  itemsRead: number;
}

export interface RecordPageRequest {
  companyId: number;
  resource: string;
  direction: 'asc' | 'desc';
  /** Stop after this many matching records. */
  limit: number;
  /** Start after this id (exclusive), in the direction of travel. */
  afterId?: number;
  /** Keep only records passing this; the query reads on until `limit` pass or none are left. */
  accept?: (record: StoredRecord) => boolean;
  /**
   * Read only these attributes of each record (a ProjectionExpression; `id` is always read):
   * what a re-ordered or filtered numbered page needs to pick its rows. DynamoDB still charges
   * for the whole items read, but returns, parses and holds only these.
   */
  attributes?: readonly string[];
  /** Stop after this many Query calls (`exhausted` says whether the set ended). */
  maxQueries?: number;
  stats?: ReadStats;
}

/** The largest id a sort key can hold (16 digits). */
const MAX_ID = 10 ** 16 - 1;

/** Items a filtered Query asks for at least, so a sparse filter does not cost a Query per match. */
const FILTERED_MIN_LIMIT = 100;

/**
 * How many items to ask for when `missing` matches are still needed. Unfiltered: exactly that.
 * Filtered: at least a batch, since most items may not match (items read past the page's last
 * record are dropped; the cursor points at the last record returned). None for a whole set: a
 * Limit must fit an int32.
 */
function queryLimit(missing: number, filtered: boolean): number | undefined {
  if (missing > 10_000) return undefined;
  return filtered ? Math.max(missing, FILTERED_MIN_LIMIT) : Math.max(1, missing);
}

/** A ProjectionExpression of `id` and the given attributes, every name a placeholder (`name`, `number` are reserved words). */
function projectionOf(attributes: readonly string[]): { expression: string; names: Record<string, string> } {
  const wanted = [...new Set(['id', ...attributes])];
  return { expression: wanted.map((_, index) => `#p${index}`).join(', '), names: Object.fromEntries(wanted.map((name, index) => [`#p${index}`, name])) };
}

/**
 * Records in id order, reading only as many items as it takes to find `limit` matches: each
 * Query asks for the number still missing, so an unfiltered page reads exactly its records.
 */
export async function queryRecordPage(request: RecordPageRequest): Promise<{ records: StoredRecord[]; exhausted: boolean }> {
  const records: StoredRecord[] = [];
  const pk = keys.resourcePartition(request.companyId, request.resource);
  // Records are exactly the zero-padded ids: the range leaves out companion items (`stats#...`).
  let low = 0;
  let high = MAX_ID;
  if (request.afterId !== undefined) {
    if (request.direction === 'asc') low = request.afterId + 1;
    else high = request.afterId - 1;
  }
  if (low > high) return { records, exhausted: true };
  const projection = request.attributes ? projectionOf(request.attributes) : undefined;
  let startKey: Record<string, unknown> | undefined;
  let queries = 0;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        ExpressionAttributeValues: { ':pk': pk, ':low': padId(low), ':high': padId(high) },
        ...(projection ? { ProjectionExpression: projection.expression, ExpressionAttributeNames: projection.names } : {}),
        ScanIndexForward: request.direction === 'asc',
        Limit: queryLimit(request.limit - records.length, Boolean(request.accept)),
        ExclusiveStartKey: startKey,
      }),
    );
    if (request.stats) {
      request.stats.queries += 1;
      request.stats.itemsRead += page.Items?.length ?? 0;
    }
    for (const item of page.Items ?? []) {
      const record = withoutKeys(item);
      if (!request.accept || request.accept(record)) records.push(record);
      if (records.length >= request.limit) break;
    }
    startKey = page.LastEvaluatedKey;
    queries += 1;
  } while (startKey && records.length < request.limit && queries < (request.maxQueries ?? Number.POSITIVE_INFINITY));
  return { records, exhausted: !startKey && records.length < request.limit };
}

/** Every record of a company's resource, in id order (configuration sets are small). */
export async function queryAllRecords(companyId: number, resource: string, stats?: ReadStats): Promise<StoredRecord[]> {
  const { records } = await queryRecordPage({ companyId, resource, direction: 'asc', limit: Number.MAX_SAFE_INTEGER, stats });
  return records;
}

/**
 * Every record of a company's resource, for picking a page by an order or filters. The first
 * Query reads whole items, as a whole-set read would: a set that fits its response (1 MB of
 * items) is read in that one request and is its own page's rows (`whole`). A larger set goes on
 * from there with projected Queries of `id` and `attributes` only, and the page's rows are read
 * by id afterwards. (DynamoDB charges a projected read for the whole items; the projection saves
 * what is sent, parsed and held, not read units.)
 */
export async function queryRecordsToPick(
  companyId: number,
  resource: string,
  attributes: readonly string[],
  stats?: ReadStats,
): Promise<{ records: Array<Record<string, unknown> & { id: number }>; whole: boolean }> {
  const all = Number.MAX_SAFE_INTEGER;
  const first = await queryRecordPage({ companyId, resource, direction: 'asc', limit: all, maxQueries: 1, stats });
  const last = first.records[first.records.length - 1];
  if (first.exhausted || !last) return { records: first.records, whole: true };
  const rest = await queryRecordPage({ companyId, resource, direction: 'asc', limit: all, afterId: last.id, attributes, stats });
  return { records: [...first.records, ...rest.records], whole: false };
}
