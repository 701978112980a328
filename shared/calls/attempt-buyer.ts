import { buyerTimeZone } from '../buyers/limits.js';
import { applyCounterChange, type CounterResult } from '../buyers/counters.js';
import type { Metric } from '../buyers/counter-model.js';
import { getRecord } from '../db/records.js';

/**
 * What the call's later webhooks need of an attempt's buyer, stored on the attempt when the buyer
 * is claimed: its time zone, in which its counters count. With it, dial_status and the call's end
 * update the buyer's counters without reading the buyer (docs/calls.md, "Counters").
 */
export interface AttemptBuyerFacts {
  time_zone: string;
}

/** The facts to spread into a new attempt of this buyer (the buyer record as the claim read it). */
export function attemptBuyerFacts(buyer: Record<string, unknown>): AttemptBuyerFacts {
  return { time_zone: buyerTimeZone(buyer) };
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
  const increments: Partial<Record<Metric, number>> = {};
  if (counts.connection) increments.connection = 1;
  if (counts.conversionRevenue !== undefined) Object.assign(increments, { buyer_conversion: 1, revenue: counts.conversionRevenue, earned_revenue: counts.conversionRevenue });
  if (!counts.release && Object.keys(increments).length === 0) return undefined;
  return applyCounterChange(companyId, buyerId, timeZone, at, { increments, ...(counts.release ? { concurrency: -1 as const } : {}), existingOnly: true });
}
