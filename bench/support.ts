/**
 * What the bench scripts share: their own DynamoDB Local in memory (with the environment that
 * shared/config.ts reads set before any product module loads, and a watchdog), and a counter of
 * DynamoDB calls and consumed capacity on the shared document client.
 *
 * Only type imports at the top: a bench script imports this module first, so the environment
 * below is set before anything that reads it is loaded (everything else is imported lazily).
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

process.env.LOG_LEVEL ??= 'silent';

export interface BenchOptions {
  /** Table the script creates in its emulator. */
  tableName: string;
  /** A hard stop, so a hung emulator cannot keep the run going. */
  timeoutSeconds: number;
}

/**
 * Starts DynamoDB Local in memory, points the service's configuration at it (set before importing
 * anything that reads shared/config.ts, as shared/local/main.ts does), runs `body` and stops the
 * emulator whatever happens. `body` must import product modules dynamically.
 */
export async function runWithDynamoDbLocal(options: BenchOptions, body: () => Promise<void>): Promise<void> {
  const { startDynamoDbLocal } = await import('../shared/local/dynamodb-local.js');
  const dynamo = await startDynamoDbLocal();
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = options.tableName;
  process.env.AWS_REGION ??= 'local';

  const watchdog = setTimeout(() => {
    console.error(`bench: gave up after ${options.timeoutSeconds} s`);
    void dynamo.stop().finally(() => process.exit(1));
  }, options.timeoutSeconds * 1000);
  watchdog.unref();

  try {
    await body();
  } finally {
    clearTimeout(watchdog);
    await dynamo.stop();
  }
}

/** What the counted calls did since the last reset. */
export interface CallCounts {
  /** Calls by SDK command name (`QueryCommand`, `GetItemCommand`, `TransactWriteItemsCommand`...). */
  byCommand: Record<string, number>;
  /** Items returned: a Query's Count, a GetItem's item, a BatchGetItem's responses. */
  itemsReturned: number;
  /** Capacity DynamoDB reported for read commands. */
  readUnits: number;
  /** Capacity DynamoDB reported for write commands. */
  writeUnits: number;
  /** Capacity by command name (read and write). */
  unitsByCommand: Record<string, number>;
  /** Items returned, by command name. */
  itemsByCommand: Record<string, number>;
  /** Milliseconds spent waiting for each command (SDK and the emulator's answer), by command name. */
  msByCommand: Record<string, number>;
  /**
   * Sequential steps: a call sent while another is in flight joins its step (sent side by side),
   * one sent when none is in flight starts the next. Steps that began with a read command count
   * in `readSteps` too.
   */
  steps: number;
  readSteps: number;
}

export const READ_COMMANDS: ReadonlySet<string> = new Set(['QueryCommand', 'GetItemCommand', 'BatchGetItemCommand', 'ScanCommand', 'TransactGetItemsCommand']);

export interface CallCounter {
  /** The counts since the last reset (live: later calls change it until the next reset; copy to keep). */
  readonly current: CallCounts;
  reset(): void;
}

function emptyCounts(): CallCounts {
  return { byCommand: {}, itemsReturned: 0, readUnits: 0, writeUnits: 0, unitsByCommand: {}, itemsByCommand: {}, msByCommand: {}, steps: 0, readSteps: 0 };
}

/**
 * Adds a middleware to the client that asks DynamoDB for the consumed capacity
 * (ReturnConsumedCapacity TOTAL) of the commands in `commands` (every command when omitted) and
 * counts them, so product code is unchanged. Other commands pass through untouched, and so do
 * calls that fail (nothing is counted for them).
 */
export function countCalls(client: DynamoDBDocumentClient, commands?: ReadonlySet<string>): CallCounter {
  let counts = emptyCounts();
  let inFlight = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? 'unknown';
      if (commands && !commands.has(name)) return next(args);
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      if (inFlight === 0) {
        counts.steps += 1;
        if (READ_COMMANDS.has(name)) counts.readSteps += 1;
      }
      inFlight += 1;
      const started = performance.now();
      let result;
      try {
        result = await next(args);
      } finally {
        inFlight -= 1;
      }
      counts.msByCommand[name] = (counts.msByCommand[name] ?? 0) + performance.now() - started;
      const output = result.output as {
        Count?: number;
        Item?: unknown;
        Responses?: Record<string, unknown[]> | unknown[];
        ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
      };
      counts.byCommand[name] = (counts.byCommand[name] ?? 0) + 1;
      const batchItems = output.Responses && !Array.isArray(output.Responses) ? Object.values(output.Responses).reduce((sum, items) => sum + items.length, 0) : 0;
      const items = output.Count ?? (output.Item ? 1 : 0) + batchItems;
      counts.itemsReturned += items;
      counts.itemsByCommand[name] = (counts.itemsByCommand[name] ?? 0) + items;
      const consumed = Array.isArray(output.ConsumedCapacity) ? output.ConsumedCapacity : output.ConsumedCapacity ? [output.ConsumedCapacity] : [];
      const units = consumed.reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
      counts.unitsByCommand[name] = (counts.unitsByCommand[name] ?? 0) + units;
      if (READ_COMMANDS.has(name)) counts.readUnits += units;
      else counts.writeUnits += units;
      return result;
    },
    { step: 'initialize', name: 'benchCallCounter' },
  );
  return {
    get current() {
      return counts;
    },
    reset() {
      counts = emptyCounts();
    },
  };
}

/** Prints a table: first column left-aligned, the others right-aligned. */
export function printTable(title: string, header: string[], body: string[][]): void {
  const widths = header.map((cell, column) => Math.max(cell.length, ...body.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of body) console.log(line(row));
}

/** The p-th percentile (0-100) of `values`, nearest rank; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
