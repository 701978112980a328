import { parse } from 'csv-parse/sync';
import { MAX_IMPORT_CSV_CHARS } from './import-keys.js';

/**
 * Reading a contact import's CSV (pure): the header (column names, lower-cased) and the data
 * rows, bounded: at most MAX_IMPORT_CSV_CHARS of text (import-keys.ts; the route takes no larger
 * body), at most MAX_IMPORT_ROWS data rows and MAX_IMPORT_COLUMNS columns. The rows are cut into
 * chunks of at most CHUNK_BYTES of JSON, each kept as one item until the import has processed it.
 */
export const MAX_IMPORT_ROWS = 10_000;
export const MAX_IMPORT_COLUMNS = 100;
export const MAX_COLUMN_NAME_CHARS = 100;
export const CHUNK_BYTES = 300_000;

export type CsvReading = { ok: true; columns: string[]; rows: string[][] } | { ok: false; message: string };

export function readImportCsv(text: string): CsvReading {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true, max_record_size: MAX_IMPORT_CSV_CHARS }) as string[][];
  } catch (error) {
    return { ok: false, message: `is not valid CSV (${(error as Error).message.slice(0, 200)})` };
  }
  const [header, ...rows] = records;
  if (!header || header.every((name) => !name)) return { ok: false, message: 'has no header row' };
  if (header.length > MAX_IMPORT_COLUMNS) return { ok: false, message: `has too many columns (maximum is ${MAX_IMPORT_COLUMNS})` };
  const columns = header.map((name) => name.toLowerCase());
  if (columns.some((name) => name.length > MAX_COLUMN_NAME_CHARS)) return { ok: false, message: `has a column name longer than ${MAX_COLUMN_NAME_CHARS} characters` };
  const named = columns.filter(Boolean);
  if (new Set(named).size !== named.length) return { ok: false, message: 'names a column twice' };
  if (rows.length === 0) return { ok: false, message: 'has no rows after the header' };
  if (rows.length > MAX_IMPORT_ROWS) return { ok: false, message: `has too many rows (maximum is ${MAX_IMPORT_ROWS})` };
  // Each chunk is one item: a single row must fit in one.
  if (rows.some((row) => Buffer.byteLength(JSON.stringify(row)) > CHUNK_BYTES)) return { ok: false, message: `has a row larger than ${CHUNK_BYTES} bytes` };
  return { ok: true, columns, rows };
}

/** A row as named values: blank cells and unnamed columns left out. */
export function rowValues(columns: readonly string[], row: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  columns.forEach((column, index) => {
    const value = row[index];
    if (column && value !== undefined && value !== '') values[column] = value;
  });
  return values;
}

/** Rows cut into chunks of at most `limit` bytes of JSON each (a row larger than that is a chunk of its own). */
export function chunkRows(rows: readonly string[][], limit = CHUNK_BYTES): string[][][] {
  const chunks: string[][][] = [];
  let current: string[][] = [];
  let size = 0;
  for (const row of rows) {
    const bytes = Buffer.byteLength(JSON.stringify(row)) + 1;
    if (current.length && size + bytes > limit) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(row);
    size += bytes;
  }
  if (current.length) chunks.push(current);
  return chunks;
}
