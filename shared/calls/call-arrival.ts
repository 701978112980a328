import { randomBytes } from 'node:crypto';
import { conversionTerms } from '../buyers/conversion-terms.js';
import { IVR_STATUS } from '../call-config/ivr.js';
import { releaseStateSlots } from '../call-config/state-limit-counters.js';
import { timeSortableId } from '../db/ids.js';
import type { EventName } from '../events/event-names.js';
import { publishStaged, stageMessages } from '../events/outbox.js';
import { METRIC } from '../observability/metric-names.js';
import { countMetric } from '../observability/metrics.js';
import { normalizeCallerNumber } from '../phone.js';
import type { ClaimInSave } from '../routing/claim.js';
import { countCallWin } from './call-bids.js';
import { applyBuyerConversion, convertForBuyer } from './call-conversion.js';
import { instructionFor, type CallInstruction } from './call-dial-plan.js';
import { finishCall } from './call-end.js';
import { arrivalTokens, screenArrival } from './call-inbound.js';
import { boundData } from './call-limits.js';
import { recordFirstBuyer, routeArrival, type ArrivalRoute } from './call-routing.js';
import { readArrival } from './call-start-reads.js';
import type { Call } from './call-states.js';
import { createCall, findCallByCarrierId, type CallRecord } from './call-store.js';
import { firstTargets } from './call-targets.js';
import { callEvents, timeline } from './call-timeline.js';
import { callUuid } from './call-uuid.js';

/** A call's arrival at a tracking number: what the number leads to is read, the call written and routed. */

export interface IncomingCall {
  carrier: string;
  carrierCallId: string;
  from: string;
  to: string;
  callerCity?: string;
  callerState?: string;
  callerCountry?: string;
  /** Headers of an incoming SIP call, names lower-cased (shared/call-config/inbound-tokens.ts). */
  sipHeaders?: Record<string, string>;
  at: Date;
}


/** A new call's identity and clock fields, inbound or outbound: its id, uuid, secure token and carrier leg. */
export function newCallFields(companyId: number, carrier: string, carrierCallId: string, at: Date) {
  const id = timeSortableId(at.getTime());
  return {
    id,
    uuid: callUuid(companyId, id),
    secure_token: randomBytes(16).toString('hex'),
    carrier,
    carrier_call_id: carrierCallId,
    created_at: at.toISOString(),
    updated_at: at.toISOString(),
    user_updated_at: null,
    ended_at: null,
  };
}

/** What a call has before anyone answered it: no buyer, no attempts, no money, no recording (fresh arrays). */
export function untouchedCallFields() {
  return {
    buyer_id: null,
    buyer: null,
    attempts: [],
    queue: [],
    total_duration: 0,
    answered_duration: 0,
    buyer_converted: false,
    offer_converted: false,
    revenue: 0,
    buyer_revenue: 0,
    payout: 0,
    traffic_source_payout: 0,
    profit: 0,
    has_recording: false,
    recording_url: null,
  };
}

/**
 * Writes a new call (createCall) with its events staged and, when it is routed to buyers, the
 * claim of its first buyer in the same transaction (claimInSave). A claim refused by its condition
 * alone (nothing was written) is decided again and the call, rebuilt from `unrouted` (the call
 * before its buyer) for the new choice, written again. `created` false: a retry of this webhook
 * wrote the call first.
 */
async function writeNewCall(companyId: number, unrouted: Call, claim: { buyerIds: Set<number>; inSave: ClaimInSave } | undefined, consumers: boolean, at: Date) {
  for (;;) {
    const call = claim ? structuredClone(unrouted) : unrouted;
    const claimed = claim?.inSave.choice();
    if (claim && claimed) recordFirstBuyer(call, claim.buyerIds, claimed, at);
    const onDial = claimed?.buyer && conversionTerms(claimed.buyer.record, at).duration === 0 ? await convertForBuyer(companyId, call, claimed.buyer.record, 0, at) : false;
    const names: EventName[] = !consumers ? [] : call.in_progress && call.status !== IVR_STATUS ? ['new_call', 'call_ringing'] : ['new_call'];
    const { writes, staged } = stageMessages(companyId, callEvents(companyId, names, call, at), at);
    const created = await createCall(companyId, call as CallRecord & { carrier: string; carrier_call_id: string }, writes, claimed?.write);
    if (typeof created === 'object') await claim!.inSave.refused(created.refused === 'conflict');
    else return { call, claimed, onDial, created, staged };
  }
}

/** A call arrives at a tracking number: identify it, route it, dial the first buyer. */
export async function startCall(incoming: IncomingCall): Promise<CallInstruction> {
  const at = incoming.at;
  const caller = normalizeCallerNumber(incoming.from) ?? null;
  // The retried-webhook check, the number lookup and everything the number leads to, side by side (call-start-reads.ts).
  const arrival = await readArrival({ carrier: incoming.carrier, carrierCallId: incoming.carrierCallId, to: incoming.to.trim(), caller, sipHeaders: incoming.sipHeaders, at });
  if (arrival.kind === 'retried') return instructionFor(arrival.companyId, arrival.call as Call, arrival.known);
  if (arrival.kind === 'unknown_number') return { kind: 'reject', reason: 'unknown_number' };
  const number = arrival.number;
  const companyId = number.company_id;
  const started = arrival.reads;
  const { reservation, offer, trafficSource, blacklisted, offerLead, inbound, numberRouter, recordingRules } = started;
  const tokens = arrivalTokens(offerLead, reservation?.tokens, inbound, { called: number.number, caller, offerId: number.offer_id });
  const leadId = reservation?.lead_id ?? offerLead?.id ?? null;
  let call: Call = {
    ...newCallFields(companyId, incoming.carrier, incoming.carrierCallId, at),
    status: 'ringing',
    in_progress: true,
    caller_number: caller,
    caller_city: incoming.callerCity ?? null,
    caller_state: incoming.callerState ?? null,
    caller_country: incoming.callerCountry ?? null,
    number: number.number,
    number_id: number.id,
    ring_pool_id: number.ring_pool_id,
    offer_id: number.offer_id,
    offer: (offer?.name as string | undefined) ?? null,
    traffic_source_id: reservation?.traffic_source_id ?? number.traffic_source_id,
    traffic_source: (trafficSource?.name as string | undefined) ?? null,
    ping_id: reservation?.ping_id ?? null,
    lead_id: leadId,
    ...untouchedCallFields(),
    // A ping's tokens come in unchecked by a client-facing limit: trimmed, not refused.
    data: boundData(tokens),
    timeline: [],
    version: 0,
  };
  timeline(call, at, 'incoming', { from: caller, to: number.number, reservation: reservation ? reservation.ping_id : null });

  // The inbound configuration has its say first: a state call limit, a call router (call-inbound.ts).
  const reserved = Boolean(reservation?.buyer_ids.length);
  const { stateSlots, next } = await screenArrival(companyId, call, { blacklisted, reserved, numberRouter, inbound, callerState: incoming.callerState, caller, tokens, offerId: number.offer_id }, at);
  // The buyer is claimed in the transaction that writes the call (claimInSave): no request of its own.
  const { claim, agentId, bidding }: ArrivalRoute = next === 'route' ? await routeArrival(companyId, call, { reservation, offer, started, tokens }, at) : {};
  const [{ call: written, claimed, onDial, created, staged }] = await Promise.all([writeNewCall(companyId, call, claim, started.eventConsumers, at), bidding?.persist()]);
  call = written;
  if (!created) {
    // A retry of this webhook got there first (our claim was not written with it): give back what
    // else this call held and answer as it did.
    if (agentId !== undefined) await firstTargets.legEnded(companyId, agentId, call.id, at, 0);
    if (stateSlots?.ok) await releaseStateSlots(companyId, stateSlots.held);
    const winner = await findCallByCarrierId(incoming.carrier, incoming.carrierCallId);
    return winner ? instructionFor(winner.companyId, winner.call as Call) : { kind: 'reject', reason: 'duplicate' };
  }
  await Promise.all([publishStaged(staged), countCallWin(companyId, call, claimed?.buyer?.id, at)]);
  // Counted once: a retried incoming webhook found the call above, or lost the race to create it.
  countMetric(METRIC.callsStarted);
  if (!call.in_progress) {
    await finishCall(companyId, call.id, { totalDuration: 0, at });
    return call.status === 'blocked' ? { kind: 'reject', reason: 'blocked', companyId, callId: call.id } : { kind: 'hangup', reason: 'no_buyer', companyId, callId: call.id };
  }
  if (onDial && claimed?.buyer) await applyBuyerConversion(companyId, call, claimed.buyer.record, at);
  // The dial is built from what this request read and just saved: nothing is read again.
  return instructionFor(companyId, call, { buyer: claimed?.buyer?.record, offer: offer ?? null, recordingRules, sipHeaders: started.dialSipHeaders });
}
