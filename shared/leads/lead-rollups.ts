import { intervalBuckets, type ReportInterval } from '../calls/report-aggregation.js';
import { LEAD_STATUSES, type LeadRecord } from './lead-record.js';

/**
 * Lead statistics rolled up per UTC hour of creation and category value, written in the same
 * transaction as the lead change that moves them (creation, status change, conversion,
 * deletion), so `GET /api/v1/leads/reports` and the list's `total_count` read a few rollup
 * items, never the leads. Pure: which cells a lead counts in and what a change adds to them.
 */
export const LEAD_REPORT_CATEGORIES = ['offer', 'schedule', 'status', 'traffic_source'] as const;
export type LeadReportCategory = (typeof LEAD_REPORT_CATEGORIES)[number];

export const LEAD_STAT_FIELDS = ['leads', 'converted', ...LEAD_STATUSES] as const;
export type LeadStatField = (typeof LEAD_STAT_FIELDS)[number];
export type LeadStats = Record<LeadStatField, number>;

/** The facts of a lead that reports count. */
export interface LeadFigures {
  created_at: string;
  offer_id: number | null;
  schedule_id: number | null;
  traffic_source_id: number | null;
  status: string;
  converted: boolean;
}

export interface LeadRollupCell {
  /** UTC `YYYY-MM` (the partition), day `DD` and hour `HH` of creation. */
  month: string;
  day: string;
  hour: string;
  category: LeadReportCategory;
  value: string;
}

/** `traffic_source_id` as a lead carries it: a data token holding a whole number. */
function trafficSourceOf(data: Record<string, unknown> | undefined): number | null {
  const raw = data?.traffic_source_id;
  const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,15}$/.test(raw.trim()) ? Number(raw) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function leadFigures(lead: Pick<LeadRecord, 'created_at' | 'offer_id' | 'schedule_id' | 'status' | 'converted' | 'data'>): LeadFigures {
  return {
    created_at: lead.created_at,
    offer_id: lead.offer_id ?? null,
    schedule_id: lead.schedule_id ?? null,
    traffic_source_id: trafficSourceOf(lead.data),
    status: lead.status,
    converted: lead.converted === true,
  };
}

export function emptyLeadStats(): LeadStats {
  return Object.fromEntries(LEAD_STAT_FIELDS.map((field) => [field, 0])) as LeadStats;
}

function statsOf(figures: LeadFigures): LeadStats {
  const stats = emptyLeadStats();
  stats.leads = 1;
  stats.converted = figures.converted ? 1 : 0;
  if ((LEAD_STATUSES as readonly string[]).includes(figures.status)) stats[figures.status as LeadStatField] = 1;
  return stats;
}

function idValue(id: number | null): string {
  return id === null ? 'none' : String(id);
}

export function leadCategoryValue(figures: LeadFigures, category: LeadReportCategory): string {
  switch (category) {
    case 'offer':
      return idValue(figures.offer_id);
    case 'schedule':
      return idValue(figures.schedule_id);
    case 'traffic_source':
      return idValue(figures.traffic_source_id);
    case 'status':
      return figures.status;
  }
}

/** The cells a lead counts in: one per category, in the UTC hour it was created. */
export function leadCells(figures: LeadFigures): LeadRollupCell[] {
  const created = new Date(figures.created_at).toISOString();
  return LEAD_REPORT_CATEGORIES.map((category) => ({
    month: created.slice(0, 7),
    day: created.slice(8, 10),
    hour: created.slice(11, 13),
    category,
    value: leadCategoryValue(figures, category),
  }));
}

export interface LeadRollupChange {
  cell: LeadRollupCell;
  delta: LeadStats;
}

/**
 * What to add when a lead goes from `before` (undefined: not counted yet) to `after`
 * (undefined: deleted): cells it leaves lose its counts, cells it enters gain them; cells whose
 * counts do not move are left out.
 */
export function leadRollupChanges(before: LeadFigures | undefined, after: LeadFigures | undefined): LeadRollupChange[] {
  const changes = new Map<string, LeadRollupChange>();
  const add = (cell: LeadRollupCell, stats: LeadStats, sign: 1 | -1) => {
    const key = `${cell.month}|${cell.day}|${cell.hour}|${cell.category}|${cell.value}`;
    const change = changes.get(key) ?? { cell, delta: emptyLeadStats() };
    for (const field of LEAD_STAT_FIELDS) change.delta[field] += sign * stats[field];
    changes.set(key, change);
  };
  if (before) for (const cell of leadCells(before)) add(cell, statsOf(before), -1);
  if (after) for (const cell of leadCells(after)) add(cell, statsOf(after), 1);
  return [...changes.values()].filter((change) => LEAD_STAT_FIELDS.some((field) => change.delta[field] !== 0));
}

/** A rollup item as stored (keys aside). */
export interface LeadRollupItem extends Partial<LeadStats> {
  month: string;
  day: string;
  hour: string;
  category: string;
  value: string;
}

/** When a cell's UTC hour starts. */
export function leadCellStartMs(item: Pick<LeadRollupItem, 'month' | 'day' | 'hour'>): number {
  return Date.parse(`${item.month}-${item.day}T${item.hour}:00:00.000Z`);
}

/** The UTC months a range touches, oldest first. */
export function rangeMonths(fromMs: number, toMs: number): string[] {
  const out: string[] = [];
  if (fromMs > toMs) return out;
  const from = new Date(fromMs);
  let year = from.getUTCFullYear();
  let month = from.getUTCMonth();
  for (;;) {
    const start = Date.UTC(year, month, 1);
    if (start > toMs) break;
    out.push(`${year}-${String(month + 1).padStart(2, '0')}`);
    month++;
    if (month === 12) {
      month = 0;
      year++;
    }
  }
  return out;
}

/**
 * Summed stats per category value over the cells whose hour starts within [fromMs, toMs] (whole
 * UTC hours, like the call reports), most leads first, ties by value.
 */
export function leadReportRows(items: readonly LeadRollupItem[], category: LeadReportCategory, fromMs: number, toMs: number): Array<{ value: string; stats: LeadStats }> {
  const rows = new Map<string, LeadStats>();
  for (const item of items) {
    if (item.category !== category) continue;
    const start = leadCellStartMs(item);
    if (start < fromMs || start > toMs) continue;
    const stats = rows.get(item.value) ?? emptyLeadStats();
    for (const field of LEAD_STAT_FIELDS) stats[field] += Number(item[field] ?? 0);
    rows.set(item.value, stats);
  }
  return [...rows.entries()]
    .filter(([, stats]) => LEAD_STAT_FIELDS.some((field) => stats[field] !== 0))
    .map(([value, stats]) => ({ value, stats }))
    .sort((a, b) => b.stats.leads - a.stats.leads || compareValues(a.value, b.value));
}

/**
 * The rows of `leadReportRows` per interval (hour, day, Monday-based week, month in `timeZone`,
 * as the call stats): oldest interval first, then most leads first; intervals without leads
 * have no rows.
 */
export function leadStatsRows(items: readonly LeadRollupItem[], category: LeadReportCategory, interval: ReportInterval, timeZone: string, fromMs: number, toMs: number): Array<{ interval_start: string; value: string; stats: LeadStats }> {
  const cells = items.filter((item) => item.category === category);
  return intervalBuckets(cells, leadCellStartMs, interval, timeZone).flatMap((bucket) =>
    leadReportRows(bucket.items, category, fromMs, toMs).map((row) => ({ interval_start: bucket.interval_start, ...row })),
  );
}

function compareValues(a: string, b: string): number {
  const [na, nb] = [Number(a), Number(b)];
  if (Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}
