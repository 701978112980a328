import type { CounterLimits, Metric } from './counter-model.js';
import { activeScheduleItem, type ScheduleDay } from './schedule.js';

/**
 * A buyer's caps at a moment: daily, monthly and total limits from its fields, hourly limits
 * from the business-hours item in force (in the buyer's time zone), and its concurrency cap.
 * Pure; routing and the buyer columns read caps only through this.
 */
export interface BuyerCapFields {
  time_zone?: unknown;
  concurrency_cap_limit?: unknown;
  business_hours_schedule?: unknown;
  [field: string]: unknown;
}

const CAPPED_METRICS: readonly Metric[] = ['attempt', 'connection', 'buyer_conversion', 'revenue'];

function cap(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function buyerTimeZone(buyer: BuyerCapFields): string {
  return typeof buyer.time_zone === 'string' && buyer.time_zone ? buyer.time_zone : 'UTC';
}

export function buyerLimits(buyer: BuyerCapFields, now: Date): CounterLimits {
  const hours = activeScheduleItem(
    Array.isArray(buyer.business_hours_schedule) ? (buyer.business_hours_schedule as Array<Record<string, unknown> & { schedule?: ScheduleDay[] }>) : [],
    now,
    buyerTimeZone(buyer),
  );
  const caps: CounterLimits['caps'] = {};
  for (const metric of CAPPED_METRICS) {
    caps[metric] = {
      hourly: cap(hours?.[`${metric}_hourly_limit`]),
      daily: cap(buyer[`${metric}_daily_limit`]),
      monthly: cap(buyer[`${metric}_monthly_limit`]),
      total: cap(buyer[`${metric}_total_limit`]),
    };
  }
  return { caps, concurrency: cap(buyer.concurrency_cap_limit) };
}
