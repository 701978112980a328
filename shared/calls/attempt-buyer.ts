import { buyerTimeZone } from '../buyers/limits.js';
import { applyCounterChange, type CounterResult } from '../buyers/counters.js';
import type { CounterChange, Metric } from '../buyers/counter-model.js';
import { getRecord } from '../db/records.js';

/**
 * What the call's later webhooks need of an attempt's buyer, stored on the attempt when the buyer
 * is claimed: its time zone, in which its counters count. With it, dial_status and the call's end
 * update the buyer's counters without reading the buyer (docs/calls.md, "Counters").
 */
export interface AttemptBuyerFacts {
  time_zone: string;
  /**
   * The buyer's conversion fields (CONVERSION_FIELDS, by short name) as the claim read them: the terms the call
   * was sent under, so dial_action decides the conversion without reading the buyer. Absent when
   * the buyer's terms follow a schedule (buyer_conversions_schedule): they depend on the moment.
   */
  conversion?: Record<string, unknown>;
}

/**
 * The buyer fields conversionTerms and decideBuyerConversion read when no schedule applies, by
 * the short name the attempt stores them under (the call item is billed by its size).
 */
const CONVERSION_FIELDS = {
  name: 'current_conversion_name',
  revenue: 'current_conversion_revenue',
  duration: 'current_conversion_duration',
  duplicate_timeframe: 'current_conversion_duplicate_timeframe',
  token_values: 'current_conversion_token_values',
} as const;

function hasConversionSchedule(buyer: Record<string, unknown>): boolean {
  return Array.isArray(buyer.buyer_conversions_schedule) && buyer.buyer_conversions_schedule.length > 0;
}

/** The facts to spread into a new attempt of this buyer (the buyer record as the claim read it). */
export function attemptBuyerFacts(buyer: Record<string, unknown>): AttemptBuyerFacts {
  if (hasConversionSchedule(buyer)) return { time_zone: buyerTimeZone(buyer) };
  // Only the fields that say something (null, absent and an empty filter list read alike): the
  // call item is rewritten by every webhook and billed by its size.
  const conversion: Record<string, unknown> = {};
  for (const [short, field] of Object.entries(CONVERSION_FIELDS)) {
    const value = buyer[field];
    if (value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0)) conversion[short] = value;
  }
  return { time_zone: buyerTimeZone(buyer), conversion };
}

/**
 * The attempt's buyer as far as its end needs it, rebuilt from the facts the attempt carries: id
 * and zone (its counters), with `terms` the conversion fields too. Undefined when the attempt
 * does not carry them (a scheduled buyer's terms, an older attempt): the buyer is read instead.
 */
export function attemptCarriedBuyer(attempt: { buyer_id: number | null; time_zone?: unknown; conversion?: unknown }, terms: boolean): Record<string, unknown> | undefined {
  if (attempt.buyer_id === null || typeof attempt.time_zone !== 'string' || !attempt.time_zone) return undefined;
  if (!terms) return { id: attempt.buyer_id, time_zone: attempt.time_zone };
  if (!attempt.conversion || typeof attempt.conversion !== 'object') return undefined;
  const stored = attempt.conversion as Record<string, unknown>;
  const buyer: Record<string, unknown> = { id: attempt.buyer_id, time_zone: attempt.time_zone };
  for (const [short, field] of Object.entries(CONVERSION_FIELDS)) if (stored[short] !== undefined) buyer[field] = stored[short];
  return buyer;
}

/**
 * The time zone of an attempt's buyer: stored on the attempt, else from the buyer record (read
 * here when not given; attempts claimed before the zone was stored). Undefined: the buyer is gone.
 */
export async function attemptBuyerZone(companyId: number, attempt: { buyer_id: number | null; time_zone?: unknown }, buyer?: Record<string, unknown>): Promise<string | undefined> {
  if (attempt.buyer_id === null) return undefined;
  if (typeof attempt.time_zone === 'string' && attempt.time_zone) return attempt.time_zone;
  const record = buyer ?? (await getRecord(companyId, 'buyers', attempt.buyer_id));
  return record ? buyerTimeZone(record) : undefined;
}

/** What a call's webhook counts on its buyer, all in one counter update. */
export interface CallCounts {
  /** The attempt's concurrent call ends. */
  release?: boolean;
  connection?: boolean;
  /** A buyer conversion of this revenue. */
  conversionRevenue?: number;
}

/**
 * Counts a call's effects on its buyer in one UpdateItem (no read first, shared/buyers/counters.ts):
 * release, connection and conversion together. Only an existing counter item changes (the claim
 * made it; a deleted buyer's is gone). Nothing to count: no request.
 */
export async function countOnBuyer(companyId: number, buyerId: number, timeZone: string, at: Date, counts: CallCounts): Promise<CounterResult | undefined> {
  const change = callCountsChange(counts);
  return change ? applyCounterChange(companyId, buyerId, timeZone, at, change) : undefined;
}

/** The counter change of a call's counts (undefined: nothing to count). */
export function callCountsChange(counts: CallCounts): CounterChange | undefined {
  const increments: Partial<Record<Metric, number>> = {};
  if (counts.connection) increments.connection = 1;
  if (counts.conversionRevenue !== undefined) Object.assign(increments, { buyer_conversion: 1, revenue: counts.conversionRevenue, earned_revenue: counts.conversionRevenue });
  if (!counts.release && Object.keys(increments).length === 0) return undefined;
  return { increments, ...(counts.release ? { concurrency: -1 as const } : {}), existingOnly: true };
}
