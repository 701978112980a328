import * as v from 'valibot';
import { cellStartMs, REPORT_INTERVALS } from '../../shared/calls/report-aggregation.js';
import { queryRollups } from '../../shared/calls/report-store.js';
import { REPORT_CATEGORIES, type ReportCategory } from '../../shared/calls/rollups.js';
import { dayOfTime } from '../../shared/db/day-records.js';
import { getRecords } from '../../shared/db/records.js';
import { NotFoundError } from '../../shared/http/errors.js';
import { booleanParam, idParam, oneOf } from '../../shared/http/param-schemas.js';
import type { Operation, OperationResult } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { queryLeadRollups } from '../../shared/leads/lead-rollup-store.js';
import { LEAD_REPORT_CATEGORIES, leadCellStartMs, type LeadReportCategory } from '../../shared/leads/lead-rollups.js';
import {
  BILLING_CATEGORIES,
  BILLING_DATASET_STATS,
  CALL_DATASET_STATS,
  DATASETS,
  DAY_INTERVALS,
  IMPRESSION_CATEGORIES,
  LEAD_DATASET_STATS,
  seriesPoints,
  type SeriesCell,
  type SeriesPoint,
} from '../../shared/reporting/datasets.js';
import { impressionRollups } from '../../shared/reporting/number-impressions.js';
import { timeZoneParam } from '../../shared/resources/field-schemas.js';
import { chargeRollups } from '../../shared/reporting/charges.js';
import { rangeMetadata, reportRange } from './reports.js';

/**
 * `GET /api/v1/datasets` and the datasets themselves: one statistic as a time series by
 * interval, optionally split by a category value, over a range (today in `time_zone` by
 * default, at most 367 days: functions/calls/reports.ts `reportRange`). Every dataset reads
 * rollups only (shared/reporting/datasets.ts says which); an unknown `:stat` names no dataset
 * (404, like any path that names nothing).
 */
const rangeEntries = {
  created_at_from: v.optional(v.string('is not a valid time')),
  created_at_to: v.optional(v.string('is not a valid time')),
  time_zone: v.optional(timeZoneParam),
  root: v.optional(booleanParam, true),
};

export const datasetListSchema = v.object({ root: v.optional(booleanParam, true) });
export const callDatasetSchema = v.object({ ...rangeEntries, interval: v.optional(oneOf(REPORT_INTERVALS), 'day'), category: v.optional(oneOf(REPORT_CATEGORIES)) });
export const leadDatasetSchema = v.object({ ...rangeEntries, interval: v.optional(oneOf(REPORT_INTERVALS), 'day'), category: v.optional(oneOf(LEAD_REPORT_CATEGORIES)) });
export const billingDatasetSchema = v.object({
  ...rangeEntries,
  interval: v.optional(oneOf(DAY_INTERVALS), 'day'),
  category: v.optional(oneOf(BILLING_CATEGORIES)),
  stat: v.optional(oneOf(BILLING_DATASET_STATS), 'amount'),
});
export const impressionDatasetSchema = v.object({
  ...rangeEntries,
  interval: v.optional(oneOf(DAY_INTERVALS), 'day'),
  category: v.optional(oneOf(IMPRESSION_CATEGORIES)),
  ring_pool_id: v.optional(idParam),
});

export const DATASET_COLUMNS = ['interval_start', 'category', 'category_value', 'name', 'stat', 'value'] as const;

/** Names of the records a category's values are ids of. */
const NAMED: Record<string, string> = { offer: 'offers', buyer: 'buyers', traffic_source: 'traffic_sources', schedule: 'schedules', ring_pool: 'ring_pools' };

/** A stored category value as the API shows it: ids as numbers (null for `none`), booleans, text. */
function shownValue(category: string, value: string | null): string | number | boolean | null {
  if (value === null) return null;
  if (category === 'converted') return value === 'true';
  if (NAMED[category]) return value === 'none' ? null : Number(value);
  return value;
}

async function seriesResult(
  companyId: number,
  dataset: string,
  stat: string,
  category: string | undefined,
  points: SeriesPoint[],
  metadata: Record<string, unknown>,
  bare: boolean,
): Promise<OperationResult> {
  const resource = category ? NAMED[category] : undefined;
  const ids = [...new Set(points.map((point) => Number(point.category_value)))].filter((id) => Number.isSafeInteger(id) && id > 0);
  const names = new Map((resource ? await getRecords(companyId, resource, ids) : []).map((record) => [String(record.id), typeof record.name === 'string' ? record.name : null]));
  return {
    kind: 'list',
    plural: 'dataset',
    records: points.map((point) => ({
      interval_start: point.interval_start,
      category: category ?? null,
      category_value: category ? shownValue(category, point.category_value) : null,
      name: point.category_value === null ? null : (names.get(point.category_value) ?? null),
      stat,
      value: point.value,
    })),
    metadata: { dataset, stat, category: category ?? null, ...metadata, total_count: points.length },
    bare,
  };
}

function statOf<T>(stats: Readonly<Record<string, T>>, text: string | undefined): T {
  const field = text !== undefined && Object.hasOwn(stats, text) ? stats[text] : undefined;
  if (field === undefined) throw new NotFoundError();
  return field;
}

export const listDatasets: Operation = async (request) => {
  const params = validate(datasetListSchema, request.params);
  return { kind: 'list', plural: 'datasets', records: DATASETS.map((dataset) => ({ ...dataset })), metadata: { total_count: DATASETS.length }, bare: !params.root };
};

/**
 * A dataset of hourly rollup cells: the cells within the range, summed per interval of the
 * request's time zone (and per category value when one is asked for).
 */
function hourlySeries(
  companyId: number,
  dataset: string,
  stat: string,
  params: { interval: (typeof REPORT_INTERVALS)[number]; category?: string; time_zone?: string; root: boolean },
  range: { fromMs: number; toMs: number },
  cells: readonly SeriesCell[],
): Promise<OperationResult> {
  const zone = params.time_zone ?? 'UTC';
  const inRange = cells.filter((cell) => cell.startMs >= range.fromMs && cell.startMs <= range.toMs);
  const points = seriesPoints(inRange, params.interval, zone, params.category !== undefined);
  return seriesResult(companyId, dataset, stat, params.category, points, { interval: params.interval, ...rangeMetadata(range, zone) }, !params.root);
}

export const callDataset: Operation = async (request) => {
  const stat = request.pathParams.stat ?? '';
  const field = statOf(CALL_DATASET_STATS, stat);
  const params = validate(callDatasetSchema, request.params);
  const range = reportRange(params, request.now);
  // Without a category every call still counts once: in the cells of its status.
  const category: ReportCategory = params.category ?? 'status';
  const cells: SeriesCell[] = (await queryRollups(request.auth.companyId, range, category)).map((item) => ({ startMs: cellStartMs(item), value: item.value, amount: Number(item[field] ?? 0) }));
  return hourlySeries(request.auth.companyId, 'calls', stat, params, range, cells);
};

export const leadDataset: Operation = async (request) => {
  const stat = request.pathParams.stat ?? '';
  const field = statOf(LEAD_DATASET_STATS, stat);
  const params = validate(leadDatasetSchema, request.params);
  const range = reportRange(params, request.now);
  const category: LeadReportCategory = params.category ?? 'status';
  const cells: SeriesCell[] = (await queryLeadRollups(request.auth.companyId, category, range.fromMs, range.toMs))
    .filter((item) => item.category === category)
    .map((item) => ({ startMs: leadCellStartMs(item), value: item.value, amount: Number(item[field] ?? 0) }));
  return hourlySeries(request.auth.companyId, 'leads', stat, params, range, cells);
};

/** The UTC days a range touches (day-counted rollups count a day at its UTC midnight). */
function rangeDays(range: { fromMs: number; toMs: number }): { fromDay: string; toDay: string } {
  return { fromDay: dayOfTime(range.fromMs), toDay: dayOfTime(range.toMs) };
}

const dayStartMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

export const billingDataset: Operation = async (request) => {
  const params = validate(billingDatasetSchema, request.params);
  const range = reportRange(params, request.now);
  const zone = params.time_zone ?? 'UTC';
  const { fromDay, toDay } = rangeDays(range);
  const cells = (await chargeRollups(request.auth.companyId, fromDay, toDay)).map((rollup) => ({ startMs: dayStartMs(rollup.day), value: rollup.kind, amount: rollup[params.stat] }));
  // Charges are counted per UTC day, so their intervals are UTC ones.
  const points = seriesPoints(cells, params.interval, 'UTC', params.category !== undefined);
  return seriesResult(request.auth.companyId, 'billing', params.stat, params.category, points, { interval: params.interval, ...rangeMetadata(range, zone) }, !params.root);
};

export const numberImpressionDataset: Operation = async (request) => {
  const params = validate(impressionDatasetSchema, request.params);
  const range = reportRange(params, request.now);
  const zone = params.time_zone ?? 'UTC';
  const { fromDay, toDay } = rangeDays(range);
  const cells = (await impressionRollups(request.auth.companyId, fromDay, toDay))
    .filter((rollup) => params.ring_pool_id === undefined || rollup.ring_pool_id === params.ring_pool_id)
    .map((rollup) => ({ startMs: dayStartMs(rollup.day), value: params.category === 'number' ? rollup.number : String(rollup.ring_pool_id), amount: rollup.impressions }));
  const points = seriesPoints(cells, params.interval, 'UTC', params.category !== undefined);
  return seriesResult(request.auth.companyId, 'number_impressions', 'impressions', params.category, points, { interval: params.interval, ...rangeMetadata(range, zone) }, !params.root);
};
