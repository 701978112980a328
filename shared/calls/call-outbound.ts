import { isBlacklisted } from '../contacts/blacklist.js';
import { getRecord } from '../db/records.js';
import { hasEventConsumers } from '../events/event-consumers.js';
import { publishStaged, stageMessages } from '../events/outbox.js';
import { METRIC } from '../observability/metric-names.js';
import { countMetric } from '../observability/metrics.js';
import type { ClaimChoice } from '../routing/claim.js';
import { selectedBuyerIds } from '../routing/router.js';
import type { TokenValues } from '../routing/token-filters.js';
import { newCallFields, untouchedCallFields } from './call-arrival.js';
import type { CallInstruction } from './call-dial-plan.js';
import { boundData } from './call-limits.js';
import { bidsAcrossRuns } from './call-bids.js';
import { afterRouting, ringingSave, routeFirstBuyer } from './call-routing.js';
import { endBeforeDial, type Call } from './call-states.js';
import { createCall, findCallByCarrierId, type CallRecord } from './call-store.js';
import { callEvents, timeline } from './call-timeline.js';
import { claimAcrossRuns, transition } from './call-transition.js';

/**
 * Outbound calls (a lead's dial, shared/leads/outbound-dial.ts): the call record exists from the
 * moment the carrier accepted the call, `dialing` (in progress) while the callee's phone rings.
 */
export interface OutboundCall {
  carrier: string;
  carrierCallId: string;
  /** The callee (the lead's number) and the tracking number it is called from. */
  to: string;
  from: { number: string; id: number; traffic_source_id: number | null; ring_pool_id: number | null };
  offer: { id: number; name: string | null };
  leadId: number | null;
  scheduleId: number | null;
  scheduleActionId: number | null;
  tokens: Record<string, unknown>;
  at: Date;
}

/** Records a placed outbound call (`new_call`); its id. */
export async function startOutboundCall(companyId: number, outbound: OutboundCall): Promise<number> {
  const at = outbound.at;
  const call: Call = {
    ...newCallFields(companyId, outbound.carrier, outbound.carrierCallId, at),
    direction: 'outbound',
    status: 'dialing',
    in_progress: true,
    caller_number: outbound.to,
    caller_city: null,
    caller_state: null,
    caller_country: null,
    number: outbound.from.number,
    number_id: outbound.from.id,
    ring_pool_id: outbound.from.ring_pool_id,
    offer_id: outbound.offer.id,
    offer: outbound.offer.name,
    traffic_source_id: outbound.from.traffic_source_id,
    traffic_source: null,
    ping_id: null,
    lead_id: outbound.leadId,
    schedule_id: outbound.scheduleId,
    schedule_action_id: outbound.scheduleActionId,
    ...untouchedCallFields(),
    data: boundData(outbound.tokens),
    timeline: [],
    version: 0,
  };
  timeline(call, at, 'outbound_dial', { to: outbound.to, from: outbound.from.number, lead_id: outbound.leadId });
  // Nothing was read before: whether anything receives the company's events is read for it (one BatchGetItem).
  const consumers = await hasEventConsumers(companyId, { consistent: true });
  const { writes, staged } = stageMessages(companyId, callEvents(companyId, consumers ? ['new_call'] : [], call, at), at);
  if (!(await createCall(companyId, call as CallRecord & { carrier: string; carrier_call_id: string }, writes))) {
    const existing = await findCallByCarrierId(outbound.carrier, outbound.carrierCallId);
    if (existing) return existing.call.id;
    throw new Error(`Outbound call ${outbound.carrierCallId} could not be recorded`);
  }
  await publishStaged(staged);
  countMetric(METRIC.callsStarted);
  return call.id;
}

/**
 * The callee of an outbound call answered: the call is routed exactly like an inbound call of
 * its offer (the offer's buyers with the call's tokens, i.e. the lead's data),
 * then follows the same dial / dial_action / dial_status / status flow. No buyer (or a caller
 * blacklisted meanwhile) ends it. A repeated answer webhook gets the same instruction again.
 */
export async function outboundAnswered(companyId: number, callId: number, at: Date): Promise<CallInstruction> {
  let claimed: ClaimChoice | undefined;
  const claims = claimAcrossRuns();
  const bids = bidsAcrossRuns();
  const { call, saved } = await transition(companyId, callId, async (call) => {
    if (!call.in_progress || call.status !== 'dialing') return { result: undefined, save: false };
    claimed = undefined;
    timeline(call, at, 'answered_by_callee', {});
    const tokens = (call.data ?? {}) as TokenValues;
    const [offer, blacklisted] = await Promise.all([
      call.offer_id !== null ? getRecord(companyId, 'offers', call.offer_id) : Promise.resolve(undefined),
      call.caller_number ? isBlacklisted(companyId, call.caller_number) : Promise.resolve(false),
    ]);
    if (blacklisted) {
      endBeforeDial(call, 'blocked', at);
      timeline(call, at, 'blocked', { reason: 'caller is blacklisted' });
      return { result: undefined, save: true };
    }
    const buyerIds = offer ? await selectedBuyerIds(companyId, offer) : new Set<number>();
    claimed = await routeFirstBuyer(companyId, call, buyerIds, tokens, at, claims, bids);
    if (!claimed.buyer) return { result: undefined, save: true };
    call.status = 'ringing';
    return ringingSave(claimed, claims);
  }, at);
  // The asks happened whether or not this change was saved: their log is written either way.
  await bids.persist();
  return afterRouting(companyId, call, saved, claimed, at);
}
