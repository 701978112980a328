import { firstIvrState, decideIvrStep, IVR_STATUS, type IvrState } from '../call-config/ivr.js';
import { inboundTokens, stateLimitsOfCall, type InboundConfig } from '../call-config/inbound-config.js';
import type { CallerInput } from '../call-config/router-matching.js';
import { takeStateSlots, type StateSlots } from '../call-config/state-limit-counters.js';
import type { StoredRecord } from '../db/records.js';
import { callTokens } from '../leads/lead-calls.js';
import type { LeadRecord } from '../leads/lead-record.js';
import type { ClaimChoice } from '../routing/claim.js';
import type { TokenValues } from '../routing/token-filters.js';
import type { CallInstruction } from './call-dial-plan.js';
import { boundData } from './call-limits.js';
import { afterRouting, ringingSave, routeFirstBuyer } from './call-routing.js';
import { endBeforeDial, type Call } from './call-states.js';
import { timeline } from './call-timeline.js';
import { claimAcrossRuns, transition } from './call-transition.js';
import { bidsAcrossRuns } from './call-bids.js';

/**
 * Inbound configuration (docs/call-configuration.md) as a call meets it: the tokens it lends the
 * call (visitor, SIP header and matcher tokens), the state call limits and the call router (IVR
 * menu) that play before routing, and the answers to that menu.
 */

/**
 * The tokens a new call carries into routing: the caller's offer lead's first (docs/leads.md), or
 * a ping reservation's, then the call configuration's (visitor, SIP header and matcher tokens).
 */
export function arrivalTokens(offerLead: LeadRecord | undefined, reserved: Record<string, unknown> | undefined, inbound: InboundConfig, facts: { called: string; caller: string | null; offerId: number | null }): TokenValues {
  return inboundTokens(callTokens(offerLead, reserved), inbound, facts);
}

/** What the inbound configuration says of a new call, from what its arrival read. */
export interface ArrivalScreen {
  blacklisted: boolean;
  /** A ping's reservation chose the call's buyers already. */
  reserved: boolean;
  /** The enabled call router of the number, else of its offer. */
  numberRouter: StoredRecord | undefined;
  inbound: InboundConfig;
  callerState: string | undefined;
  caller: string | null;
  tokens: TokenValues;
  offerId: number | null;
}

/**
 * A new call meets the inbound configuration before routing: a blacklisted caller or a state call
 * limit blocks it (ended), a call router (IVR menu) plays first (`ivr`), else it is routed. Takes
 * the call's state limit slots (given back once when it ends, finishCall, IVR included); mutates `call`.
 */
export async function screenArrival(companyId: number, call: Call, arrival: ArrivalScreen, at: Date): Promise<{ stateSlots: StateSlots | undefined; next: 'ended' | 'ivr' | 'route' }> {
  const { blacklisted, inbound, caller, tokens } = arrival;
  // A call router (IVR menu) of the number or offer plays before routing (shared/call-config/ivr.ts).
  // Skipped for a blacklisted caller and for a ping's reservation that chose its buyers already.
  const router = blacklisted || arrival.reserved ? undefined : arrival.numberRouter;
  const stateLimits = blacklisted ? { limits: [] } : stateLimitsOfCall(inbound, { carrierState: arrival.callerState, caller, tokens, offerId: arrival.offerId });
  const stateSlots = stateLimits.limits.length ? await takeStateSlots(companyId, stateLimits.limits, at) : undefined;
  if (blacklisted) {
    endBeforeDial(call, 'blocked', at);
    timeline(call, at, 'blocked', { reason: 'caller is blacklisted' });
    return { stateSlots, next: 'ended' };
  }
  if (stateSlots && !stateSlots.ok) {
    endBeforeDial(call, 'blocked', at);
    timeline(call, at, 'state_limited', { state: stateLimits.state, state_call_limit_id: stateSlots.limit.id, limit: stateSlots.exceeded, value: stateSlots.limit[stateSlots.exceeded] });
    return { stateSlots, next: 'ended' };
  }
  // The live slots this call holds, given back once when it ends (finishCall), IVR included.
  if (stateSlots?.ok && stateSlots.held.length) call.state_limit_holds = stateSlots.held;
  if (!router) return { stateSlots, next: 'route' };
  call.status = IVR_STATUS;
  call.ivr = firstIvrState(router);
  timeline(call, at, 'router', { router_id: router.id, step: 1 });
  return { stateSlots, next: 'ivr' };
}

/**
 * The carrier's answer to an IVR gather (`step` names it): shared/call-config/ivr.ts decides what
 * the input does; applied here in one versioned save: the answer's tokens merge into the call's
 * data, then the menu plays again, another router plays, the call is routed to the chosen buyers
 * (an offer's becomes the call's offer), or it ends. A retried or stale gather answer (another
 * step, or the call moved on) changes nothing and gets the call's current instruction.
 */
export async function routerAnswered(companyId: number, callId: number, step: number, input: CallerInput, at: Date): Promise<CallInstruction> {
  let claimed: ClaimChoice | undefined;
  const claims = claimAcrossRuns();
  const bids = bidsAcrossRuns();
  const { call, saved } = await transition(companyId, callId, async (call) => {
    const state = call.ivr as IvrState | undefined;
    if (!call.in_progress || call.status !== IVR_STATUS || !state || state.step !== step) return { result: undefined, save: false };
    claimed = undefined;
    const outcome = await decideIvrStep(companyId, state, input);
    timeline(call, at, 'router_answer', outcome.entry);
    if (Object.keys(outcome.tokens).length) call.data = boundData({ ...(call.data ?? {}), ...outcome.tokens });
    if (outcome.kind === 'gather') {
      call.ivr = outcome.state;
      if (outcome.state.router_id !== state.router_id) timeline(call, at, 'router', { router_id: outcome.state.router_id, step: outcome.state.step });
      return { result: undefined, save: true };
    }
    call.ivr = { ...state, step: state.step + 1, done: true };
    if (outcome.kind === 'hangup') {
      endBeforeDial(call, 'canceled', at);
      return { result: undefined, save: true };
    }
    if (outcome.offer) {
      call.offer_id = outcome.offer.id;
      call.offer = outcome.offer.name;
    }
    call.status = 'ringing';
    claimed = await routeFirstBuyer(companyId, call, outcome.buyerIds, (call.data ?? {}) as TokenValues, at, claims, bids);
    if (!claimed.buyer) return { result: undefined, save: true };
    return ringingSave(claimed, claims);
  }, at);
  // The asks happened whether or not this change was saved: their log is written either way.
  await bids.persist();
  return afterRouting(companyId, call, saved, claimed, at);
}
