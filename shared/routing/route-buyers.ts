import { capReached, currentCounters, periodKeys, type CounterItem, type CounterLimits, type CounterValues } from '../buyers/counter-model.js';
import { conversionTerms } from '../buyers/conversion-terms.js';
import { buyerLimits, buyerTimeZone } from '../buyers/limits.js';
import { isWithinSchedule, type ScheduleDay } from '../buyers/schedule.js';
import type { RandomSource } from './random.js';
import { explainMismatch, parseTokenFilterList, type TokenValues } from './token-filters.js';

/**
 * The routing decision, as pure functions over plain values: which buyers may take a call or a
 * ping, in what order to try them, and why each other buyer was left out. The I/O around it
 * (buyers and counters read by key, then reservations) is in shared/routing/router.ts.
 */
export interface RoutingBuyer {
  /** The buyer record as stored. */
  record: Record<string, unknown>;
  /** Its counter item, if it has one yet. */
  counters?: CounterItem;
}

export interface RoutingContext {
  now: Date;
  /** Tokens of the call or ping (query parameters, lead data), matched by the buyers' filters. */
  tokens: TokenValues;
  /** The caller is on the company blacklist: nobody is eligible. */
  blacklisted?: boolean;
  /**
   * Pings keep this share of each concurrency cap free for calls already promised
   * (an inbound webhook's `concurrency_cap_buffer_percent`).
   */
  concurrencyBufferPercent?: number;
}

export interface RankedBuyer {
  id: number;
  name: string | null;
  record: Record<string, unknown>;
  counters?: CounterItem;
  /** What the buyer pays now (`current_conversion_revenue` or the scheduled conversion). */
  bid: number | null;
  /** The tier it was ranked in: `tier`, or minus revenue / EPC for those routing types. */
  effectiveTier: number;
  weight: number;
  limits: CounterLimits;
}

export interface ExcludedBuyer {
  id: number;
  name: string | null;
  /** paused, deleted, blacklisted, outside_business_hours, a cap column, or token_filter:<filter>. */
  reason: string;
}

export interface RoutingDecision {
  eligible: RankedBuyer[];
  excluded: ExcludedBuyer[];
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Limits for a ping: the concurrency cap lowered by the buffer, never below zero. */
function withBuffer(limits: CounterLimits, bufferPercent: number | undefined): CounterLimits {
  if (!bufferPercent || limits.concurrency === null || limits.concurrency === undefined) return limits;
  return { ...limits, concurrency: Math.max(0, Math.floor((limits.concurrency * (100 - bufferPercent)) / 100)) };
}

/**
 * Earnings per call over `epc_timeframe` hours, from the counters of the period that covers the
 * timeframe (an hour or less: hourly; a day or less: daily; longer: monthly), with
 * `epc_assumed_amount` until `epc_assumed_calls_count` calls exist in that period.
 */
export function earningsPerCall(record: Record<string, unknown>, counters: CounterValues): number {
  const hours = num(record.epc_timeframe) ?? 24;
  const period = hours <= 1 ? 'hourly' : hours <= 24 ? 'daily' : 'monthly';
  const calls = counters.attempt[period];
  const assumedCalls = num(record.epc_assumed_calls_count) ?? 0;
  if (calls === 0 || calls < assumedCalls) return num(record.epc_assumed_amount) ?? 0;
  return counters.earned_revenue[period] / calls;
}

/** Why a buyer may not take this call now, or undefined when it may. */
function exclusionReason(buyer: RoutingBuyer, context: RoutingContext, counters: CounterValues, limits: CounterLimits): string | undefined {
  const record = buyer.record;
  if (context.blacklisted) return 'blacklisted';
  if (record.deleted_at) return 'deleted';
  if (record.paused === true) return 'paused';
  const hours = Array.isArray(record.business_hours_schedule) ? (record.business_hours_schedule as Array<{ schedule?: ScheduleDay[] }>) : [];
  if (hours.length && !hours.some((item) => item.schedule && isWithinSchedule(item.schedule, context.now, buyerTimeZone(record)))) {
    return 'outside_business_hours';
  }
  const reached = capReached(counters, limits);
  if (reached) return reached;
  const filters = parseTokenFilterList(record.record_token_filter_list ?? []);
  if (filters.ok) {
    const mismatch = explainMismatch(filters.filters, context.tokens);
    if (mismatch) return `token_filter:${mismatch}`;
  }
  return undefined;
}

/**
 * Orders eligible buyers: lowest effective tier first; within a tier, a weighted random order
 * where each buyer's chance to come first is weight / total weight of the tier (weighted
 * sampling without replacement, keys u^(1/w)). A blank weight counts as 1; weight 0 comes last.
 */
export function orderBuyers(buyers: readonly RankedBuyer[], random: RandomSource): RankedBuyer[] {
  const keyed = buyers.map((buyer) => {
    const u = Math.max(random(), Number.MIN_VALUE);
    return { buyer, key: buyer.weight > 0 ? Math.log(u) / buyer.weight : -Infinity };
  });
  keyed.sort((a, b) => a.buyer.effectiveTier - b.buyer.effectiveTier || b.key - a.key || a.buyer.id - b.buyer.id);
  return keyed.map((entry) => entry.buyer);
}

/** Decides who may take the call and in what order. */
export function routeBuyers(buyers: readonly RoutingBuyer[], context: RoutingContext, random: RandomSource): RoutingDecision {
  const eligible: RankedBuyer[] = [];
  const excluded: ExcludedBuyer[] = [];
  for (const buyer of buyers) {
    const record = buyer.record;
    const id = Number(record.id);
    const name = typeof record.name === 'string' ? record.name : null;
    const counters = currentCounters(buyer.counters, periodKeys(context.now, buyerTimeZone(record)));
    const limits = withBuffer(buyerLimits(record, context.now), context.concurrencyBufferPercent);
    const reason = exclusionReason(buyer, context, counters, limits);
    if (reason) {
      excluded.push({ id, name, reason });
      continue;
    }
    const bid = conversionTerms(record, context.now).revenue;
    const type = record.route_by_type;
    const effectiveTier =
      type === 'revenue' ? -(bid ?? 0) : type === 'epc' ? -earningsPerCall(record, counters) : (num(record.tier) ?? 0);
    eligible.push({ id, name, record, counters: buyer.counters, bid, effectiveTier, weight: num(record.weight) ?? 1, limits });
  }
  return { eligible: orderBuyers(eligible, random), excluded };
}
