import { ZonedTime } from '../zoned-time.js';

/**
 * Live buyer counters, as pure functions over plain values. The counter item of a buyer holds,
 * per metric and period, the count in the current period, and per period the key of that period
 * (hour, day, month in the buyer's time zone). A value whose period key is stale counts as 0.
 * `shared/buyers/counters.ts` applies the update this module builds with one conditional write.
 */
export const METRICS = ['attempt', 'connection', 'buyer_conversion', 'revenue', 'earned_revenue'] as const;
export const PERIODS = ['hourly', 'daily', 'monthly', 'total'] as const;
export type Metric = (typeof METRICS)[number];
export type Period = (typeof PERIODS)[number];
type RollingPeriod = Exclude<Period, 'total'>;
const ROLLING: readonly RollingPeriod[] = ['hourly', 'daily', 'monthly'];

/** Attribute of the counter item holding a period's key. */
const KEY_ATTRIBUTE: Record<RollingPeriod, string> = { hourly: 'hour_key', daily: 'day_key', monthly: 'month_key' };

export type PeriodKeys = Record<RollingPeriod, string>;

/**
 * The period keys of the last instant asked, per zone: routing asks them for one `now` in every
 * buyer's zone, so they are worked out once per zone per request, not once per buyer. Callers
 * only read the keys (they are frozen).
 */
let keysInstant = NaN;
const keysByZone = new Map<string, PeriodKeys>();

/** The hour, day and month `now` falls in, in the buyer's time zone. */
export function periodKeys(now: Date, timeZone: string): PeriodKeys {
  const ms = now.getTime();
  if (ms !== keysInstant) {
    keysInstant = ms;
    keysByZone.clear();
  }
  let found = keysByZone.get(timeZone);
  if (!found) {
    found = Object.freeze(zonePeriodKeys(now, timeZone));
    if (keysByZone.size < 600) keysByZone.set(timeZone, found);
  }
  return found;
}

function zonePeriodKeys(now: Date, timeZone: string): PeriodKeys {
  const local = ZonedTime.at(now, timeZone);
  if (!local.isValid) throw new RangeError(`invalid time zone ${timeZone}`);
  const { year, month, day, hour } = local.clock;
  const two = (value: number) => String(value).padStart(2, '0');
  const yearMonth = `${String(year).padStart(4, '0')}-${two(month)}`;
  return { hourly: `${yearMonth}-${two(day)}T${two(hour)}`, daily: `${yearMonth}-${two(day)}`, monthly: yearMonth };
}

/** The stored counter item (as read from DynamoDB), or undefined before the first count. */
export type CounterItem = Record<string, unknown>;

export type CounterValues = Record<Metric, Record<Period, number>> & { concurrency: number };

export function counterAttribute(metric: Metric, period: Period): string {
  return `${metric}_${period}`;
}

function numberOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** The counts in force at `keys`: stale periods read as 0. */
export function currentCounters(item: CounterItem | undefined, keys: PeriodKeys): CounterValues {
  const values = { concurrency: Math.max(0, numberOf(item?.concurrency)) } as CounterValues;
  for (const metric of METRICS) {
    values[metric] = {} as Record<Period, number>;
    for (const period of PERIODS) {
      const fresh = period === 'total' || item?.[KEY_ATTRIBUTE[period]] === keys[period];
      values[metric][period] = fresh ? numberOf(item?.[counterAttribute(metric, period)]) : 0;
    }
  }
  return values;
}

/** Caps per metric and period (null or absent = no cap), and the concurrency cap. */
export interface CounterLimits {
  caps: Partial<Record<Metric, Partial<Record<Period, number | null>>>>;
  concurrency?: number | null;
}

export interface CounterChange {
  increments: Partial<Record<Metric, number>>;
  /** +1 reserves a concurrent call, -1 releases one. */
  concurrency?: 1 | -1;
  /** When set, the change must keep every count within `limits` (reservations). */
  limits?: CounterLimits;
  /** Stamped as `last_call_at`. */
  at?: string;
  /** Only change an existing counter item (a call's counts after its claim; none once the buyer is deleted). */
  existingOnly?: boolean;
}

function hasCap(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** The first cap already reached, named like the limit column (`attempt_daily_limit`). */
export function capReached(values: CounterValues, limits: CounterLimits): string | undefined {
  if (hasCap(limits.concurrency) && values.concurrency >= limits.concurrency) return 'concurrency_cap_limit';
  for (const metric of METRICS) {
    for (const period of PERIODS) {
      const cap = limits.caps[metric]?.[period];
      if (hasCap(cap) && values[metric][period] >= cap) return `${metric}_${period}_limit`;
    }
  }
  return undefined;
}

/** The cap this change would pass, or undefined when it fits. */
export function changeExceeds(values: CounterValues, change: CounterChange): string | undefined {
  const limits = change.limits;
  if (!limits) return undefined;
  if (change.concurrency === 1 && hasCap(limits.concurrency) && values.concurrency + 1 > limits.concurrency) return 'concurrency_cap_limit';
  for (const [metric, amount] of Object.entries(change.increments) as [Metric, number][]) {
    if (!(amount > 0)) continue;
    for (const period of PERIODS) {
      const cap = limits.caps[metric]?.[period];
      if (hasCap(cap) && values[metric][period] + amount > cap) return `${metric}_${period}_limit`;
    }
  }
  return undefined;
}

export interface CounterUpdate {
  UpdateExpression: string;
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

/**
 * The UpdateItem that applies `change` to the item as it was read. Its condition holds only if
 * the item still has the period keys it was read with and, for a change with limits, every
 * affected count is still low enough; a concurrent writer makes it fail instead of passing a
 * cap, and the caller re-reads and tries again. Periods whose key moved on are reset here.
 */
export function buildCounterUpdate(item: CounterItem | undefined, keys: PeriodKeys, change: CounterChange): CounterUpdate {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const adds: string[] = [];
  const conditions: string[] = [];
  let n = 0;
  const name = (attribute: string) => {
    const placeholder = `#n${n++}`;
    names[placeholder] = attribute;
    return placeholder;
  };
  const value = (v: unknown) => {
    const placeholder = `:v${n++}`;
    values[placeholder] = v;
    return placeholder;
  };

  const rolled = new Set<RollingPeriod>();
  for (const period of ROLLING) {
    const keyName = name(KEY_ATTRIBUTE[period]);
    const stored = item?.[KEY_ATTRIBUTE[period]];
    conditions.push(typeof stored === 'string' ? `${keyName} = ${value(stored)}` : `attribute_not_exists(${keyName})`);
    if (stored !== keys[period]) {
      rolled.add(period);
      sets.push(`${keyName} = ${value(keys[period])}`);
    }
  }

  for (const metric of METRICS) {
    const amount = change.increments[metric] ?? 0;
    for (const period of PERIODS) {
      if (period !== 'total' && rolled.has(period)) {
        sets.push(`${name(counterAttribute(metric, period))} = ${value(amount)}`);
        continue;
      }
      if (amount === 0) continue;
      const attribute = name(counterAttribute(metric, period));
      adds.push(`${attribute} ${value(amount)}`);
      const cap = change.limits?.caps[metric]?.[period];
      if (amount > 0 && hasCap(cap)) conditions.push(`(attribute_not_exists(${attribute}) OR ${attribute} <= ${value(cap - amount)})`);
    }
  }

  if (change.concurrency) {
    const concurrency = name('concurrency');
    adds.push(`${concurrency} ${value(change.concurrency)}`);
    const cap = change.limits?.concurrency;
    if (change.concurrency === 1 && hasCap(cap)) conditions.push(`(attribute_not_exists(${concurrency}) OR ${concurrency} < ${value(cap)})`);
    // Never below zero: a release without a reservation (a retried callback) changes nothing.
    if (change.concurrency === -1) conditions.push(`${concurrency} > ${value(0)}`);
  }
  if (change.at) sets.push(`${name('last_call_at')} = ${value(change.at)}`);

  const clauses = [sets.length ? `SET ${sets.join(', ')}` : '', adds.length ? `ADD ${adds.join(', ')}` : ''].filter(Boolean);
  return {
    UpdateExpression: clauses.join(' '),
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
