import * as v from 'valibot';
import { REPORT_INTERVALS } from '../../shared/calls/report-aggregation.js';
import { oneOf } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { queryLeadRollups } from '../../shared/leads/lead-rollup-store.js';
import { leadStatsRows } from '../../shared/leads/lead-rollups.js';
import { rangeMetadata, reportRange } from '../calls/reports.js';
import { leadReportsSchema, leadRowViews } from './reports.js';

/**
 * `GET /api/v1/leads/stats`: the lead reports' rows per interval (hour, day, Monday-based week or
 * month in `time_zone`), from the same hourly rollups and with the same range rules; the lead
 * counterpart of `calls/stats`. Only intervals with leads have rows.
 */
export const leadStatsSchema = v.object({ ...leadReportsSchema.entries, interval: v.optional(oneOf(REPORT_INTERVALS), 'day') });

export const leadStats: Operation = async (request) => {
  const params = validate(leadStatsSchema, request.params);
  const range = reportRange(params, request.now);
  const companyId = request.auth.companyId;
  const zone = params.time_zone ?? 'UTC';
  const rows = leadStatsRows(await queryLeadRollups(companyId, params.category, range.fromMs, range.toMs), params.category, params.interval, zone, range.fromMs, range.toMs);
  return {
    kind: 'list',
    plural: 'stats',
    records: await leadRowViews(companyId, params.category, rows),
    metadata: { category: params.category, interval: params.interval, ...rangeMetadata(range, zone), total_count: rows.length },
    bare: !params.root,
  };
};
