/**
 * Global secondary index writes, for the benches' billed write units. DynamoDB bills every write
 * of an indexed item a write per index entry it writes (a put, a delete, or both when the entry's
 * keys change; an ALL entry is rewritten whenever any attribute changes), at 1 unit per KB of the
 * entry. The benches cannot see that in a request, so the tracer reads each written item before
 * and after the write and applies the rules below to the two versions.
 *
 * Assumption: index writes are counted at the standard rate also inside transactions (AWS's
 * documents double a transaction's table writes, and say nothing of its index writes).
 *
 * DynamoDB Local reports index units of its own in a write's ConsumedCapacity (TOTAL includes
 * them, INDEXES itemises them): the tracer asks for the itemised figures and passes them on as
 * `reported`, so a bench that bills from Local's figures can replace Local's index units by these
 * instead of counting them twice.
 *
 * Nothing here reads the configuration when loaded: the tracer's raw client comes from the caller
 * or from `rawDocumentClient`, which loads the product's client module once the bench has set
 * the environment.
 */
import { isDeepStrictEqual } from 'node:util';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { itemSize } from '../shared/db/item-limits.js';
import { tableDesign, type TableIndex } from '../shared/db/table-design.js';

type Item = Record<string, unknown>;

/** An index as the table design declares it. */
export type IndexDesign = TableIndex;

/** Index write units: in all and by index name (indexes written to only). */
export interface IndexUnits {
  total: number;
  byIndex: Record<string, number>;
}

const present = (item: Item | undefined, name: string) => item !== undefined && item[name] !== undefined && item[name] !== null;

/** What an index entry holds: the whole item (ALL), or the table's and the index's keys (KEYS_ONLY) and its `nonKeyAttributes` (INCLUDE). */
function entryOf(item: Item, index: IndexDesign): Item {
  if (index.projection === 'ALL') return item;
  const names = [tableDesign.partitionKey, tableDesign.sortKey, index.partitionKey, index.sortKey, ...(index.projection === 'INCLUDE' ? (index.nonKeyAttributes ?? []) : [])];
  return Object.fromEntries(names.filter((name) => present(item, name)).map((name) => [name, item[name]]));
}

/** One entry written (put or deleted): 1 unit per KB of it, rounded up, at least 1. */
const entryUnits = (item: Item, index: IndexDesign) => Math.max(1, Math.ceil(itemSize(entryOf(item, index)).bytes / 1024));

/**
 * The index write units of one item's write, from the item before and after it (undefined: no
 * item). Per index: an item is in it when it has both the index's key attributes; entering puts
 * an entry, leaving deletes one, a key change does both, and otherwise the entry is rewritten when
 * a projected attribute changed (KEYS_ONLY projects only keys, so then never).
 */
export function indexWriteUnits(before: Item | undefined, after: Item | undefined, indexes: readonly IndexDesign[] = tableDesign.globalIndexes): IndexUnits {
  const byIndex: Record<string, number> = {};
  for (const index of indexes) {
    const inBefore = present(before, index.partitionKey) && present(before, index.sortKey);
    const inAfter = present(after, index.partitionKey) && present(after, index.sortKey);
    let units = 0;
    if (inBefore && !inAfter) units = entryUnits(before!, index);
    else if (!inBefore && inAfter) units = entryUnits(after!, index);
    else if (inBefore && inAfter) {
      const keysChanged = before![index.partitionKey] !== after![index.partitionKey] || before![index.sortKey] !== after![index.sortKey];
      if (keysChanged) units = entryUnits(before!, index) + entryUnits(after!, index);
      else if (!isDeepStrictEqual(entryOf(before!, index), entryOf(after!, index))) units = entryUnits(after!, index);
    }
    if (units) byIndex[index.indexName] = units;
  }
  return { total: Object.values(byIndex).reduce((sum, units) => sum + units, 0), byIndex };
}

/** Adds `units` into `into` (in place) and returns it. */
export function addIndexUnits(into: IndexUnits, units: IndexUnits): IndexUnits {
  into.total += units.total;
  for (const [name, value] of Object.entries(units.byIndex)) into.byIndex[name] = (into.byIndex[name] ?? 0) + value;
  return into;
}

/** `gsi1 1, gsi2 1` (indexes in the table's order), or '' for none. */
export function formatByIndex(byIndex: Record<string, number>): string {
  const names = [...tableDesign.globalIndexes.map((index) => index.indexName as string), ...Object.keys(byIndex).sort()];
  return [...new Set(names)]
    .filter((name) => byIndex[name])
    .map((name) => `${name} ${Number.isInteger(byIndex[name]) ? byIndex[name] : byIndex[name]!.toFixed(1)}`)
    .join(', ');
}

/** One traced write request. */
export interface IndexWrite extends IndexUnits {
  /** SDK command name (`PutItemCommand`, `TransactWriteItemsCommand`...). */
  command: string;
  /** The command's input (the document client's plain values; the same object outer middlewares see). */
  input: Record<string, any>;
  /** Index units DynamoDB (Local) reported in the answer's ConsumedCapacity; undefined when not asked or it threw. */
  reported: number | undefined;
  /** Whether the command threw (what it changed is still accounted: usually nothing). */
  failed: boolean;
}

export interface IndexWriteTracer {
  /** Off: writes pass through untouched (e.g. while a bench times requests: the tracer's reads take time). */
  enabled: boolean;
  /**
   * Since the last reset: index units, the write requests they came from, and the index units
   * DynamoDB (Local) reported for them (0 where not asked).
   */
  readonly current: IndexUnits & { writes: number; reported: number };
  reset(): void;
}

/** The SDK commands that write items (the tracer's, and the test request log's). */
export const WRITE_COMMANDS: ReadonlySet<string> = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

/** The items a write request writes: table name and primary key of each (condition checks write nothing). */
function writtenKeys(command: string, input: Record<string, any>): Array<{ table: string; key: Item }> {
  const keyOf = (item: Item) => ({ [tableDesign.partitionKey]: item[tableDesign.partitionKey], [tableDesign.sortKey]: item[tableDesign.sortKey] });
  switch (command) {
    case 'PutItemCommand':
      return [{ table: input.TableName, key: keyOf(input.Item ?? {}) }];
    case 'UpdateItemCommand':
    case 'DeleteItemCommand':
      return [{ table: input.TableName, key: input.Key }];
    case 'TransactWriteItemsCommand':
      return (input.TransactItems ?? []).flatMap((item: any) => {
        if (item.Put) return [{ table: item.Put.TableName, key: keyOf(item.Put.Item ?? {}) }];
        const write = item.Update ?? item.Delete;
        return write ? [{ table: write.TableName, key: write.Key }] : [];
      });
    case 'BatchWriteItemCommand':
      return Object.entries(input.RequestItems ?? {}).flatMap(([table, requests]) =>
        (requests as any[]).map((request) => ({ table, key: request.PutRequest ? keyOf(request.PutRequest.Item ?? {}) : request.DeleteRequest?.Key })),
      );
    default:
      return [];
  }
}

/** The index units in a write's ConsumedCapacity (ReturnConsumedCapacity INDEXES), when it has them. */
function reportedIndexUnits(output: unknown): number | undefined {
  const consumed = (output as { ConsumedCapacity?: unknown })?.ConsumedCapacity;
  if (!consumed) return undefined;
  const entries = (Array.isArray(consumed) ? consumed : [consumed]) as Array<{ GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }> }>;
  return entries.reduce((sum, entry) => sum + Object.values(entry.GlobalSecondaryIndexes ?? {}).reduce((s, index) => s + (index.CapacityUnits ?? 0), 0), 0);
}

/**
 * Adds a middleware to `client` that accounts the index writes of every write request: it reads
 * each written item before and after (consistent GetItems through `raw`, a client of the same
 * endpoint that no bench counts) and applies `indexWriteUnits`, whether the request succeeded or
 * threw (a refused write changes nothing: 0). Add it after the bench's counters, so it runs inside
 * them: they see one request, and their in-flight windows (sequential steps) hold the reads too.
 * Where a request already asks for ReturnConsumedCapacity, it asks for INDEXES (the same TOTAL,
 * itemised) so `reported` carries Local's own index units.
 *
 * Traced writes run one at a time: two writes of one item side by side would otherwise each see
 * the other's change in their before/after reads.
 */
function traceIndexWrites(client: DynamoDBDocumentClient, raw: DynamoDBDocumentClient, onWrite?: (write: IndexWrite) => void): IndexWriteTracer {
  let current = { total: 0, byIndex: {} as Record<string, number>, writes: 0, reported: 0 };
  let queue: Promise<unknown> = Promise.resolve();
  const tracer: IndexWriteTracer = {
    enabled: true,
    get current() {
      return current;
    },
    reset() {
      current = { total: 0, byIndex: {}, writes: 0, reported: 0 };
    },
  };
  const read = async (targets: Array<{ table: string; key: Item }>) =>
    Promise.all(
      targets.map(async ({ table, key }) => {
        try {
          return (await raw.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
        } catch {
          return undefined; // a key DynamoDB refuses: the write is refused too
        }
      }),
    );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? 'unknown';
      if (!tracer.enabled || !WRITE_COMMANDS.has(command)) return next(args);
      const input = args.input as Record<string, any>;
      if (input.ReturnConsumedCapacity === 'TOTAL') input.ReturnConsumedCapacity = 'INDEXES';
      const targets = writtenKeys(command, input);
      const turn = queue.then(async () => {
        const before = await read(targets);
        let result: Awaited<ReturnType<typeof next>> | undefined;
        let error: unknown;
        try {
          result = await next(args);
        } catch (thrown) {
          error = thrown ?? new Error('write failed');
        }
        const after = await read(targets);
        const units = targets.reduce((sum, _, at) => addIndexUnits(sum, indexWriteUnits(before[at], after[at])), { total: 0, byIndex: {} } as IndexUnits);
        const reported = result ? reportedIndexUnits(result.output) : undefined;
        addIndexUnits(current, units);
        current.writes += 1;
        current.reported += reported ?? 0;
        onWrite?.({ command, input, ...units, reported, failed: error !== undefined });
        return { result, error };
      });
      queue = turn.catch(() => undefined);
      const { result, error } = await turn;
      if (error !== undefined) throw error;
      return result!;
    },
    { step: 'initialize', name: 'benchIndexWrites' },
  );
  return tracer;
}

/**
 * A document client of the product's endpoint and region (shared/db/client.ts's factory), apart
 * from the shared one: the tracer's reads are not the service's requests. Call it once the bench
 * has set the environment (runWithDynamoDbLocal's body).
 */
async function rawDocumentClient(): Promise<DynamoDBDocumentClient> {
  const { createDocumentClient } = await import('../shared/db/client.js');
  const { config } = await import('../shared/config.js');
  return createDocumentClient(config.dynamoEndpoint, config.region);
}

/**
 * The tracer on `client` with its own raw client: the usual way in for a bench (call after its
 * counters are added; see traceIndexWrites).
 */
export async function traceIndexWritesOf(client: DynamoDBDocumentClient, onWrite?: (write: IndexWrite) => void): Promise<IndexWriteTracer> {
  return traceIndexWrites(client, await rawDocumentClient(), onWrite);
}
