import { stringify } from 'csv-stringify/sync';
import type { ApiResponse } from './request.js';

/**
 * CSV through csv-stringify, which gets quoting of commas, quotes and newlines right. Nested
 * values (hashes, lists) are written as JSON; null as an empty field.
 */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  return stringify([columns, ...rows.map((row) => columns.map((column) => cell(row[column])))]);
}

export function csvResponse(filename: string, text: string): ApiResponse {
  return {
    statusCode: 200,
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${filename}"` },
    body: text,
  };
}
