import * as v from 'valibot';
import { resolveTimeZone } from '../time-zones.js';
import { parseApiTime } from '../time.js';
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

/** How many unknown names an error lists, and how much of each: an error never echoes a whole hostile request. */
const ECHO_NAMES = 5;
const ECHO_CHARS = 40;

/** `unknown column a, b` naming at most a few of the names, each cut short. */
export function unknownColumnsMessage(names: readonly string[]): string {
  const shown = names.slice(0, ECHO_NAMES).map((name) => (name.length > ECHO_CHARS ? `${name.slice(0, ECHO_CHARS)}…` : name));
  const more = names.length > ECHO_NAMES ? ` and ${names.length - ECHO_NAMES} more` : '';
  return `unknown column ${shown.join(', ')}${more}`;
}

/** `columns`: names from `columns` (comma-separated or an array); unknown names echoed bounded. */
export function columnsParam(columns: readonly string[]) {
  const known = new Set(columns);
  return v.pipe(
    v.unknown(),
    v.transform(parseNameList),
    v.optional(
      v.pipe(
        v.array(v.string()),
        v.rawCheck(({ dataset, addIssue }) => {
          if (!dataset.typed) return;
          const unknown = dataset.value.filter((name) => !known.has(name));
          if (unknown.length) addIssue({ message: unknownColumnsMessage(unknown) });
        }),
        v.metadata({ items: { type: 'string', enum: [...columns] } }),
      ),
    ),
  );
}

export interface ListOptions {
  columns: readonly string[];
  order?: { values: readonly [string, ...string[]]; default: string };
  serializers?: readonly [string, ...string[]];
  csv?: boolean;
  /** Resource filters by parameter name. */
  filters?: Record<string, v.GenericSchema<unknown, unknown>>;
}

/** `created_at_from` / `created_at_to`: checked here, read in the request's time zone later. */
export const timeTextParam = v.pipe(
  v.string('is not a valid time'),
  v.trim(),
  v.check((text) => parseApiTime(text, 'UTC') !== undefined, 'is not a valid time (use YYYY-MM-DD HH:MM:SS +ZZZZ)'),
);

/** `per_page`: 1 to MAX_PER_PAGE. */
export const perPageParam = v.pipe(integerParam, v.minValue(1, 'must be at least 1'), v.maxValue(MAX_PER_PAGE, `must be at most ${MAX_PER_PAGE}`));

/** `cursor=-1` starts at the newest record; any other value is a cursor from `metadata.next_cursor`. */
export const cursorTextParam = v.pipe(v.union([v.string(), v.number()], 'is not a valid cursor'), v.transform(String), v.nonEmpty('is not a valid cursor'));

/** The parsed shared list parameters; resource filters appear under their own names. */
export interface ListParams {
  ids?: number[];
  page: number;
  per_page: number;
  cursor?: string;
  order?: string;
  order_dir?: 'asc' | 'desc';
  root: boolean;
  created_at_from?: string;
  created_at_to?: string;
  fulltext?: string;
  time_zone?: string;
  serializer?: string;
  format?: 'json' | 'csv';
  columns?: string[];
  [filter: string]: unknown;
}

export function listParamsSchema(options: ListOptions): v.GenericSchema<unknown, ListParams> {
  const filters: v.ObjectEntries = Object.fromEntries(Object.entries(options.filters ?? {}).map(([name, schema]) => [name, v.optional(schema)]));
  // The descriptions are the reference's (Parameters shared by list endpoints), for the OpenAPI document.
  const entries: v.ObjectEntries = {
    ...filters,
    ids: v.optional(
      v.pipe(
        v.unknown(),
        v.transform(parseIdList),
        v.optional(v.pipe(v.array(idParam, 'is not a list of ids'), v.maxLength(MAX_PER_PAGE, `must name at most ${MAX_PER_PAGE} ids`))),
        v.description('Only the records with these ids (`ids=1,2` or `ids[]=1&ids[]=2`).'),
      ),
    ),
    page: v.optional(v.pipe(integerParam, v.minValue(1, 'must be at least 1'), v.description('The page to answer.')), 1),
    per_page: v.optional(v.pipe(perPageParam, v.description('Records per page.')), DEFAULT_PER_PAGE),
    cursor: v.optional(v.pipe(cursorTextParam, v.description('Paging by cursor instead: `-1` starts at the newest record, then send `metadata.next_cursor`.'))),
    // Without declared values `order` is not a parameter of the resource: the object drops it unread.
    ...(options.order ? { order: v.optional(v.pipe(oneOf(options.order.values), v.description('The column to sort by.')), options.order.default) } : {}),
    order_dir: v.optional(v.pipe(oneOf(['asc', 'desc']), v.description('The sort direction.'))),
    root: v.optional(v.pipe(booleanParam, v.description('`false` answers the bare array, without root node and metadata.')), true),
    created_at_from: v.optional(v.pipe(timeTextParam, v.description('Only records created at or after this time (`YYYY-MM-DD HH:MM:SS +ZZZZ`; without an offset, in `time_zone`).'))),
    created_at_to: v.optional(v.pipe(timeTextParam, v.description('Only records created at or before this time.'))),
    fulltext: v.optional(v.pipe(v.string('is not a string'), v.description('Only records with this text in their searchable columns.'))),
    time_zone: v.optional(
      v.pipe(
        v.string('is not a valid time zone'),
        v.transform((name) => resolveTimeZone(name) ?? ''),
        v.nonEmpty('is not a valid time zone'),
        v.description('The zone of the times sent and shown, UTC by default (names: `GET /api/v1/collections/time_zone`).'),
      ),
    ),
    serializer: v.optional(
      v.pipe(
        v.string(),
        v.transform((name) => (name === '' ? undefined : name)),
        v.optional(options.serializers ? oneOf(options.serializers) : v.never('is not a serializer of this resource')),
        v.description('Another shape of the records: `*_grid` ones have flat foreign keys.'),
      ),
    ),
    format: v.optional(v.pipe(options.csv ? oneOf(['json', 'csv']) : oneOf(['json']), v.description('`csv` answers CSV, where the resource has it.'))),
    columns: v.optional(v.pipe(columnsParam(options.columns), v.description('Only these columns, in this order (comma-separated or repeated).'))),
  };
  return v.object(entries) as unknown as v.GenericSchema<unknown, ListParams>;
}

type Sortable = Record<string, unknown>;

/**
 * The default locale's collation (what `localeCompare` uses), made once: a sort of 10,000 names
 * compares often. Made on the first sort, not at load: constructing it loads ICU's collation data
 * (~6 ms), which a cold start that sorts nothing need not pay (issue 12).
 */
let collator: Intl.Collator | undefined;

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1; // blanks last
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  collator ??= new Intl.Collator();
  return collator.compare(String(a), String(b));
}

function isBlank(value: unknown): boolean {
  return value === null || value === undefined;
}

/** Sorts by one attribute, blanks last in either direction, ties broken by id so pages are stable. */
export function sortRecords<T extends Sortable>(records: readonly T[], order: string, direction: 'asc' | 'desc'): T[] {
  const sign = direction === 'desc' ? -1 : 1;
  return [...records].sort((a, b) => {
    const blanks = Number(isBlank(a[order])) - Number(isBlank(b[order]));
    return blanks || sign * (compareValues(a[order], b[order]) || compareValues(a.id, b.id));
  });
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
