import { intervalStartMs, REPORT_INTERVALS, type ReportInterval } from '../calls/report-aggregation.js';
import { REPORT_CATEGORIES, type StatField } from '../calls/rollups.js';
import { LEAD_STATUSES } from '../leads/lead-record.js';
import { LEAD_REPORT_CATEGORIES, type LeadStatField } from '../leads/lead-rollups.js';
import { isoWithOffset } from '../time.js';

/**
 * Datasets: time series of one statistic by interval (and optionally by a category value), read
 * from the rollups the service already keeps: the hourly call rollups (shared/calls/rollups.ts),
 * the hourly lead rollups (shared/leads/lead-rollups.ts), the daily charge rollups
 * (shared/reporting/charges.ts) and the daily number-impression counters
 * (shared/reporting/number-impressions.ts). Never the calls, leads or logs themselves.
 * This module holds the catalogue (`GET /api/v1/datasets`) and the bucketing, as pure functions.
 */

/** A dataset's stat name → the rollup field it sums. */
export const CALL_DATASET_STATS: Readonly<Record<string, StatField>> = {
  count: 'calls',
  answered: 'answered',
  converted: 'buyer_converted',
  offer_converted: 'offer_converted',
  revenue: 'revenue',
  payout: 'payout',
  profit: 'profit',
  duration: 'total_duration',
  answered_duration: 'answered_duration',
};

export const LEAD_DATASET_STATS: Readonly<Record<string, LeadStatField>> = {
  count: 'leads',
  converted: 'converted',
  ...Object.fromEntries(LEAD_STATUSES.map((status) => [status, status])),
};

export const BILLING_DATASET_STATS = ['amount', 'count'] as const;
export const BILLING_CATEGORIES = ['kind'] as const;
export const IMPRESSION_CATEGORIES = ['ring_pool', 'number'] as const;
/** Day-counted datasets (billing, impressions) have no hours. */
export const DAY_INTERVALS = ['day', 'week', 'month'] as const;

export interface DatasetDescription {
  name: string;
  path: string;
  description: string;
  stats: string[];
  categories: string[];
  intervals: string[];
  parameters: string[];
}

const RANGE_PARAMETERS = ['created_at_from', 'created_at_to', 'time_zone', 'interval', 'category'];

/** What `GET /api/v1/datasets` lists. */
export const DATASETS: readonly DatasetDescription[] = [
  {
    name: 'calls',
    path: '/api/v1/datasets/calls/{stat}',
    description: 'Calls by the hour they were created, from the hourly call rollups.',
    stats: Object.keys(CALL_DATASET_STATS),
    categories: [...REPORT_CATEGORIES],
    intervals: [...REPORT_INTERVALS],
    parameters: RANGE_PARAMETERS,
  },
  {
    name: 'leads',
    path: '/api/v1/datasets/leads/{stat}',
    description: 'Leads by the hour they were created (counts by their current status), from the hourly lead rollups.',
    stats: Object.keys(LEAD_DATASET_STATS),
    categories: [...LEAD_REPORT_CATEGORIES],
    intervals: [...REPORT_INTERVALS],
    parameters: RANGE_PARAMETERS,
  },
  {
    name: 'billing',
    path: '/api/v1/datasets/billing',
    description: 'Charges of billed API features per UTC day, from the charge rollups.',
    stats: [...BILLING_DATASET_STATS],
    categories: [...BILLING_CATEGORIES],
    intervals: [...DAY_INTERVALS],
    parameters: [...RANGE_PARAMETERS, 'stat'],
  },
  {
    name: 'number_impressions',
    path: '/api/v1/datasets/number_impressions',
    description: 'Ring pool numbers given to landing-page visitors per UTC day, from the daily impression counters.',
    stats: ['impressions'],
    categories: [...IMPRESSION_CATEGORIES],
    intervals: [...DAY_INTERVALS],
    parameters: [...RANGE_PARAMETERS, 'ring_pool_id'],
  },
];

/** One rollup cell reduced to what a series needs: when it starts, its category value, its amount. */
export interface SeriesCell {
  startMs: number;
  /** The category value (`none` for no id); ignored without a category. */
  value: string;
  amount: number;
}

export interface SeriesPoint {
  interval_start: string;
  /** Null for the total of every value (no category). */
  category_value: string | null;
  value: number;
}

/** Money sums rounded so float noise never shows. */
function round(amount: number): number {
  return Math.round(amount * 10_000) / 10_000;
}

/**
 * The points of a series: cells summed by interval (in `timeZone`) and, when `byValue`, by
 * category value. Oldest interval first; within one, values by id or text. Intervals without
 * cells have no point.
 */
export function seriesPoints(cells: readonly SeriesCell[], interval: ReportInterval, timeZone: string, byValue: boolean): SeriesPoint[] {
  const sums = new Map<string, { start: number; value: string | null; amount: number }>();
  for (const cell of cells) {
    const start = intervalStartMs(cell.startMs, interval, timeZone);
    const value = byValue ? cell.value : null;
    const key = `${start}|${value ?? ''}`;
    const sum = sums.get(key) ?? { start, value, amount: 0 };
    sum.amount += cell.amount;
    sums.set(key, sum);
  }
  const compare = (a: string | null, b: string | null) => {
    const [na, nb] = [Number(a), Number(b)];
    if (a !== null && b !== null && Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
    return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  };
  return [...sums.values()]
    .sort((a, b) => a.start - b.start || compare(a.value, b.value))
    .map((sum) => ({ interval_start: isoWithOffset(new Date(sum.start), timeZone), category_value: sum.value, value: round(sum.amount) }));
}
