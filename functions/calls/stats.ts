import * as v from 'valibot';
import { REPORT_INTERVALS, statsRows } from '../../shared/calls/report-aggregation.js';
import { queryRollups } from '../../shared/calls/report-store.js';
import { oneOf } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { rangeMetadata, reportParamsEntries, reportRange, rowView, valueNames } from './reports.js';

/**
 * `GET /api/v1/calls/stats`: call statistics by category and interval (hour, day, Monday-based
 * week or month in `time_zone`), from the hourly rollups. Only intervals with calls have rows.
 */
export const statsSchema = v.object({ ...reportParamsEntries, interval: v.optional(oneOf(REPORT_INTERVALS), 'day') });

export const callStats: Operation = async (request) => {
  const params = validate(statsSchema, request.params);
  const range = reportRange(params, request.now);
  const companyId = request.auth.companyId;
  const zone = params.time_zone ?? 'UTC';
  const rows = statsRows(await queryRollups(companyId, range, params.category), params.category, params.interval, zone, range);
  const names = await valueNames(companyId, params.category, [...new Set(rows.map((row) => row.value))]);
  return {
    kind: 'list',
    plural: 'stats',
    records: rows.map((row) => ({ interval_start: row.interval_start, ...rowView(params.category, row, names) })),
    metadata: { category: params.category, interval: params.interval, ...rangeMetadata(range, zone), total_count: rows.length },
    bare: !params.root,
  };
};
