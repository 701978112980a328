import * as v from 'valibot';
import { queryDayRecords } from '../../shared/db/day-records.js';
import { deploymentSecret } from '../../shared/db/secrets.js';
import { decodeCursor, encodeCursor } from '../../shared/http/cursor.js';
import { ValidationError } from '../../shared/http/errors.js';
import { MAX_PER_PAGE, parseNameList } from '../../shared/http/list-params.js';
import { booleanParam, idParam, integerParam, oneOf } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { rowsWithinBudget } from '../../shared/http/response-budget.js';
import { validate } from '../../shared/http/validation.js';
import { timeZoneParam } from '../../shared/resources/field-schemas.js';
import { pickColumns } from '../../shared/resources/serialize.js';
import { CLOCK_SLACK_MS, isoWithOffset, parseApiTime } from '../../shared/time.js';

/** Columns of an inbound webhook log entry (a ping or a post). */
export const LOG_COLUMNS = [
  'id',
  'uuid',
  'created_at',
  'kind',
  'inbound_webhook_id',
  'vanity_uri',
  'offer_id',
  'caller_id',
  'traffic_source_id',
  'success',
  'eligible_buyer_ids',
  'excluded_buyers',
  'excluded_count',
  'request',
  'response',
  'test_mode',
  'duration_ms',
] as const;

/** Without `created_at_from`, logs of the last 30 days are listed. */
const DEFAULT_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

const schema = v.object({
  per_page: v.optional(v.pipe(integerParam, v.minValue(1, 'must be at least 1'), v.maxValue(MAX_PER_PAGE, `must be at most ${MAX_PER_PAGE}`)), 25),
  cursor: v.optional(v.pipe(v.union([v.string(), v.number()], 'is not a valid cursor'), v.transform(String))),
  created_at_from: v.optional(v.string()),
  created_at_to: v.optional(v.string()),
  time_zone: v.optional(timeZoneParam),
  inbound_webhook_id: v.optional(idParam),
  kind: v.optional(oneOf(['ping', 'post'])),
  root: v.optional(booleanParam, true),
  columns: v.optional(
    v.pipe(
      v.unknown(),
      v.transform(parseNameList),
      v.optional(v.array(v.picklist(LOG_COLUMNS, `is not a list of columns (${LOG_COLUMNS.join(', ')})`))),
    ),
  ),
});

/**
 * `GET /api/v1/inbound_webhook_logs`: every ping and post, newest first, with what was asked,
 * what was answered, which buyers were excluded and why, and how long it took. Pages by cursor
 * (`cursor=-1` or none starts at the newest) over the day partitions.
 */
export const listLogs: Operation = async (request) => {
  const params = validate(schema, request.params);
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
  const toMs = Math.min(time('created_at_to') ?? request.now.getTime(), request.now.getTime() + CLOCK_SLACK_MS);
  const fromMs = time('created_at_from') ?? toMs - DEFAULT_WINDOW_MS;
  const key = await deploymentSecret('list-cursor');
  let beforeId: number | undefined;
  if (params.cursor !== undefined && params.cursor !== '-1') {
    const position = decodeCursor(params.cursor, key, { companyId, resource: 'inbound_webhook_logs' });
    if (!position) throw new ValidationError({ cursor: ['is not a valid cursor'] });
    beforeId = position.lastId;
  }
  const accept =
    params.inbound_webhook_id !== undefined || params.kind !== undefined
      ? (log: Record<string, unknown>) =>
          (params.inbound_webhook_id === undefined || log.inbound_webhook_id === params.inbound_webhook_id) && (params.kind === undefined || log.kind === params.kind)
      : undefined;
  const page = await queryDayRecords({ companyId, resource: 'inbound_webhook_logs', beforeId, fromMs, toMs, limit: params.per_page + 1, accept });
  const allRows = page.records.slice(0, params.per_page).map((log) => {
    const row = Object.fromEntries(LOG_COLUMNS.map((column) => [column, log[column] ?? null]));
    row.created_at = isoWithOffset(String(log.created_at), zone);
    return pickColumns(row, params.columns);
  });
  // A page stops early when its rows would pass the response budget; the cursor goes on from there.
  const fits = rowsWithinBudget(allRows);
  const rows = allRows.slice(0, fits);
  const last = page.records[fits - 1];
  return {
    kind: 'list',
    plural: 'inbound_webhook_logs',
    records: rows,
    metadata: {
      per_page: params.per_page,
      cursor: params.cursor ?? '-1',
      next_cursor:
        page.records.length > fits && last
          ? encodeCursor({ companyId, resource: 'inbound_webhook_logs', lastId: last.id }, key)
          : page.resumeBeforeId !== undefined
            ? encodeCursor({ companyId, resource: 'inbound_webhook_logs', lastId: page.resumeBeforeId }, key)
            : 0,
    },
    bare: !params.root,
  };
};
