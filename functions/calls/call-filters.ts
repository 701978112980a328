import * as v from 'valibot';
import { CALL_COLUMNS } from '../../shared/calls/call-view.js';
import { ID_EPOCH_MS } from '../../shared/db/ids.js';
import { DEFAULT_PER_PAGE, listParamsSchema, MAX_PER_PAGE, parseNameList, unknownColumnsMessage, type ListParams } from '../../shared/http/list-params.js';
import { booleanParam, idParam, integerParam, oneOf } from '../../shared/http/param-schemas.js';
import { timeZoneParam } from '../../shared/resources/field-schemas.js';
import { normalizeCallerNumber } from '../../shared/phone.js';
import { parseApiTime } from '../../shared/time.js';

/**
 * The parameters of the call lists and which calls they keep. Pure: the list operation reads
 * calls and applies the predicate while it reads, so a filtered page stops once it is full.
 */

/** Without `created_at_from`, calls of the 30 days before `created_at_to` (default: now) are listed. */
export const DEFAULT_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

/** Deepest record a numbered page may reach (`page * per_page`); deeper pages go by cursor. */
export const MAX_PAGE_DEPTH = 10_000;

/** A filter sent blank (`buyer_id=`) is no filter. */
export function unlessBlank<TSchema extends v.GenericSchema>(schema: TSchema) {
  return v.pipe(
    v.unknown(),
    v.transform((value) => (value === '' || value === null ? undefined : value)),
    v.optional(schema),
  );
}

/** A phone number in any common shape, normalised to E.164 (as calls store `caller_number`). */
export const callerNumberParam = v.pipe(
  v.union([v.string(), v.number()], 'is not a phone number'),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const number = normalizeCallerNumber(dataset.value);
    if (!number) {
      addIssue({ message: 'is not a phone number' });
      return NEVER;
    }
    return number;
  }),
);

const COLUMN_SET = new Set<string>(CALL_COLUMNS);

/** `columns`: names from CALL_COLUMNS (comma-separated or an array), worded like the shared list parameter. */
export const callColumnsParam = v.pipe(
  v.unknown(),
  v.transform(parseNameList),
  v.optional(
    v.pipe(
      v.array(v.string(), 'is not a list of columns'),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        const unknown = dataset.value.filter((name) => !COLUMN_SET.has(name));
        if (unknown.length) addIssue({ message: unknownColumnsMessage(unknown) });
      }),
      v.metadata({ items: { type: 'string', enum: [...CALL_COLUMNS] } }),
    ),
  ),
);

/** A time parameter, checked here and read in the request's time zone later. */
const timeText = v.pipe(
  v.string('is not a valid time'),
  v.trim(),
  v.check((text) => parseApiTime(text, 'UTC') !== undefined, 'is not a valid time (use YYYY-MM-DD HH:MM:SS +ZZZZ)'),
);

/**
 * A call's `status` values (shared/calls/call-states.ts): while in progress (`ivr` before routing,
 * `dialing` an outbound leg, `ringing` a buyer, `in_progress` connected), then how it ended.
 */
export const CALL_STATUSES = ['ringing', 'dialing', 'ivr', 'in_progress', 'completed', 'no_answer', 'no_buyer', 'blocked', 'canceled', 'busy', 'failed'] as const;

/** The filters of `GET /api/v1/calls`, by parameter name. */
export const CALL_FILTERS = {
  status: unlessBlank(oneOf(CALL_STATUSES)),
  buyer_converted: unlessBlank(booleanParam),
  offer_converted: unlessBlank(booleanParam),
  in_progress: unlessBlank(booleanParam),
  traffic_source_id: unlessBlank(idParam),
  offer_id: unlessBlank(idParam),
  buyer_id: unlessBlank(idParam),
  number_id: unlessBlank(idParam),
  caller_number: unlessBlank(callerNumberParam),
  ended_at_from: unlessBlank(timeText),
  ended_at_to: unlessBlank(timeText),
} satisfies Record<string, v.GenericSchema<unknown, unknown>>;

export interface CallListParams extends ListParams {
  status?: (typeof CALL_STATUSES)[number];
  buyer_converted?: boolean;
  offer_converted?: boolean;
  in_progress?: boolean;
  traffic_source_id?: number;
  offer_id?: number;
  buyer_id?: number;
  number_id?: number;
  caller_number?: string;
  ended_at_from?: string;
  ended_at_to?: string;
}

const baseSchema = listParamsSchema({ columns: CALL_COLUMNS, csv: true, filters: CALL_FILTERS });

/** The shared list parameters plus the call filters; calls are listed newest first only. */
export const callListSchema = v.pipe(
  baseSchema,
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const params = dataset.value;
    if (params.order_dir === 'asc') {
      addIssue({ message: 'calls are listed newest first (desc)', path: [{ type: 'object', origin: 'value', input: params, key: 'order_dir', value: params.order_dir }] });
    }
    if (params.cursor === undefined && params.page * params.per_page > MAX_PAGE_DEPTH) {
      addIssue({
        message: `reaches past record ${MAX_PAGE_DEPTH}; page deeper with cursor`,
        path: [{ type: 'object', origin: 'value', input: params, key: 'page', value: params.page }],
      });
    }
  }),
) as unknown as v.GenericSchema<unknown, CallListParams>;

/** The equality and flag filters a call must pass (times are bounds of the read). */
export interface CallConditions {
  status?: string;
  buyer_converted?: boolean;
  offer_converted?: boolean;
  in_progress?: boolean;
  traffic_source_id?: number;
  offer_id?: number;
  buyer_id?: number;
  number_id?: number;
  caller_number?: string;
  /** `ended_at` bounds, epoch ms; a call that has not ended fails either. */
  endedFromMs?: number;
  endedToMs?: number;
  /** Case-insensitive text in the caller number, contact fields or data. */
  fulltext?: string;
}

const FLAGS = ['buyer_converted', 'offer_converted', 'in_progress'] as const;
const IDS = ['traffic_source_id', 'offer_id', 'buyer_id', 'number_id'] as const;
const FULLTEXT_FIELDS = ['id', 'uuid', 'caller_number', 'number', 'first_name', 'last_name', 'email', 'address', 'city', 'state', 'zip', 'offer', 'buyer', 'traffic_source', 'data'];

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The predicate for these conditions, or undefined when every call qualifies. */
export function callPredicate(conditions: CallConditions): ((call: Record<string, unknown>) => boolean) | undefined {
  const tests: Array<(call: Record<string, unknown>) => boolean> = [];
  for (const flag of FLAGS) {
    const wanted = conditions[flag];
    if (wanted !== undefined) tests.push((call) => (call[flag] === true) === wanted);
  }
  for (const field of IDS) {
    const wanted = conditions[field];
    if (wanted !== undefined) tests.push((call) => call[field] === wanted);
  }
  if (conditions.caller_number !== undefined) tests.push((call) => call.caller_number === conditions.caller_number);
  if (conditions.status !== undefined) tests.push((call) => call.status === conditions.status);
  const { endedFromMs, endedToMs } = conditions;
  if (endedFromMs !== undefined || endedToMs !== undefined) {
    tests.push((call) => {
      if (typeof call.ended_at !== 'string' || !call.ended_at) return false;
      const ended = Date.parse(call.ended_at);
      return (endedFromMs === undefined || ended >= endedFromMs) && (endedToMs === undefined || ended <= endedToMs);
    });
  }
  const needle = conditions.fulltext?.trim().toLowerCase();
  if (needle) tests.push((call) => FULLTEXT_FIELDS.some((field) => text(call[field]).toLowerCase().includes(needle)));
  if (tests.length === 0) return undefined;
  return (call) => tests.every((test) => test(call));
}

/** Reads a validated time parameter in `timeZone` as epoch ms. */
export function timeMs(text: string | undefined, timeZone: string): number | undefined {
  if (text === undefined) return undefined;
  const parsed = parseApiTime(text, timeZone);
  if (!parsed) throw new RangeError(`unchecked time ${text}`);
  return parsed.getTime();
}

export { CLOCK_SLACK_MS } from '../../shared/time.js';
import { CLOCK_SLACK_MS } from '../../shared/time.js';

/**
 * The creation-time window to read. Up to `created_at_to`, never past now (no call is made in
 * the future, give or take CLOCK_SLACK_MS) and never past `ended_at_to` (a call starts before it
 * ends); from `created_at_from`, else the 30 days before. Nothing before the id epoch exists.
 */
export function creationWindow(input: { createdFromMs?: number; createdToMs?: number; endedToMs?: number; nowMs: number }): { fromMs: number; toMs: number } {
  const latest = input.nowMs + CLOCK_SLACK_MS;
  const toMs = Math.min(input.createdToMs ?? latest, latest, input.endedToMs ?? Number.POSITIVE_INFINITY);
  const fromMs = Math.max(input.createdFromMs ?? toMs - DEFAULT_WINDOW_MS, ID_EPOCH_MS);
  return { fromMs, toMs };
}

/** The conditions of a validated list request (times read in its time zone). */
export function conditionsOf(params: CallListParams, timeZone: string): CallConditions {
  return {
    status: params.status,
    buyer_converted: params.buyer_converted,
    offer_converted: params.offer_converted,
    in_progress: params.in_progress,
    traffic_source_id: params.traffic_source_id,
    offer_id: params.offer_id,
    buyer_id: params.buyer_id,
    number_id: params.number_id,
    caller_number: params.caller_number,
    endedFromMs: timeMs(params.ended_at_from, timeZone),
    endedToMs: timeMs(params.ended_at_to, timeZone),
    fulltext: params.fulltext,
  };
}

/** Paging and view parameters of the smaller call lists (by caller, live calls, call logs). */
export const pagingEntries = {
  per_page: v.optional(v.pipe(integerParam, v.minValue(1, 'must be at least 1'), v.maxValue(MAX_PER_PAGE, `must be at most ${MAX_PER_PAGE}`)), DEFAULT_PER_PAGE),
  cursor: v.optional(v.pipe(v.union([v.string(), v.number()], 'is not a valid cursor'), v.transform(String), v.nonEmpty('is not a valid cursor'))),
  root: v.optional(booleanParam, true),
  time_zone: v.optional(timeZoneParam),
};

export const callPageSchema = v.object({ ...pagingEntries, columns: v.optional(callColumnsParam) });
