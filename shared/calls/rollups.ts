/**
 * Call statistics are rolled up per UTC hour and category value when a call completes (and
 * adjusted when a call is updated), so reports read a few rollup items, never the calls.
 * Pure: which rollup cells a call touches and by how much.
 */
export const REPORT_CATEGORIES = ['offer', 'buyer', 'traffic_source', 'status', 'converted'] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];

export const STAT_FIELDS = ['calls', 'answered', 'buyer_converted', 'offer_converted', 'revenue', 'payout', 'profit', 'answered_duration', 'total_duration'] as const;
export type StatField = (typeof STAT_FIELDS)[number];
export type Stats = Record<StatField, number>;

export interface RollupCell {
  day: string;
  hour: string;
  category: ReportCategory;
  value: string;
}

/** The figures of a call that reports add up. */
export interface CallFigures {
  created_at: string;
  offer_id: number | null;
  buyer_id: number | null;
  traffic_source_id: number | null;
  status: string;
  buyer_converted: boolean;
  offer_converted: boolean;
  revenue: number;
  payout: number;
  answered_duration: number;
  total_duration: number;
}

export function emptyStats(): Stats {
  return Object.fromEntries(STAT_FIELDS.map((field) => [field, 0])) as Stats;
}

export function statsOf(call: CallFigures): Stats {
  return {
    calls: 1,
    answered: call.answered_duration > 0 ? 1 : 0,
    buyer_converted: call.buyer_converted ? 1 : 0,
    offer_converted: call.offer_converted ? 1 : 0,
    revenue: call.revenue,
    payout: call.payout,
    profit: Math.round((call.revenue - call.payout) * 100) / 100,
    answered_duration: call.answered_duration,
    total_duration: call.total_duration,
  };
}

/** The category value a call counts under (`none` when it has none, e.g. no buyer). */
export function categoryValue(call: CallFigures, category: ReportCategory): string {
  switch (category) {
    case 'offer':
      return call.offer_id === null ? 'none' : String(call.offer_id);
    case 'buyer':
      return call.buyer_id === null ? 'none' : String(call.buyer_id);
    case 'traffic_source':
      return call.traffic_source_id === null ? 'none' : String(call.traffic_source_id);
    case 'status':
      return call.status;
    case 'converted':
      return call.buyer_converted ? 'true' : 'false';
  }
}

/** The cells a call counts in: one per category, in the UTC hour it was created. */
export function cellsOf(call: CallFigures): RollupCell[] {
  const created = new Date(call.created_at).toISOString();
  return REPORT_CATEGORIES.map((category) => ({ day: created.slice(0, 10), hour: created.slice(11, 13), category, value: categoryValue(call, category) }));
}

export interface RollupChange {
  cell: RollupCell;
  delta: Stats;
}

function subtract(a: Stats, b: Stats): Stats {
  return Object.fromEntries(STAT_FIELDS.map((field) => [field, Math.round((a[field] - b[field]) * 100) / 100])) as Stats;
}

/**
 * What to add to the rollups when a call goes from `before` (undefined: not counted yet) to
 * `after`: cells it leaves lose its old figures, cells it enters gain its new ones, cells it
 * stays in get the difference. Changes that add nothing are left out.
 */
export function rollupChanges(before: CallFigures | undefined, after: CallFigures): RollupChange[] {
  const key = (cell: RollupCell) => `${cell.day}|${cell.hour}|${cell.category}|${cell.value}`;
  const changes = new Map<string, RollupChange>();
  const add = (cell: RollupCell, delta: Stats) => {
    const existing = changes.get(key(cell));
    const sum = existing ? (Object.fromEntries(STAT_FIELDS.map((f) => [f, Math.round((existing.delta[f] + delta[f]) * 100) / 100])) as Stats) : delta;
    changes.set(key(cell), { cell, delta: sum });
  };
  if (before) for (const cell of cellsOf(before)) add(cell, subtract(emptyStats(), statsOf(before)));
  for (const cell of cellsOf(after)) add(cell, statsOf(after));
  return [...changes.values()].filter((change) => STAT_FIELDS.some((field) => change.delta[field] !== 0));
}
