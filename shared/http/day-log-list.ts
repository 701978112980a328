import * as v from 'valibot';
import { getDayRecord, queryDayRecords } from '../db/day-records.js';
import type { StoredRecord } from '../db/records.js';
import { timeZoneParam } from '../resources/field-schemas.js';
import { recordPredicate } from '../resources/list-conditions.js';
import { pickColumns } from '../resources/serialize.js';
import { CLOCK_SLACK_MS, isoWithOffset, parseApiTime } from '../time.js';
import { NotFoundError, ValidationError } from './errors.js';
import { columnsParam, cursorTextParam, DEFAULT_PER_PAGE, perPageParam, timeTextParam } from './list-params.js';
import { cursorKey, cursorPosition, nextCursor } from './list-cursor.js';
import { booleanParam } from './param-schemas.js';
import type { Operation } from './request.js';
import { rowsWithinBudget } from './response-budget.js';
import { validate } from './validation.js';

/**
 * The list and show of a log kept in day records (time-sortable ids, one partition per company,
 * log and UTC day: shared/db/day-records.ts), declared once per log: `GET /api/v1/<log>` pages
 * newest first by cursor over the day partitions, `GET /api/v1/<log>/:id` reads one entry with
 * one GetItem (the day is in the id).
 */
export interface DayLogDefinition {
  /** Day-record resource name: storage partition and what cursors are bound to. */
  resource: string;
  /** Envelope root of one entry and of a list. */
  root: string;
  plural: string;
  /** Readable columns, in the order shown. */
  columns: readonly [string, ...string[]];
  /** Columns holding times (stored ISO UTC), shown with the offset of `time_zone`. */
  timeColumns: readonly string[];
  /** Equality filters: the parameter must equal the stored attribute of the same name. */
  filters: Record<string, v.GenericSchema<unknown, unknown>>;
}

/** Without `created_at_from`, entries of the 30 days before `created_at_to` (default: now) are listed. */
export const DEFAULT_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

/** Time-sortable ids are safe integers: at most 16 digits. */
const ID_TEXT = /^\d{1,16}$/;

/** The `:id` of an entry; anything that cannot be one names nothing (404, like every show route). */
function entryId(text: string | undefined): number {
  const id = text !== undefined && ID_TEXT.test(text) ? Number(text) : 0;
  if (!Number.isSafeInteger(id) || id < 1) throw new NotFoundError();
  return id;
}

export function dayLogOperations(log: DayLogDefinition) {
  const listSchema = v.object({
    ...Object.fromEntries(Object.entries(log.filters).map(([name, schema]) => [name, v.optional(schema)])),
    per_page: v.optional(perPageParam, DEFAULT_PER_PAGE),
    cursor: v.optional(cursorTextParam),
    created_at_from: v.optional(timeTextParam),
    created_at_to: v.optional(timeTextParam),
    time_zone: v.optional(timeZoneParam),
    root: v.optional(booleanParam, true),
    columns: v.optional(columnsParam(log.columns)),
  });
  const showSchema = v.object({ time_zone: v.optional(timeZoneParam), columns: v.optional(columnsParam(log.columns)) });

  /** An entry as the API shows it: every column (null where unset), times in `zone`. */
  const row = (entry: StoredRecord, zone: string, columns: readonly string[] | undefined) => {
    const out: Record<string, unknown> = Object.fromEntries(log.columns.map((column) => [column, entry[column] ?? null]));
    for (const column of log.timeColumns) {
      const value = out[column];
      if (typeof value === 'string' && value) out[column] = isoWithOffset(value, zone);
    }
    return pickColumns(out, columns);
  };

  const list: Operation = async (request) => {
    const params = validate(listSchema, request.params) as v.InferOutput<typeof listSchema> & Record<string, unknown>;
    const companyId = request.auth.companyId;
    const zone = params.time_zone ?? 'UTC';
    const time = (field: 'created_at_from' | 'created_at_to') => {
      const text = params[field];
      if (text === undefined) return undefined;
      const parsed = parseApiTime(text, zone);
      if (!parsed) throw new ValidationError({ [field]: ['is not a valid time (use YYYY-MM-DD HH:MM:SS +ZZZZ)'] });
      return parsed.getTime();
    };
    // Never past now (nothing is logged in the future): a window is bounded on both sides.
    const nowMs = request.now.getTime();
    const toMs = Math.min(time('created_at_to') ?? nowMs, nowMs + CLOCK_SLACK_MS);
    const fromMs = time('created_at_from') ?? toMs - DEFAULT_WINDOW_MS;
    const key = await cursorKey();
    const beforeId = cursorPosition(params.cursor, key, companyId, log.resource);
    const equals = Object.fromEntries(Object.keys(log.filters).filter((name) => params[name] !== undefined).map((name) => [name, params[name]]));
    const accept = recordPredicate({ equals, fulltextFields: [] });
    const page = await queryDayRecords({ companyId, resource: log.resource, beforeId, fromMs, toMs, limit: params.per_page + 1, accept });
    const rows = page.records.slice(0, params.per_page).map((entry) => row(entry, zone, params.columns));
    // A page stops early when its rows would pass the response budget; the cursor goes on from there.
    const fits = rowsWithinBudget(rows);
    return {
      kind: 'list',
      plural: log.plural,
      records: rows.slice(0, fits),
      metadata: {
        per_page: params.per_page,
        cursor: params.cursor ?? '-1',
        next_cursor: nextCursor(page.records.length > fits, page.records[fits - 1], key, companyId, log.resource, page.resumeBeforeId),
      },
      bare: !params.root,
    };
  };

  const show: Operation = async (request) => {
    const id = entryId(request.pathParams.id);
    const params = validate(showSchema, request.params);
    const entry = await getDayRecord(request.auth.companyId, log.resource, id);
    if (!entry) throw new NotFoundError();
    return { kind: 'record', root: log.root, record: row(entry, params.time_zone ?? 'UTC', params.columns) };
  };

  // The schemas go out too, for the OpenAPI document.
  return { list, show, listSchema, showSchema };
}
