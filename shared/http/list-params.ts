import * as v from 'valibot';
import { booleanParam, idParam, integerParam, oneOf } from './param-schemas.js';

/**
 * The list parameters shared by every list endpoint, parsed once. Pure: no I/O.
 */
export const DEFAULT_PER_PAGE = 25;
/**
 * Largest page served. 500 records of a wide resource stay far below the 6 MB Lambda response
 * limit, and reporting clients ask for 250.
 */
export const MAX_PER_PAGE = 500;

/** `ids` as `ids[]=1&ids[]=2`, `ids=1,2`, a JSON array (`ids=[1,2]`) or a single id. */
export function parseIdList(value: unknown): unknown[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) return value;
  if (typeof value === 'number') return [value];
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(text);
        return Array.isArray(parsed) ? parsed : [text];
      } catch {
        return [text];
      }
    }
    return text.split(',').map((part) => part.trim());
  }
  return [value];
}

/** `columns` as a comma-separated string or an array of names. */
export function parseNameList(value: unknown): unknown[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value.split(',').map((part) => part.trim()).filter(Boolean);
  return [value];
}

export interface ListOptions {
  orderValues: readonly [string, ...string[]];
  defaultOrder: string;
  columns: readonly string[];
}

export function listParamsSchema(options: ListOptions) {
  const columnSet = new Set(options.columns);
  return v.object({
    ids: v.optional(
      v.pipe(
        v.unknown(),
        v.transform(parseIdList),
        v.optional(v.array(idParam, 'is not a list of ids')),
      ),
    ),
    page: v.optional(v.pipe(integerParam, v.minValue(1, 'must be at least 1')), 1),
    per_page: v.optional(
      v.pipe(integerParam, v.minValue(1, 'must be at least 1'), v.maxValue(MAX_PER_PAGE, `must be at most ${MAX_PER_PAGE}`)),
      DEFAULT_PER_PAGE,
    ),
    order: v.optional(oneOf(options.orderValues), options.defaultOrder),
    order_dir: v.optional(oneOf(['asc', 'desc']), 'asc'),
    root: v.optional(booleanParam, true),
    columns: v.optional(
      v.pipe(
        v.unknown(),
        v.transform(parseNameList),
        v.optional(
          v.pipe(
            v.array(v.string()),
            v.rawCheck(({ dataset, addIssue }) => {
              if (!dataset.typed) return;
              const unknown = dataset.value.filter((name) => !columnSet.has(name));
              if (unknown.length) addIssue({ message: `unknown column ${unknown.join(', ')}` });
            }),
          ),
        ),
      ),
    ),
  });
}

export type ListParams = v.InferOutput<ReturnType<typeof listParamsSchema>>;

type Sortable = Record<string, unknown>;

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1; // blanks last
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

/** Sorts by one attribute, ties broken by id so pages are stable. */
export function sortRecords<T extends Sortable>(records: readonly T[], order: string, direction: 'asc' | 'desc'): T[] {
  const sign = direction === 'desc' ? -1 : 1;
  return [...records].sort((a, b) => sign * (compareValues(a[order], b[order]) || compareValues(a.id, b.id)));
}

export interface Page<T> {
  items: T[];
  total_count: number;
  page: number;
  per_page: number;
  total_pages: number;
}

export function paginate<T>(records: readonly T[], page: number, perPage: number): Page<T> {
  const start = (page - 1) * perPage;
  return {
    items: records.slice(start, start + perPage),
    total_count: records.length,
    page,
    per_page: perPage,
    total_pages: Math.ceil(records.length / perPage),
  };
}
