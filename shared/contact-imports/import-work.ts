import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../adapters/clock.js';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import { getRecord, type StoredRecord } from '../db/records.js';
import { budgetFromEnv, WORK_LEASE_MS } from '../db/work-lease.js';
import { logger } from '../logger.js';
import { readImportCsv } from './csv-rows.js';
import { importObjectKey, MAX_UPLOAD_BYTES, type ImportRef } from './import-keys.js';
import { columnsProblem } from './import-rows.js';
import { run, storeRows } from './import-run.js';
import { continueImport } from './upload.js';

/**
 * A contact import's background work: one step per queued message (AWS: the lead runner reads
 * them from its steps queue; locally: a queue in the table, shared/adapters/local/table-work.ts).
 * A step takes the import's file (an arrived upload, or the CSV a body import's create stored the
 * same way): checks its size again
 * against MAX_UPLOAD_BYTES and the declared `file_size` before reading it, parses it, stores its
 * rows, deletes the file; or fails the import with `file_errors`. Then it imports rows for one
 * budget and, when rows are left, queues the next step. Steps are safe to repeat: the file is
 * taken under a condition on the record and a lease, rows under the work lease
 * (shared/db/work-lease.ts).
 */

/** A background step's budget (within the runner's 60 s), unless CONTACT_IMPORT_BUDGET_MS says otherwise (tests set 0: one batch per step). */
export const BACKGROUND_BUDGET_MS = 30_000;

export const backgroundBudgetMs = (): number => budgetFromEnv('CONTACT_IMPORT_BUDGET_MS', BACKGROUND_BUDGET_MS);

export type StepOutcome = 'missing' | 'finished' | 'busy' | 'no_file' | 'refused' | 'completed' | 'in_progress';

const recordKey = (ref: ImportRef) => keys.record(ref.companyId, 'contact_imports', ref.importId);

/** The statuses of an import whose file is not read yet: an upload's (it may not have arrived), a body import's (stored at create). */
const AWAITING_FILE: readonly unknown[] = ['awaiting_upload', 'queued'];
const AWAITING_FILE_VALUES = Object.fromEntries(AWAITING_FILE.map((status, index) => [`:awaiting${index}`, status]));
const AWAITING_FILE_CONDITION = `#status IN (${Object.keys(AWAITING_FILE_VALUES).join(', ')})`;

/** Fails an import whose file cannot be imported (only while it awaits its file and this step holds it). */
async function refuse(ref: ImportRef, now: Date, lease: string, message: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: recordKey(ref),
      UpdateExpression: 'SET #status = :failed, file_errors = :errors, finished_at = :now, updated_at = :now, lease_until = :now',
      ConditionExpression: `${AWAITING_FILE_CONDITION} AND lease_until = :lease`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':failed': 'failed', ':errors': { csv: [message] }, ':now': now.toISOString(), ...AWAITING_FILE_VALUES, ':lease': lease },
    }),
  );
}

/** Takes the import's stored file: the import becomes `pending` with its rows stored, or `failed`; 'busy' when another step holds it. */
async function takeFile(ref: ImportRef, record: StoredRecord, now: Date): Promise<'ready' | 'busy' | 'no_file' | 'refused'> {
  const lease = new Date(now.getTime() + WORK_LEASE_MS).toISOString();
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: recordKey(ref),
        UpdateExpression: 'SET lease_until = :lease',
        ConditionExpression: `${AWAITING_FILE_CONDITION} AND (attribute_not_exists(lease_until) OR lease_until <= :now)`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':lease': lease, ...AWAITING_FILE_VALUES, ':now': now.toISOString() },
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return 'busy';
    throw error;
  }
  const storage = (await import('../adapters/object-storage.js')).objectStorage();
  const key = importObjectKey(ref);
  const declared = Number(record.file_size);
  const file = await storage.readUpTo(key, Math.min(MAX_UPLOAD_BYTES, declared));
  if (!file) {
    // Nothing there (a repeated event after the file was taken): let the next step try again.
    await db.send(new UpdateCommand({ TableName: tableName, Key: recordKey(ref), UpdateExpression: 'SET lease_until = :now', ExpressionAttributeValues: { ':now': now.toISOString() } }));
    return 'no_file';
  }
  const refusal = async (message: string) => {
    await refuse(ref, now, lease, message);
    await storage.delete(key);
    return 'refused' as const;
  };
  if (!file.bytes) return refusal(`is ${file.size} bytes: larger than the file_size declared (${declared}) or the largest upload (${MAX_UPLOAD_BYTES})`);
  if (file.size !== declared) return refusal(`is ${file.size} bytes: the import declared file_size ${declared}`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(file.bytes);
  } catch {
    return refusal('is not UTF-8 text');
  }
  const reading = readImportCsv(text);
  if (!reading.ok) return refusal(reading.message);
  const problem = columnsProblem(record.import_type, reading.columns);
  if (problem) return refusal(problem);
  const stored = await storeRows(ref.companyId, String(record.uuid), reading);
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: recordKey(ref),
        UpdateExpression: 'SET #status = :pending, #columns = :columns, total_rows = :total, chunk_starts = :starts, updated_at = :now, lease_until = :now',
        ConditionExpression: `${AWAITING_FILE_CONDITION} AND lease_until = :lease`,
        ExpressionAttributeNames: { '#status': 'status', '#columns': 'columns' },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':columns': stored.fields.columns,
          ':total': stored.fields.total_rows,
          ':starts': stored.fields.chunk_starts,
          ':now': now.toISOString(),
          ...AWAITING_FILE_VALUES,
          ':lease': lease,
        },
      }),
    );
  } catch (error) {
    await stored.release();
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return 'busy';
    throw error;
  }
  // The rows are in the table now; the file (personal data) goes.
  await storage.delete(key).catch((error: unknown) => logger.error('could not delete an imported upload (the bucket expires it)', { ...ref, error }));
  return 'ready';
}

/**
 * One background step of an import. Safe to run for any message: an unknown import, a finished
 * one or one another step holds is left alone. Throws only what a retry may fix (the queue then
 * brings the message back).
 */
export async function advanceImport(ref: ImportRef, options: { now?: Date; budgetMs?: number } = {}): Promise<StepOutcome> {
  const now = options.now ?? clock().now();
  let record = await getRecord(ref.companyId, 'contact_imports', ref.importId);
  if (!record) return 'missing';
  if (AWAITING_FILE.includes(record.status)) {
    const taken = await takeFile(ref, record, now);
    if (taken !== 'ready') return taken;
    record = (await getRecord(ref.companyId, 'contact_imports', ref.importId))!;
  }
  if (record.status !== 'pending' && record.status !== 'in_progress') return 'finished';
  const stored = await run({ companyId: ref.companyId, now }, record, options.budgetMs ?? backgroundBudgetMs());
  if (!Object.keys(stored).length) return 'busy';
  if (stored.status !== 'in_progress') return 'completed';
  await continueImport(ref);
  return 'in_progress';
}
