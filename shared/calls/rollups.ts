/**
 * Call statistics are rolled up per UTC hour when a call completes (and adjusted when a call is
 * updated), so reports read a few rollup items, never the calls.
 * Pure: which rollup cells a call touches and by how much, and how stored cells read as the cells
 * of one report category.
 *
 * A call is stored in two cells, not one per report category: a `mix` cell for its combination of
 * offer, traffic source, status and converted (values of few distinct combinations in an hour),
 * and a `buyer` cell when it has a buyer. Each cell is an item of the call's end transaction,
 * billed 2 write units, so the call's end books 4 units where five cells booked 10. A report by
 * offer, traffic source, status or converted sums the mix cells by that part of their value;
 * calls without a buyer are the hour's calls (its mix cells) less its buyer cells. Cells written
 * before this layout (one per category, `none` buyer cells included) still count
 * (categoryItems).
 */
export const REPORT_CATEGORIES = ['offer', 'buyer', 'traffic_source', 'status', 'converted'] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];

/** The categories whose values make up a `mix` cell's value, in its order. */
const MIX_PARTS = ['offer', 'traffic_source', 'status', 'converted'] as const satisfies readonly ReportCategory[];
const MIX_SEPARATOR = '|';

/** What a stored cell is kept under: the two current kinds, or a category (cells of the older layout). */
export type CellCategory = 'mix' | 'buyer' | ReportCategory;

export const STAT_FIELDS = ['calls', 'answered', 'buyer_converted', 'offer_converted', 'revenue', 'payout', 'profit', 'answered_duration', 'total_duration'] as const;
export type StatField = (typeof STAT_FIELDS)[number];
export type Stats = Record<StatField, number>;

export interface RollupCell {
  day: string;
  hour: string;
  category: CellCategory;
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

/** The cells a call counts in, in the UTC hour it was created: its mix cell, and its buyer's when it has one. */
export function cellsOf(call: CallFigures): RollupCell[] {
  const created = new Date(call.created_at).toISOString();
  const at = { day: created.slice(0, 10), hour: created.slice(11, 13) };
  const mix: RollupCell = { ...at, category: 'mix', value: MIX_PARTS.map((part) => categoryValue(call, part)).join(MIX_SEPARATOR) };
  return call.buyer_id === null ? [mix] : [mix, { ...at, category: 'buyer', value: String(call.buyer_id) }];
}

/** The stored kinds of cell a report of `category` reads (categoryItems' input). */
export function storedCategoriesOf(category: ReportCategory): CellCategory[] {
  // Calls without a buyer are derived from the hour's calls: mix cells, and status cells of the older layout.
  return category === 'buyer' ? ['buyer', 'mix', 'status'] : [category, 'mix'];
}

/** A rollup item as stored (keys aside): one UTC hour, its kind and value, its summed stats. */
export interface RollupItem extends Partial<Stats> {
  day: string;
  hour: string;
  category: string;
  value: string;
}

/** Money fields are summed in cents so float noise never shows. */
const MONEY: ReadonlySet<string> = new Set(['revenue', 'payout', 'profit']);

/** Adds `stats` (taken away with `sign` -1) into `into`, money in cents; returns `into`. */
export function addStats(into: Stats, stats: Partial<Stats>, sign: 1 | -1 = 1): Stats {
  for (const field of STAT_FIELDS) {
    const amount = into[field] + sign * Number(stats[field] ?? 0);
    into[field] = MONEY.has(field) ? Math.round(amount * 100) / 100 : amount;
  }
  return into;
}

/**
 * The stored cells as cells of one report category (`category` and `value` of that category,
 * stats as stored), for the reports to sum: mix cells by their part of the value, cells of the
 * older layout as they are, and for `buyer` one derived `none` cell per hour (its calls less its
 * buyer cells) where that leaves anything. A mix cell may hold negative figures (an update moved
 * a call stored in the older layout out of it); the sums come out right all the same.
 */
export function categoryItems<T extends RollupItem>(items: readonly T[], category: ReportCategory): Array<RollupItem & Stats> {
  const part = MIX_PARTS.indexOf(category as (typeof MIX_PARTS)[number]);
  const out: Array<RollupItem & Stats> = [];
  const cell = (item: RollupItem, value: string) => {
    return { day: item.day, hour: item.hour, category, value, ...addStats(emptyStats(), item) };
  };
  if (category !== 'buyer') {
    for (const item of items) {
      if (item.category === category) out.push(cell(item, item.value));
      else if (item.category === 'mix') out.push(cell(item, item.value.split(MIX_SEPARATOR)[part] ?? 'none'));
    }
    return out;
  }
  const unbought = new Map<string, RollupItem & Stats>();
  const hourOf = (item: RollupItem) => {
    const key = `${item.day}|${item.hour}`;
    let derived = unbought.get(key);
    if (!derived) unbought.set(key, (derived = { day: item.day, hour: item.hour, category, value: 'none', ...emptyStats() }));
    return derived;
  };
  for (const item of items) {
    if (item.category === 'mix' || item.category === 'status') addStats(hourOf(item), item);
    // The older layout's `none` buyer cells are in the derived cell already (as calls of the hour).
    else if (item.category === 'buyer' && item.value !== 'none') {
      out.push(cell(item, item.value));
      addStats(hourOf(item), item, -1);
    }
  }
  for (const derived of unbought.values()) if (STAT_FIELDS.some((field) => derived[field] !== 0)) out.push(derived);
  return out;
}

export interface RollupChange {
  cell: RollupCell;
  delta: Stats;
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
    changes.set(key(cell), { cell, delta: existing ? addStats(existing.delta, delta) : delta });
  };
  if (before) for (const cell of cellsOf(before)) add(cell, addStats(emptyStats(), statsOf(before), -1));
  for (const cell of cellsOf(after)) add(cell, statsOf(after));
  return [...changes.values()].filter((change) => STAT_FIELDS.some((field) => change.delta[field] !== 0));
}
