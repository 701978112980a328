import * as v from 'valibot';
import {
  categoryResource,
  displayValue,
  reportRows,
  todayIn,
  type ReportRow,
  type TimeRange,
} from '../../shared/calls/report-aggregation.js';
import { queryRollups } from '../../shared/calls/report-store.js';
import { emptyStats, REPORT_CATEGORIES, type ReportCategory } from '../../shared/calls/rollups.js';
import { bidFigures } from '../../shared/bidding/bid-log.js';
import { BID_REPORT_FIELDS, withBidFigures } from '../../shared/bidding/bid-report.js';

const bidFieldsOf = (row: Record<string, number>) => Object.fromEntries(BID_REPORT_FIELDS.map((field) => [field, row[field] ?? 0]));
import { getRecords } from '../../shared/db/records.js';
import { ValidationError } from '../../shared/http/errors.js';
import { booleanParam, oneOf } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { timeZoneParam } from '../../shared/resources/field-schemas.js';
import { isoWithOffset, parseApiTime } from '../../shared/time.js';

/**
 * `GET /api/v1/calls/reports`: call statistics by category over a time range, read from the
 * hourly rollups (shared/calls/report-aggregation.ts explains the hour granularity).
 */

/** Longest range one request may cover: a year and a day (one Query per UTC day). */
export const MAX_RANGE_DAYS = 367;

export const reportParamsEntries = {
  category: v.optional(oneOf(REPORT_CATEGORIES), 'offer'),
  created_at_from: v.optional(v.string('is not a valid time')),
  created_at_to: v.optional(v.string('is not a valid time')),
  time_zone: v.optional(timeZoneParam),
  root: v.optional(booleanParam, true),
};

export const reportsSchema = v.object(reportParamsEntries);

/**
 * The range asked for, in the request's zone. Without `created_at_to`: the end of today; without
 * `created_at_from`: the start of the day `created_at_to` falls in. Both absent: today.
 */
export function reportRange(params: { created_at_from?: string; created_at_to?: string; time_zone?: string }, now: Date): TimeRange {
  const zone = params.time_zone ?? 'UTC';
  const errors: Record<string, string[]> = {};
  const parse = (field: 'created_at_from' | 'created_at_to'): number | undefined => {
    const text = params[field];
    if (text === undefined || text.trim() === '') return undefined;
    const parsed = parseApiTime(text, zone);
    if (!parsed) errors[field] = ['is not a valid time (use YYYY-MM-DD HH:MM:SS +ZZZZ)'];
    return parsed?.getTime();
  };
  const from = parse('created_at_from');
  const to = parse('created_at_to');
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const toMs = to ?? todayIn(now, zone).toMs;
  const fromMs = from ?? todayIn(new Date(toMs), zone).fromMs;
  if (fromMs > toMs) throw new ValidationError({ created_at_to: ['must not be before created_at_from'] });
  if (toMs - fromMs > MAX_RANGE_DAYS * 24 * 60 * 60 * 1000) throw new ValidationError({ created_at_to: [`must be at most ${MAX_RANGE_DAYS} days after created_at_from`] });
  return { fromMs, toMs };
}

/** Names of the offers, buyers or traffic sources the rows are about (one BatchGet). */
export async function valueNames(companyId: number, category: ReportCategory, values: readonly string[]): Promise<Map<string, string | null>> {
  const resource = categoryResource(category);
  const names = new Map<string, string | null>();
  if (!resource) return names;
  const ids = values.filter((value) => value !== 'none').map(Number).filter((id) => Number.isSafeInteger(id) && id > 0);
  for (const record of await getRecords(companyId, resource, ids)) names.set(String(record.id), typeof record.name === 'string' ? record.name : null);
  return names;
}

/** A row as the API shows it: the category, its value, the value's name, then the stats. */
export function rowView(category: ReportCategory, row: ReportRow, names: ReadonlyMap<string, string | null>): Record<string, unknown> {
  return { category, value: displayValue(category, row.value), name: names.get(row.value) ?? null, ...row.stats };
}

export function rangeMetadata(range: TimeRange, zone: string): Record<string, unknown> {
  return { created_at_from: isoWithOffset(new Date(range.fromMs), zone), created_at_to: isoWithOffset(new Date(range.toMs), zone), time_zone: zone };
}

export const callReports: Operation = async (request) => {
  const params = validate(reportsSchema, request.params);
  const range = reportRange(params, request.now);
  const companyId = request.auth.companyId;
  const byBuyer = params.category === 'buyer';
  const [items, figures] = await Promise.all([queryRollups(companyId, range, params.category), byBuyer ? bidFigures(companyId, range.fromMs, range.toMs) : undefined]);
  // By buyer, the bidding buyers' pings, bids, wins and win rate beside the call figures (docs/rtb.md).
  const rows = figures ? withBidFigures(reportRows(items, params.category, range), figures, (value) => ({ value, stats: emptyStats() })) : reportRows(items, params.category, range);
  const names = await valueNames(companyId, params.category, rows.map((row) => row.value));
  return {
    kind: 'list',
    plural: 'reports',
    records: rows.map((row) => ({ ...rowView(params.category, row, names), ...(figures ? bidFieldsOf(row as unknown as Record<string, number>) : {}) })),
    metadata: { category: params.category, ...rangeMetadata(range, params.time_zone ?? 'UTC'), total_count: rows.length },
    bare: !params.root,
  };
};
