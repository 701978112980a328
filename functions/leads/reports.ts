import * as v from 'valibot';
import { getRecords } from '../../shared/db/records.js';
import { booleanParam, oneOf } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { queryLeadRollups } from '../../shared/leads/lead-rollup-store.js';
import { LEAD_REPORT_CATEGORIES, leadReportRows, type LeadReportCategory } from '../../shared/leads/lead-rollups.js';
import { timeZoneParam } from '../../shared/resources/field-schemas.js';
import { rangeMetadata, reportRange } from '../calls/reports.js';

/**
 * `GET /api/v1/leads/reports`: lead statistics by category (offer, schedule, status, traffic
 * source) over a creation-time range, from the hourly lead rollups written with each lead change
 * (one Query per UTC month, never the leads). Ranges and defaults as the call reports: today in
 * `time_zone` unless `created_at_from` / `created_at_to` say otherwise, whole UTC hours.
 */
export const leadReportsSchema = v.object({
  category: v.optional(oneOf(LEAD_REPORT_CATEGORIES), 'offer'),
  created_at_from: v.optional(v.string('is not a valid time')),
  created_at_to: v.optional(v.string('is not a valid time')),
  time_zone: v.optional(timeZoneParam),
  root: v.optional(booleanParam, true),
});

const NAMED: Partial<Record<LeadReportCategory, string>> = { offer: 'offers', schedule: 'schedules', traffic_source: 'traffic_sources' };

/** A category value as the API shows it: ids as numbers (null for none), statuses as they are. */
function displayValue(category: LeadReportCategory, value: string): string | number | null {
  if (category === 'status') return value;
  return value === 'none' ? null : Number(value);
}

/** Rows as the API shows them: the category, its value, the value's name (one BatchGet), then the stats. */
export async function leadRowViews<Row extends { value: string; stats: Record<string, number> }>(companyId: number, category: LeadReportCategory, rows: readonly Row[]): Promise<Array<Record<string, unknown>>> {
  const resource = NAMED[category];
  const ids = [...new Set(rows.map((row) => Number(row.value)).filter((id) => Number.isSafeInteger(id) && id > 0))];
  const names = new Map((resource ? await getRecords(companyId, resource, ids) : []).map((record) => [String(record.id), typeof record.name === 'string' ? record.name : null]));
  return rows.map(({ value, stats, ...rest }) => ({ ...rest, category, value: displayValue(category, value), name: names.get(value) ?? null, ...stats }));
}

export const leadReports: Operation = async (request) => {
  const params = validate(leadReportsSchema, request.params);
  const range = reportRange(params, request.now);
  const companyId = request.auth.companyId;
  const rows = leadReportRows(await queryLeadRollups(companyId, params.category, range.fromMs, range.toMs), params.category, range.fromMs, range.toMs);
  return {
    kind: 'list',
    plural: 'reports',
    records: await leadRowViews(companyId, params.category, rows),
    metadata: { category: params.category, ...rangeMetadata(range, params.time_zone ?? 'UTC'), total_count: rows.length },
    bare: !params.root,
  };
};
