import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { writeContactFields } from '../contacts/contact-write.js';
import { db, tableName } from '../db/client.js';
import { takeWorkLease } from '../db/work-lease.js';
import { keys } from '../db/keys.js';
import { getRecord, updateRecord, type StoredRecord } from '../db/records.js';
import { HttpError, ValidationError } from '../http/errors.js';
import { validate } from '../http/validation.js';
import { readSubmission } from '../leads/lead-params.js';
import { submitLead } from '../leads/lead-submission.js';
import { logger } from '../logger.js';
import { validStoredNumber } from '../phone-validation.js';
import { contactUpdateSchema } from '../contacts/contact-write.js';
import type { HookContext } from '../resources/define.js';
import { chunkRows, rowValues } from './csv-rows.js';

/**
 * Running a contact import (shared/resources/contact-imports.ts), for the background steps only
 * (shared/contact-imports/import-work.ts, in the lead runner): requests never run one, so the
 * contacts function bundles neither this, the CSV reader, nor the lead engine. A step runs for one
 * time budget and queues the next until the import completes. A lease on the record keeps two
 * steps from running one import at once; progress is saved after each batch of rows (BATCH_ROWS
 * contacts, or every lead: a lead row run twice would submit twice, a contact row written twice
 * is the same contact). The rows wait in chunk items beside the record (keys.contactImportRows)
 * until the import completes.
 */
/** Contact rows between two saves of progress. */
export const BATCH_ROWS = 25;
/** Row errors kept on the record (error_count counts them all). */
export const MAX_ROW_ERRORS = 100;

/** The caller number column of a contacts CSV: the first of these present in the header. */
export const NUMBER_COLUMNS = ['caller_id', 'caller_number', 'phone_number', 'phone', 'number'] as const;
const CONTACT_COLUMNS = ['first_name', 'last_name', 'email', 'notes'] as const;

export interface RowError {
  row: number;
  errors: Record<string, string[]>;
}

/** A contact row's number and fields; unknown columns are the contact's data. Throws ValidationError. Pure but for the schema. */
export function contactRow(values: Record<string, string>): { number: string; fields: v.InferOutput<typeof contactUpdateSchema> } {
  const numberColumn = NUMBER_COLUMNS.find((column) => values[column] !== undefined);
  // A contact stored: valid under the full metadata, not only possible.
  const number = numberColumn ? validStoredNumber(values[numberColumn]!.slice(0, 40)) : undefined;
  const input: Record<string, unknown> = {};
  const data: Record<string, string> = {};
  for (const [column, value] of Object.entries(values)) {
    if ((NUMBER_COLUMNS as readonly string[]).includes(column)) continue;
    if ((CONTACT_COLUMNS as readonly string[]).includes(column)) input[column] = value;
    else data[column] = value;
  }
  if (Object.keys(data).length) input.data = data;
  let fields: v.InferOutput<typeof contactUpdateSchema> = {};
  let errors: Record<string, string[]> = {};
  try {
    fields = validate(contactUpdateSchema, input);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    errors = { ...error.errors };
  }
  if (!number) errors = { [numberColumn ?? 'caller_id']: [numberColumn ? 'is not a phone number' : "can't be blank"], ...errors };
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { number: number!, fields };
}

/**
 * Stores parsed rows in chunk items beside the import (keys.contactImportRows); the fields that
 * locate them, and how to delete them again (a failed write). Body imports and uploads alike,
 * when their background step takes the file (import-work.ts).
 */
export async function storeRows(companyId: number, uuid: string, reading: { columns: string[]; rows: string[][] }) {
  const chunks = chunkRows(reading.rows);
  const written: number[] = [];
  const release = async () => {
    for (const index of written) await db.send(new DeleteCommand({ TableName: tableName, Key: keys.contactImportRows(companyId, uuid, index) }));
  };
  try {
    for (const [index, rows] of chunks.entries()) {
      await db.send(new PutCommand({ TableName: tableName, Item: { ...keys.contactImportRows(companyId, uuid, index), rows } }));
      written.push(index);
    }
  } catch (error) {
    await release();
    throw error;
  }
  const starts = chunks.reduce<number[]>((list, rows, index) => [...list, index === 0 ? 0 : list[index - 1]! + chunks[index - 1]!.length], []);
  return { fields: { columns: reading.columns, total_rows: reading.rows.length, chunk_starts: starts }, release };
}

/** Why a parsed CSV cannot be imported as the import's type (contacts need a number column), or undefined. */
export function columnsProblem(importType: unknown, columns: readonly string[]): string | undefined {
  if (importType === 'leads' || NUMBER_COLUMNS.some((column) => columns.includes(column))) return undefined;
  return `has no caller number column (one of ${NUMBER_COLUMNS.join(', ')})`;
}

async function readChunk(companyId: number, uuid: string, index: number): Promise<string[][]> {
  const item = await db.send(new GetCommand({ TableName: tableName, Key: keys.contactImportRows(companyId, uuid, index), ConsistentRead: true }));
  return (item.Item?.rows as string[][] | undefined) ?? [];
}

/** The lead token of the import's offer or schedule (gone since: every row gets that error). */
async function leadTokenOf(companyId: number, record: StoredRecord): Promise<string | undefined> {
  const owner = record.offer_id ? await getRecord(companyId, 'offers', Number(record.offer_id)) : await getRecord(companyId, 'schedules', Number(record.schedule_id));
  return typeof owner?.lead_token === 'string' ? owner.lead_token : undefined;
}

/** One row: imported (true) or its errors. */
async function importRow(context: HookContext, record: StoredRecord, values: Record<string, string>, leadToken: string | undefined): Promise<true | Record<string, string[]>> {
  try {
    if (record.import_type === 'leads') {
      if (!leadToken) return { [record.offer_id ? 'offer_id' : 'schedule_id']: ['no longer exists'] };
      // A contact list's row names a contact: one without a number or an e-mail is a mistake in the
      // file, although POST /api/v1/leads takes a contactless lead.
      const contact = readSubmission(values);
      if (!contact.caller_id && !contact.email) return { caller_id: ["can't be blank when email is blank"] };
      // Exactly what POST /api/v1/leads does with these parameters; the import's token wins over a column of that name.
      await submitLead({ ...values, lead_token: leadToken }, context.now);
    } else {
      const { number, fields } = contactRow(values);
      await writeContactFields(context.companyId, number, fields, context.now.toISOString());
    }
    return true;
  } catch (error) {
    if (error instanceof HttpError) return Object.keys(error.errors).length ? error.errors : { base: [error.message] };
    throw error;
  }
}

/**
 * Runs the import for `budget` ms (at least one batch); the fields it stored (the import as it
 * now stands), or {} when another step holds it or it is finished.
 */
export async function run(context: HookContext, record: StoredRecord, budget: number): Promise<Record<string, unknown>> {
  const { companyId } = context;
  if (!(await takeWorkLease(companyId, 'contact_imports', record.id, context.now, { markStarted: true }))) return {};
  const started = performance.now();
  const uuid = String(record.uuid);
  const columns = record.columns as string[];
  const starts = (record.chunk_starts as number[] | undefined) ?? [0];
  const total = Number(record.total_rows);
  const progress = {
    processed_rows: Number(record.processed_rows ?? 0),
    imported_count: Number(record.imported_count ?? 0),
    error_count: Number(record.error_count ?? 0),
    row_errors: [...((record.row_errors as RowError[] | undefined) ?? [])],
  };
  const batch = record.import_type === 'leads' ? 1 : BATCH_ROWS;
  const leadToken = record.import_type === 'leads' ? await leadTokenOf(companyId, record) : undefined;
  let chunk: { index: number; rows: string[][] } | undefined;
  // At least one batch per request, so a resume always makes progress.
  for (let batches = 0; progress.processed_rows < total; batches++) {
    if (batches > 0 && performance.now() - started > budget) break;
    const end = Math.min(total, progress.processed_rows + batch);
    for (let row = progress.processed_rows; row < end; row++) {
      const index = starts.findLastIndex((start) => start <= row);
      if (chunk?.index !== index) chunk = { index, rows: await readChunk(companyId, uuid, index) };
      const outcome = await importRow(context, record, rowValues(columns, chunk.rows[row - starts[index]!] ?? []), leadToken);
      if (outcome === true) progress.imported_count++;
      else {
        progress.error_count++;
        if (progress.row_errors.length < MAX_ROW_ERRORS) progress.row_errors.push({ row: row + 1, errors: outcome });
      }
    }
    progress.processed_rows = end;
    if (end < total && !(await updateRecord(companyId, 'contact_imports', record.id, { ...progress, updated_at: context.now.toISOString() }))) return {};
  }
  const done = progress.processed_rows >= total;
  const final = {
    ...progress,
    status: done ? 'completed' : 'in_progress',
    finished_at: done ? context.now.toISOString() : null,
    // Released: the next resume may take it at once.
    lease_until: context.now.toISOString(),
    updated_at: context.now.toISOString(),
  };
  if (!(await updateRecord(companyId, 'contact_imports', record.id, final))) return {};
  if (done) {
    for (const index of starts.keys()) {
      await db.send(new DeleteCommand({ TableName: tableName, Key: keys.contactImportRows(companyId, uuid, index) })).catch((error: unknown) => logger.error('could not delete a finished import’s rows', { companyId, importId: record.id, error }));
    }
  }
  return final;
}
