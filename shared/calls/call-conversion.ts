import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { conversionTerms } from '../buyers/conversion-terms.js';
import { applyCounterChange } from '../buyers/counters.js';
import { buyerTimeZone } from '../buyers/limits.js';
import { db, tableName, type TransactItem } from '../db/client.js';
import { keys } from '../db/keys.js';
import { METRIC } from '../observability/metric-names.js';
import { countMetric } from '../observability/metrics.js';
import type { TokenValues } from '../routing/token-filters.js';
import type { Call } from './call-states.js';
import { timeline } from './call-timeline.js';
import { cents, decideBuyerConversion } from './conversions.js';

/**
 * The money of a dial: a buyer's conversion as the engine applies it (the decision is
 * conversions.ts's), and the duplicate history (when a caller was last paid, per buyer or payout rule).
 */

/** Reads when this caller was last paid under `scope` (a buyer or a payout rule). */
export async function lastPaid(companyId: number, scope: string, caller: string | null): Promise<Date | undefined> {
  if (!caller) return undefined;
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.lastConversion(companyId, scope, caller) }));
  return typeof result.Item?.paid_at === 'string' ? new Date(result.Item.paid_at) : undefined;
}

/** The duplicate history's write: this caller was paid under `scope` at `at` (none without a caller). */
export function paidWrite(companyId: number, scope: string, caller: string | null, at: Date): TransactItem | undefined {
  return caller ? { Put: { TableName: tableName, Item: { ...keys.lastConversion(companyId, scope, caller), paid_at: at.toISOString() } } } : undefined;
}

export async function markPaid(companyId: number, scope: string, caller: string | null, at: Date): Promise<void> {
  const write = paidWrite(companyId, scope, caller, at);
  if (write) await db.send(new PutCommand(write.Put as ConstructorParameters<typeof PutCommand>[0]));
}

/** Decides the buyer conversion of a dial (duration 0) or an answered leg; mutates `call`. */
export async function convertForBuyer(companyId: number, call: Call, buyer: Record<string, unknown>, answeredDuration: number, at: Date, paid?: { at: Date | undefined }): Promise<boolean> {
  if (call.buyer_converted) return false;
  const terms = conversionTerms(buyer, at);
  const decision = decideBuyerConversion({
    terms,
    tokenFilters: buyer.current_conversion_token_values,
    tokens: (call.data ?? {}) as TokenValues,
    answeredDuration,
    lastPaidAt: paid ? paid.at : await lastPaid(companyId, `b${String(buyer.id)}`, call.caller_number),
    at,
  });
  timeline(call, at, 'buyer_conversion', { buyer_id: buyer.id, converted: decision.converted, ...(decision.converted ? { revenue: decision.revenue } : { reason: decision.reason }) });
  if (!decision.converted) return false;
  call.buyer_converted = true;
  call.revenue = cents(decision.revenue);
  call.buyer_revenue = call.revenue;
  call.conversion_name = decision.name;
  call.converted_buyer_id = Number(buyer.id);
  call.profit = cents(call.revenue - (call.payout ?? 0));
  return true;
}

/** Counter and duplicate-history effects of a buyer conversion, after it was saved. */
export async function applyBuyerConversion(companyId: number, call: Call, buyer: Record<string, unknown>, at: Date): Promise<void> {
  await applyCounterChange(companyId, Number(buyer.id), buyerTimeZone(buyer), at, {
    increments: { buyer_conversion: 1, revenue: call.revenue, earned_revenue: call.revenue },
  });
  await markPaid(companyId, `b${String(buyer.id)}`, call.caller_number, at);
  countMetric(METRIC.conversions);
}
