import { activeScheduleItem, type ScheduleDay } from './schedule.js';
import { buyerTimeZone } from './limits.js';

/**
 * What a buyer pays for a call at a moment: the first `buyer_conversions_schedule` entry whose
 * schedule covers it (in the buyer's zone), else the `current_conversion_*` fields. Pure.
 */
export interface ConversionTerms {
  name: string | null;
  revenue: number | null;
  /** Seconds of answered call before it converts; 0 converts on dial. */
  duration: number;
  duplicateTimeframe: number | null;
}

interface ScheduledConversions {
  buyer_conversions_attributes?: Array<{ name?: string; duration?: number; revenue?: number; duplicate_timeframe?: number }>;
  schedule?: ScheduleDay[];
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function conversionTerms(buyer: Record<string, unknown>, now: Date): ConversionTerms {
  const items = Array.isArray(buyer.buyer_conversions_schedule) ? (buyer.buyer_conversions_schedule as ScheduledConversions[]) : [];
  const active = activeScheduleItem(items, now, buyerTimeZone(buyer))?.buyer_conversions_attributes?.[0];
  if (active) {
    return { name: active.name ?? null, revenue: num(active.revenue), duration: num(active.duration) ?? 0, duplicateTimeframe: num(active.duplicate_timeframe) };
  }
  return {
    name: typeof buyer.current_conversion_name === 'string' ? buyer.current_conversion_name : null,
    revenue: num(buyer.current_conversion_revenue),
    duration: num(buyer.current_conversion_duration) ?? 0,
    duplicateTimeframe: num(buyer.current_conversion_duplicate_timeframe),
  };
}
