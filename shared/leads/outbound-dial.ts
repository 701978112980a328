import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { telephonyPort } from '../adapters/index.js';
import { conversionTerms } from '../buyers/conversion-terms.js';
import { currentCounters, periodKeys } from '../buyers/counter-model.js';
import { buyerLimits, buyerTimeZone } from '../buyers/limits.js';
import { startOutboundCall } from '../calls/call-flow.js';
import { detectsMachines } from '../call-config/amd-flows.js';
import { liveCalls } from '../calls/call-store.js';
import { decideBuyerConversion } from '../calls/conversions.js';
import { isBlacklisted } from '../contacts/blacklist.js';
import { recordDncCheck } from '../reporting/dnc-checks.js';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import { getRecord } from '../db/records.js';
import { logger } from '../logger.js';
import { numbersOfOffer, type NumberRoute } from '../numbers/lookup.js';
import { serviceRandom } from '../routing/random.js';
import { routeBuyers, type RankedBuyer } from '../routing/route-buyers.js';
import { loadRoutingBuyers, selectedBuyerIds } from '../routing/router.js';
import type { TokenValues } from '../routing/token-filters.js';
import { daylight, leadTimeZone } from './daylight.js';
import type { LeadRecord } from './lead-record.js';

/** The dial action's conditions (the schedule action's fields of the same names). */
export interface DialConditions {
  scheduleActionId: number | null;
  whenBuyerAvailable: boolean;
  whenBuyerWouldConvert: boolean;
  callsOnHoldLimit: number | null;
  availableCcPercentage: number | null;
  duringDaylightHours: boolean;
}

export type LeadDialResult = { placed: true; callId: number } | { placed: false; reason: string; retryAt?: Date };

export interface BuyerAvailability {
  available: boolean;
  buyers: Array<{ buyer_id: number; name: string | null }>;
  excluded: Array<{ buyer_id: number; reason: string }>;
  /** Why no buyer was even considered: no_offer (the lead's schedule names none), blacklisted. */
  reason?: string;
}

/** No conditions: make_call and callbacks dial at once. */
export const NO_CONDITIONS: DialConditions = {
  scheduleActionId: null,
  whenBuyerAvailable: false,
  whenBuyerWouldConvert: false,
  callsOnHoldLimit: null,
  availableCcPercentage: null,
  duringDaylightHours: false,
};

/** When a condition that depends on buyers and calls is worth asking again. */
export const RETRY_AFTER_MS = 60_000;
/** When to try again after the carrier refused the call (an outage, a bad number setting). */
export const CARRIER_RETRY_AFTER_MS = 5 * 60_000;
/** Seconds the callee's phone rings before the carrier gives up (no-answer). */
export const OUTBOUND_RING_SECONDS = 30;

/** Where the carrier's webhooks for outbound calls live (AWS: the stack sets it; locally the gateway). */
export function voiceWebhookBase(env: NodeJS.ProcessEnv = process.env): string {
  return (env.VOICE_WEBHOOK_BASE || `http://127.0.0.1:${env.PORT || 3000}/api/v1/voice/twilio`).replace(/\/$/, '');
}

/** The schedule of a lead (when it has one) and the offer whose buyers take its calls. */
async function leadOffer(companyId: number, lead: LeadRecord): Promise<{ schedule?: Record<string, unknown>; offerId: number | null }> {
  const schedule = lead.schedule_id !== null && lead.schedule_id !== undefined ? await getRecord(companyId, 'schedules', lead.schedule_id) : undefined;
  const offerId = typeof schedule?.offer_id === 'number' ? schedule.offer_id : typeof lead.offer_id === 'number' ? lead.offer_id : null;
  return { schedule, offerId };
}

/** The routing decision for a call with these tokens to the offer, without claiming anyone. */
async function routingDecision(companyId: number, offerId: number, tokens: TokenValues, at: Date) {
  const offer = await getRecord(companyId, 'offers', offerId);
  const buyerIds = offer ? await selectedBuyerIds(companyId, offer) : new Set<number>();
  const buyers = await loadRoutingBuyers(companyId, buyerIds);
  return { buyers, decision: routeBuyers(buyers, { now: at, tokens }, serviceRandom) };
}

/** Whether a buyer of the lead's offer would take its call now, with the reasons of those that would not. */
export async function buyerAvailability(companyId: number, lead: LeadRecord, at: Date): Promise<BuyerAvailability> {
  const { offerId } = await leadOffer(companyId, lead);
  if (offerId === null) return { available: false, buyers: [], excluded: [], reason: 'no_offer' };
  if (lead.caller_id && (await isBlacklisted(companyId, lead.caller_id))) return { available: false, buyers: [], excluded: [], reason: 'blacklisted' };
  const { decision } = await routingDecision(companyId, offerId, (lead.data ?? {}) as TokenValues, at);
  return {
    available: decision.eligible.length > 0,
    buyers: decision.eligible.map((buyer) => ({ buyer_id: buyer.id, name: buyer.name })),
    excluded: decision.excluded.map((buyer) => ({ buyer_id: buyer.id, reason: buyer.reason })),
  };
}

/** Would one of these buyers pay for this caller's call (terms, conversion token filters, duplicates)? */
async function someBuyerWouldConvert(companyId: number, eligible: readonly RankedBuyer[], caller: string, tokens: TokenValues, at: Date): Promise<boolean> {
  for (const buyer of eligible) {
    const terms = conversionTerms(buyer.record, at);
    const paid = await db.send(new GetCommand({ TableName: tableName, Key: keys.lastConversion(companyId, `b${buyer.id}`, caller) }));
    const lastPaidAt = typeof paid.Item?.paid_at === 'string' ? new Date(paid.Item.paid_at) : undefined;
    // Assume the call lasts as long as the terms ask: the question is whether the buyer pays at all.
    const decision = decideBuyerConversion({ terms, tokenFilters: buyer.record.current_conversion_token_values, tokens, answeredDuration: terms.duration, lastPaidAt, at });
    if (decision.converted) return true;
  }
  return false;
}

/** The offer's live calls still waiting for a buyer to answer (of the company's newest 1,000 calls in progress, only the offer's are read). */
export async function callsOnHold(companyId: number, offerId: number): Promise<number> {
  return (await liveCalls(companyId, 1000, undefined, offerId)).filter((call) => call.status === 'ringing').length;
}

/**
 * The share (0..100) of the concurrency cap of the offer's active buyers still free. A buyer
 * without a cap is unlimited (100); no active buyer is 0.
 */
export function freeConcurrencyPercent(buyers: Awaited<ReturnType<typeof loadRoutingBuyers>>, at: Date): number {
  let cap = 0;
  let used = 0;
  let active = 0;
  for (const buyer of buyers) {
    if (buyer.record.deleted_at || buyer.record.paused === true) continue;
    active++;
    const limit = buyerLimits(buyer.record, at).concurrency;
    if (typeof limit !== 'number' || !Number.isFinite(limit)) return 100;
    cap += limit;
    used += Math.min(limit, currentCounters(buyer.counters, periodKeys(at, buyerTimeZone(buyer.record))).concurrency);
  }
  if (active === 0 || cap <= 0) return 0;
  return (100 * (cap - used)) / cap;
}

export interface OutboundTarget {
  to: string;
  offerId: number;
  leadId: number | null;
  scheduleId: number | null;
  scheduleActionId: number | null;
  tokens: Record<string, unknown>;
}

/** The tracking number an outbound call of the offer shows: the offer's first (lowest id). */
export async function outboundNumber(companyId: number, offerId: number): Promise<NumberRoute | undefined> {
  return (await numbersOfOffer(companyId, offerId))[0];
}

/**
 * Places the call at the carrier and records it (direction outbound, dialing). The carrier asks
 * `outbound_answer` when the callee answers and reports the end to `status`.
 */
export async function placeOutboundCall(companyId: number, target: OutboundTarget, number: NumberRoute, at: Date): Promise<LeadDialResult> {
  const base = voiceWebhookBase();
  let carrierCallId: string;
  try {
    ({ carrierCallId } = await telephonyPort().placeCall({
      to: target.to,
      from: number.number,
      answerUrl: `${base}/outbound_answer`,
      statusUrl: `${base}/status`,
      timeoutSeconds: OUTBOUND_RING_SECONDS,
      // The offer's answering machine flow decides what a machine gets (shared/call-config/amd-flows.ts).
      ...((await detectsMachines(companyId, target.offerId)) ? { machineDetection: true } : {}),
    }));
  } catch (error) {
    logger.error('the carrier refused an outbound call', { companyId, leadId: target.leadId, error });
    return { placed: false, reason: 'carrier_error', retryAt: new Date(at.getTime() + CARRIER_RETRY_AFTER_MS) };
  }
  const offer = await getRecord(companyId, 'offers', target.offerId);
  const callId = await startOutboundCall(companyId, {
    carrier: 'twilio',
    carrierCallId,
    to: target.to,
    from: { number: number.number, id: number.id, traffic_source_id: number.traffic_source_id, ring_pool_id: number.ring_pool_id },
    offer: { id: target.offerId, name: typeof offer?.name === 'string' ? offer.name : null },
    leadId: target.leadId,
    scheduleId: target.scheduleId,
    scheduleActionId: target.scheduleActionId,
    tokens: target.tokens,
    at,
  });
  return { placed: true, callId };
}

const later = (at: Date, reason: string): LeadDialResult => ({ placed: false, reason, retryAt: new Date(at.getTime() + RETRY_AFTER_MS) });

/**
 * Places an outbound call to the lead through the telephony port; when the lead answers, the
 * routing core connects it to a buyer of the schedule's offer (shared/calls). Not placed (with
 * the reason and, when waiting helps, when to try again) if a condition does not hold. Cheap
 * checks first: the lead's number, the offer and its number, the blacklist, daylight; then the
 * ones that read calls and buyers.
 */
export async function dialLead(companyId: number, lead: LeadRecord, conditions: DialConditions, at: Date): Promise<LeadDialResult> {
  if (!lead.caller_id) return { placed: false, reason: 'no_caller_id' };
  const { schedule, offerId } = await leadOffer(companyId, lead);
  if (offerId === null) return { placed: false, reason: 'no_offer' };
  const number = await outboundNumber(companyId, offerId);
  if (!number) return { placed: false, reason: 'no_number' };
  const blocked = await isBlacklisted(companyId, lead.caller_id);
  // The do-not-call log (one Put; it never fails the dial: shared/reporting/dnc-checks.ts).
  await recordDncCheck(companyId, { caller_number: lead.caller_id, blocked, source: 'dial', lead_id: lead.id }, at);
  if (blocked) return { placed: false, reason: 'blacklisted' };
  const tokens = (lead.data ?? {}) as TokenValues;
  if (conditions.duringDaylightHours) {
    const window = daylight(at, leadTimeZone(tokens, schedule?.time_zone));
    if (!window.inside) return { placed: false, reason: 'outside_daylight_hours', retryAt: window.next };
  }
  if (conditions.callsOnHoldLimit !== null && (await callsOnHold(companyId, offerId)) >= conditions.callsOnHoldLimit) return later(at, 'calls_on_hold_limit');
  if (conditions.whenBuyerAvailable || conditions.whenBuyerWouldConvert || conditions.availableCcPercentage !== null) {
    const { buyers, decision } = await routingDecision(companyId, offerId, tokens, at);
    if (conditions.availableCcPercentage !== null && freeConcurrencyPercent(buyers, at) < conditions.availableCcPercentage) return later(at, 'available_cc_percentage');
    if (conditions.whenBuyerAvailable && decision.eligible.length === 0) return later(at, 'no_buyer_available');
    if (conditions.whenBuyerWouldConvert && !(await someBuyerWouldConvert(companyId, decision.eligible, lead.caller_id, tokens, at))) return later(at, 'no_buyer_would_convert');
  }
  return placeOutboundCall(
    companyId,
    { to: lead.caller_id, offerId, leadId: lead.id, scheduleId: lead.schedule_id ?? null, scheduleActionId: conditions.scheduleActionId, tokens: lead.data ?? {} },
    number,
    at,
  );
}
