import { randomBytes, randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../adapters/clock.js';
import { conversionTerms } from '../buyers/conversion-terms.js';
import { applyCounterChange, blindCounterWrite } from '../buyers/counters.js';
import { buyerTimeZone } from '../buyers/limits.js';
import { isBlacklisted } from '../contacts/blacklist.js';
import { db, tableName, type TransactItem } from '../db/client.js';
import { timeSortableId } from '../db/ids.js';
import { keys } from '../db/keys.js';
import { rollupCellUpdate } from '../db/rollup-update.js';
import { getRecord, queryAllRecords, type StoredRecord } from '../db/records.js';
import type { EventName } from '../events/event-names.js';
import { hasEventConsumers, readWithEventConsumers } from '../events/event-consumers.js';
import { publishStaged, stageMessages } from '../events/outbox.js';
import type { QueueMessage } from '../ports/events.js';
import { normalizeCallerNumber } from '../phone.js';
import { claimInSave, type ClaimChoice, type ClaimInSave } from '../routing/claim.js';
import { serviceRandom } from '../routing/random.js';
import { callTokens, leadCallEnded } from '../leads/lead-calls.js';
import { loadRoutingBuyers, selectedBuyerIds } from '../routing/router.js';
import type { TokenValues } from '../routing/token-filters.js';
import { ValidationError } from '../http/errors.js';
import { boundData, boundTimeline, dataProblems, type TimelineEntry } from './call-limits.js';
import { callView } from './call-view.js';
import { callUuid } from './call-uuid.js';
import { callKey, claimRefusal, createCall, findCallByCarrierId, saveCall, storedCall, type CallRecord } from './call-store.js';
import { cents, decideBuyerConversion, decideOfferConversion, type OfferConversionRule } from './conversions.js';
import { rollupChanges, type CallFigures } from './rollups.js';
import { attemptBuyerFacts, attemptBuyerZone, attemptCarriedBuyer, callCountsChange, countOnBuyer } from './attempt-buyer.js';
import { MAX_TALK_SECONDS, staleCallDuration, type LiveCallFacts } from './stale-calls.js';
import { METRIC } from '../observability/metric-names.js';
import { dialExtras, type DialExtras } from '../call-config/dial-extras.js';
import { inboundTokens, stateLimitsOfCall } from '../call-config/inbound-config.js';
import { releaseStateSlots, takeStateSlots } from '../call-config/state-limit-counters.js';
import { countMetric } from '../observability/metrics.js';
import { decideIvrStep, firstIvrState, gatherFor, IVR_STATUS, type GatherStep, type IvrState } from '../call-config/ivr.js';
import type { CallerInput } from '../call-config/router-matching.js';
import { agentDialInstruction, agentLegEnded, routeToAgent } from '../agents/agent-calls.js';
import { buyerIdsOfOffer, readArrival } from './call-start-reads.js';
import { dialInputs, fallThroughReads, holdPlaylistOf, type DialKnown } from './dial-reads.js';
import { bidForCall, bidsAcrossRuns, buyersWithCallBids, countCallWin, dialedBuyer, type BidsAcrossRuns, type CallBidding } from './call-bids.js';

/**
 * The carrier-neutral call state machine:
 *   incoming -> blocked | no_buyer | ringing buyer 1 -> (answered -> completed) |
 *   (no answer / busy / failed -> ringing buyer 2 ... -> no_answer) -> ended.
 * Carrier adapters (Twilio-compatible webhooks, the local simulator) drive it and turn its
 * instructions into their own language. Every transition is saved with a version check before
 * its effects (counters, events) happen, so a retried or racing callback is applied once.
 */
export interface DialTarget {
  /** The buyer dialed; null when an agent is (agentId). */
  buyerId: number | null;
  /** The agent dialed (shared/agents/agent-calls.ts). */
  agentId?: number;
  name: string | null;
  /** E.164 number or sip: URI. */
  number: string;
  timeoutSeconds: number;
  dtmfTones: string | null;
  pressOneToAccept: boolean;
  /** Caller id to show the buyer. */
  callerId: string | null;
  uuid: string;
  secureToken: string;
  /** Configured SIP headers for a SIP buyer (sip_headers), beside the secure-token ones. */
  sipHeaders?: DialExtras['sipHeaders'];
  /** Record this dial (call_recording_rules): dual or mono channels; null/absent: no recording. */
  record?: DialExtras['record'];
}

export type CallInstruction =
  | { kind: 'dial'; companyId: number; callId: number; attempt: number; target: DialTarget; /** The offer's hold playlist when known (null: none); undefined: read it (call-sounds.ts). */ holdPlaylistId?: number | null }
  | { kind: 'reject'; reason: string; companyId?: number; callId?: number }
  | { kind: 'hangup'; reason: string; companyId: number; callId: number }
  | ({ kind: 'gather' } & GatherStep);

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

export interface Attempt {
  attempt: number;
  /** The buyer dialed; null on an agent's attempt (agent_id). */
  buyer_id: number | null;
  /** The agent dialed (shared/agents/agent-calls.ts): it is released when this attempt ends. */
  agent_id?: number;
  buyer_name: string | null;
  status: 'ringing' | 'answered' | 'completed' | 'no-answer' | 'busy' | 'failed' | 'canceled';
  started_at: string;
  answered_at: string | null;
  answered_duration: number | null;
  released: boolean;
  /** The buyer's time zone, stored at the claim (shared/calls/attempt-buyer.ts); absent on older attempts. */
  time_zone?: string;
  /** The buyer's conversion fields at the claim (shared/calls/attempt-buyer.ts), unless they follow a schedule. */
  conversion?: Record<string, unknown>;
}

type Call = CallRecord & Record<string, any>;

const ENDED = new Set(['completed', 'no_answer', 'blocked', 'no_buyer', 'canceled', 'busy', 'failed']);
const MAX_SAVE_ATTEMPTS = 8;
/** Saves of one transition its claim may have refused (a few buyers' worth of claimInSave's own tries). */
const MAX_CLAIM_REFUSALS = 100;

/** Appends to the call's timeline; never fails, trims to the limits instead (call-limits.ts). */
/** Who an attempt rang, for its timeline entries: the buyer (null for an agent) and the agent, if one. */
function attemptTarget(attemptNumber: number, attempt: Attempt): Record<string, unknown> {
  return { attempt: attemptNumber, buyer_id: attempt.buyer_id, ...(attempt.agent_id !== undefined ? { agent_id: attempt.agent_id } : {}) };
}

function timeline(call: Call, at: Date, type: string, detail: Record<string, unknown> = {}): void {
  call.timeline = boundTimeline([...(Array.isArray(call.timeline) ? (call.timeline as TimelineEntry[]) : []), { ...detail, at: at.toISOString(), type }]);
}

/** The outbox messages of a call's events, as the call will be saved (docs/events.md). */
function callEvents(companyId: number, names: readonly EventName[], call: Call, at: Date): QueueMessage[] {
  return names.map((name) => {
    const id = randomUUID();
    return { kind: 'event', id, companyId, event: { id, name, companyId, occurredAt: at.toISOString(), data: callView(call) } };
  });
}

/**
 * The caller id a buyer sees: the caller's own number by default; with
 * `display_service_number_id` the number of that tracking number (one of the company's, else the
 * called one); with `display_fake_caller_id` the called tracking number, so the buyer cannot reach
 * the caller around the service.
 */
async function displayCallerId(companyId: number, buyer: Record<string, unknown>, call: Call): Promise<string | null> {
  switch (buyer.display_caller_id_type) {
    case 'display_service_number_id': {
      const chosen = typeof buyer.display_service_number_id === 'number' ? await getRecord(companyId, 'phone_numbers', buyer.display_service_number_id) : undefined;
      return typeof chosen?.number === 'string' ? chosen.number : (call.number ?? null);
    }
    case 'display_fake_caller_id':
      return call.number ?? null;
    default:
      return call.caller_number ?? null;
  }
}

function dialTarget(buyer: Record<string, unknown>, call: Call, callerId: string | null): DialTarget {
  return {
    buyerId: Number(buyer.id),
    name: typeof buyer.name === 'string' ? buyer.name : null,
    number: String(buyer.number ?? ''),
    timeoutSeconds: typeof buyer.timeout_seconds === 'number' ? buyer.timeout_seconds : 120,
    dtmfTones: typeof buyer.dtmf_tones === 'string' && buyer.dtmf_tones ? buyer.dtmf_tones : null,
    pressOneToAccept: buyer.press_one_to_accept === true,
    callerId,
    uuid: call.uuid,
    secureToken: String(call.secure_token),
  };
}

function currentAttempt(call: Call): Attempt | undefined {
  const attempts = call.attempts as Attempt[] | undefined;
  return attempts?.[attempts.length - 1];
}

/** Reads when this caller was last paid under `scope` (a buyer or a payout rule). */
async function lastPaid(companyId: number, scope: string, caller: string | null): Promise<Date | undefined> {
  if (!caller) return undefined;
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.lastConversion(companyId, scope, caller) }));
  return typeof result.Item?.paid_at === 'string' ? new Date(result.Item.paid_at) : undefined;
}

/** The duplicate history's write: this caller was paid under `scope` at `at` (none without a caller). */
function paidWrite(companyId: number, scope: string, caller: string | null, at: Date): TransactItem | undefined {
  return caller ? { Put: { TableName: tableName, Item: { ...keys.lastConversion(companyId, scope, caller), paid_at: at.toISOString() } } } : undefined;
}

async function markPaid(companyId: number, scope: string, caller: string | null, at: Date): Promise<void> {
  const write = paidWrite(companyId, scope, caller, at);
  if (write) await db.send(new PutCommand(write.Put as ConstructorParameters<typeof PutCommand>[0]));
}

/** Decides the buyer conversion of a dial (duration 0) or an answered leg; mutates `call`. */
async function convertForBuyer(companyId: number, call: Call, buyer: Record<string, unknown>, answeredDuration: number, at: Date, paid?: { at: Date | undefined }): Promise<boolean> {
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
async function applyBuyerConversion(companyId: number, call: Call, buyer: Record<string, unknown>, at: Date): Promise<void> {
  await applyCounterChange(companyId, Number(buyer.id), buyerTimeZone(buyer), at, {
    increments: { buyer_conversion: 1, revenue: call.revenue, earned_revenue: call.revenue },
  });
  await markPaid(companyId, `b${String(buyer.id)}`, call.caller_number, at);
  countMetric(METRIC.conversions);
}

/** A transition named a call that does not exist (for that company): callers answer neutrally. */
export class UnknownCallError extends Error {
  constructor(readonly companyId: number, readonly callId: number) {
    super(`No call ${callId} in company ${companyId}`);
    this.name = 'UnknownCallError';
  }
}

/** A call as read for a change (strongly consistent), and whether its company has event consumers (event-consumers.ts). */
export interface CallForChange {
  call: CallRecord;
  consumers: boolean;
}

/** The call and its company's event consumer counts in one BatchGetItem (strongly consistent); undefined when no such call. */
async function readCallForChange(companyId: number, callId: number): Promise<CallForChange | undefined> {
  const { item, consumers } = await readWithEventConsumers(companyId, callKey(companyId, callId));
  return item ? { call: storedCall(item), consumers } : undefined;
}

/** Reads a call, lets `change` decide its next state, saves it if nobody else did meanwhile. */
async function transition<T>(
  companyId: number,
  callId: number,
  change: (call: Call) => Promise<{
    result: T;
    save: boolean;
    alongside?: Array<Record<string, unknown>>;
    undo?: () => Promise<void>;
    events?: readonly EventName[];
    /** Effects of the saved change, run beside the publishing of its events (one step, not two). */
    afterSave?: () => Promise<unknown>;
    /**
     * Writes that ride in the save's transaction when their own conditions hold (a blind counter
     * update); when those fail the call is saved without them and `otherwise` runs after the save.
     */
    optional?: { writes: TransactItem[]; otherwise: () => Promise<unknown> };
    /**
     * A buyer's reservation (shared/routing/claim.ts, claimInSave), written with the save or not at
     * all. When its condition alone cancels the save, `refused` runs and the change is decided
     * again from the same read of the call (nothing was written).
     */
    claim?: { write: TransactItem; refused: (conflict: boolean) => Promise<void> };
  }>,
  at: Date = clock().now(),
  /** The call as the caller just read it (consistently, with its company's event consumers): the first try saves reading it again. */
  first?: CallForChange,
): Promise<{ result: T; call: Call; saved: boolean }> {
  let known = first;
  let refusals = 0;
  for (let attempt = 0; attempt < MAX_SAVE_ATTEMPTS; attempt++) {
    const read = known ?? (await readCallForChange(companyId, callId));
    known = undefined;
    if (!read) throw new UnknownCallError(companyId, callId);
    const stored = read.call;
    const call = structuredClone(stored) as Call;
    const decided = await change(call);
    if (!decided.save) return { result: decided.result, call, saved: false };
    const version = Number(stored.version);
    call.version = version + 1;
    call.updated_at = clock().now().toISOString();
    // The events go into the outbox in the save's own transaction: they exist exactly when the change
    // does (when the company has anything that receives them, event-consumers.ts).
    const { writes, staged } = stageMessages(companyId, callEvents(companyId, read.consumers ? (decided.events ?? []) : [], call, at), at);
    const optional = decided.optional;
    const claim = decided.claim;
    // The claim right after the optional writes, so its cancellation reason has a known place.
    const save = (withOptional: boolean) =>
      saveCall(companyId, call, version, [...(withOptional ? (optional?.writes ?? []) : []), ...(claim ? [claim.write] : []), ...(decided.alongside ?? []), ...writes], stored);
    const claimAt = (withOptional: boolean) => 1 + (withOptional && optional ? optional.writes.length : 0);
    let fellBack = false;
    let saved: boolean;
    try {
      try {
        saved = await save(true);
      } catch (error) {
        if (!optional || !cancelledByCondition(error, 1, optional.writes.length) || claimRefusal(error, claimAt(true))) throw error;
        // Only the optional writes' conditions failed (the transaction wrote nothing): save without them.
        fellBack = true;
        saved = await save(false);
      }
    } catch (error) {
      const refusal = claim ? claimRefusal(error, claimAt(!fellBack)) : undefined;
      if (!claim || !refusal) throw error;
      // The claim alone was refused: nothing was written and the call is as read; decide again.
      await claim.refused(refusal === 'conflict');
      known = read;
      // Not a lost save: claimInSave bounds its own tries (and this, a change that made a new one each time).
      if (++refusals <= MAX_CLAIM_REFUSALS) attempt--;
      continue;
    }
    if (saved) {
      await Promise.all([publishStaged(staged), decided.afterSave?.(), fellBack ? optional?.otherwise() : undefined]);
      return { result: decided.result, call, saved: true };
    }
    await decided.undo?.();
  }
  throw new Error(`Call ${callId} kept changing under this transition`);
}

/**
 * A claim riding in a transition's save (claimInSave), kept across the change's re-runs: after a
 * save refused by the claim alone, the change chooses again from the same claim (the buyer's
 * counter item read again); on the first run and after a lost save (the call may have moved on)
 * `make` makes it afresh.
 */
interface ClaimAcrossRuns {
  choose(make: () => Promise<ClaimInSave>): Promise<ClaimChoice>;
  /** The transition's `claim` for the choice made (none without a buyer). */
  inSave(chosen: ClaimChoice | undefined): { write: TransactItem; refused: (conflict: boolean) => Promise<void> } | undefined;
}

function claimAcrossRuns(): ClaimAcrossRuns {
  let claim: ClaimInSave | undefined;
  let again = false;
  return {
    async choose(make) {
      if (!again || !claim) claim = await make();
      again = false;
      return claim.choice();
    },
    inSave(chosen) {
      const write = chosen?.write;
      if (!write) return undefined;
      return {
        write,
        refused: async (conflict) => {
          again = true;
          await claim?.refused(conflict);
        },
      };
    },
  };
}

/**
 * Whether a transaction was cancelled by one of its items `from`..`from + count - 1`: its condition
 * failed, or another request was writing that item (a busy buyer's counters, claimed by other calls).
 */
function cancelledByCondition(error: unknown, from: number, count: number): boolean {
  if (!(error instanceof TransactionCanceledException)) return false;
  return (error.CancellationReasons ?? []).slice(from, from + count).some((reason) => reason.Code === 'ConditionalCheckFailed' || reason.Code === 'TransactionConflict');
}

/**
 * The instruction for a call as it stands (a retried callback gets the same answer again).
 * `known`: what the caller already read (the buyer, the offer, the recording rules), so a dial is
 * built without reading it again (shared/calls/dial-reads.ts); whatever is missing is read.
 */
async function instructionFor(companyId: number, call: Call, known?: DialKnown): Promise<CallInstruction> {
  if (call.in_progress && call.status === IVR_STATUS && call.ivr) {
    const gather = await gatherFor(companyId, call.id, call.ivr as IvrState, clock().now());
    if (gather) return { kind: 'gather', ...gather };
  }
  const attempt = currentAttempt(call);
  if (call.in_progress && attempt?.status === 'ringing') {
    if (attempt.buyer_id === null) return (await agentDialInstruction(companyId, call, attempt)) ?? { kind: 'hangup', reason: String(call.status), companyId, callId: call.id };
    const { buyer: read, offer, recordingRules, sipHeaders } = await dialInputs(companyId, (call.offer_id as number | null) ?? null, attempt.buyer_id, known);
    // A bidder is dialed at the number its bid returned (call-bids.ts).
    const buyer = dialedBuyer(read, call);
    if (buyer) {
      const [callerId, extras] = await Promise.all([displayCallerId(companyId, buyer, call), dialExtras(companyId, buyer, call, { recordingRules, sipHeaders })]);
      return { kind: 'dial', companyId, callId: call.id, attempt: attempt.attempt, target: { ...dialTarget(buyer, call, callerId), ...extras }, holdPlaylistId: holdPlaylistOf(offer) };
    }
  }
  return { kind: 'hangup', reason: String(call.status), companyId, callId: call.id };
}

/**
 * Routes a call later than its arrival (an outbound call its callee answered, an IVR answer):
 * chooses the first eligible buyer of `buyerIds` (its claim to ride in the transition's save,
 * `claims.inSave`) and makes it attempt 1, queueing the others; with none the call ends as
 * no_buyer. Mutates `call` (to be saved).
 */
async function routeFirstBuyer(companyId: number, call: Call, buyerIds: Set<number>, tokens: TokenValues, at: Date, claims: ClaimAcrossRuns, bids: BidsAcrossRuns): Promise<ClaimChoice> {
  // Bidding buyers are asked here as at an arrival, once across the change's runs (call-bids.ts).
  const claimed = await claims.choose(async () => claimInSave(companyId, await bids.buyers(companyId, call, await loadRoutingBuyers(companyId, buyerIds), tokens, at), { now: at, tokens }, serviceRandom));
  bids.record(call, (type, detail) => timeline(call, at, type, detail));
  recordFirstBuyer(call, buyerIds, claimed, at);
  return claimed;
}

/** Makes a claim's buyer the call's attempt 1 (queueing the others), or ends the call as no_buyer; mutates `call`. */
function recordFirstBuyer(call: Call, buyerIds: Set<number>, claimed: ClaimChoice, at: Date): void {
  timeline(call, at, 'routing', {
    candidates: [...buyerIds],
    chosen: claimed.buyer?.id ?? null,
    excluded: claimed.excluded.map((buyer) => ({ buyer_id: buyer.id, reason: buyer.reason })),
  });
  if (!claimed.buyer) {
    call.status = 'no_buyer';
    call.in_progress = false;
    call.ended_at = at.toISOString();
    return;
  }
  const buyer = claimed.buyer;
  call.attempts = [{ attempt: 1, buyer_id: buyer.id, buyer_name: buyer.name, status: 'ringing', started_at: at.toISOString(), answered_at: null, answered_duration: null, released: false, ...attemptBuyerFacts(buyer.record) }];
  call.queue = 'next' in claimed ? claimed.next.map((next) => next.id) : [];
  call.buyer_id = buyer.id;
  call.buyer = buyer.name;
  timeline(call, at, 'dial', { attempt: 1, buyer_id: buyer.id, number: buyer.record.number });
}

/** What a call has before anyone answered it: no buyer, no attempts, no money, no recording (fresh arrays). */
function untouchedCallFields() {
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
  // The caller's offer lead lends the call its tokens before routing (docs/leads.md); then the
  // call configuration's (visitor, SIP header and matcher tokens, docs/call-configuration.md).
  const tokens = inboundTokens(callTokens(offerLead, reservation?.tokens), inbound, { called: number.number, caller, offerId: number.offer_id });
  const leadId = reservation?.lead_id ?? offerLead?.id ?? null;
  const id = timeSortableId(at.getTime());
  let call: Call = {
    id,
    uuid: callUuid(companyId, id),
    secure_token: randomBytes(16).toString('hex'),
    carrier: incoming.carrier,
    carrier_call_id: incoming.carrierCallId,
    created_at: at.toISOString(),
    updated_at: at.toISOString(),
    user_updated_at: null,
    ended_at: null,
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

  // A call router (IVR menu) of the number or offer plays before routing (shared/call-config/ivr.ts).
  // Skipped for a blacklisted caller and for a ping's reservation that chose its buyers already.
  const router = blacklisted || reservation?.buyer_ids.length ? undefined : numberRouter;
  // The buyer is claimed in the transaction that writes the call (claimInSave): no request of its own.
  let claim: { buyerIds: Set<number>; inSave: ClaimInSave } | undefined;
  let agentId: number | undefined;
  let bidding: CallBidding | undefined;
  const stateLimits = blacklisted ? { limits: [] } : stateLimitsOfCall(inbound, { carrierState: incoming.callerState, caller, tokens, offerId: number.offer_id });
  const stateSlots = stateLimits.limits.length ? await takeStateSlots(companyId, stateLimits.limits, at) : undefined;
  if (blacklisted) {
    call.status = 'blocked';
    call.in_progress = false;
    call.ended_at = at.toISOString();
    timeline(call, at, 'blocked', { reason: 'caller is blacklisted' });
  } else if (stateSlots && !stateSlots.ok) {
    call.status = 'blocked';
    call.in_progress = false;
    call.ended_at = at.toISOString();
    timeline(call, at, 'state_limited', { state: stateLimits.state, state_call_limit_id: stateSlots.limit.id, limit: stateSlots.exceeded, value: stateSlots.limit[stateSlots.exceeded] });
  } else {
    // The live slots this call holds, given back once when it ends (finishCall), IVR included.
    if (stateSlots?.ok && stateSlots.held.length) call.state_limit_holds = stateSlots.held;
    if (router) {
      call.status = IVR_STATUS;
      call.ivr = firstIvrState(router);
      timeline(call, at, 'router', { router_id: router.id, step: 1 });
    } else {
      const buyerIds = reservation?.buyer_ids.length ? new Set(reservation.buyer_ids) : offer ? await buyerIdsOfOffer(companyId, offer, started) : new Set<number>();
      // The offer's call center agents first, buyers after (not for a ping's reserved buyers).
      agentId = reservation?.buyer_ids.length ? undefined : await routeToAgent(companyId, call, offer, buyerIds, at, (type, detail) => timeline(call, at, type, detail));
      // The buyers and counters read beside the configuration, when they were (call-start-reads.ts).
      if (agentId === undefined) {
        // Bidding buyers are asked first; their bids rank with the fixed ones (call-bids.ts).
        bidding = await bidForCall(companyId, call, await started.buyers.load(buyerIds), tokens, at, (type, detail) => timeline(call, at, type, detail), reservation?.rtb_bids);
        claim = { buyerIds, inSave: claimInSave(companyId, bidding.buyers, { now: at, tokens }, serviceRandom) };
      }
    }
  }
  const [{ call: written, claimed, onDial, created, staged }] = await Promise.all([writeNewCall(companyId, call, claim, started.eventConsumers, at), bidding?.persist()]);
  call = written;
  if (!created) {
    // A retry of this webhook got there first (our claim was not written with it): give back what
    // else this call held and answer as it did.
    if (agentId !== undefined) await agentLegEnded(companyId, agentId, call.id, at, 0);
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

/** The buyer picked up (counted once per attempt). */
export async function buyerAnswered(companyId: number, callId: number, attemptNumber: number, at: Date): Promise<void> {
  await transition(companyId, callId, async (call) => {
    const attempt = (call.attempts as Attempt[])[attemptNumber - 1];
    // A late or replayed callback about an ended call changes nothing.
    if (!call.in_progress || !attempt || attempt.status !== 'ringing') return { result: undefined, save: false };
    attempt.status = 'answered';
    attempt.answered_at = at.toISOString();
    call.status = 'in_progress';
    call.buyer_id = attempt.buyer_id;
    call.buyer = attempt.buyer_name;
    timeline(call, at, 'answered', { ...attemptTarget(attemptNumber, attempt) });
    const buyerId = attempt.buyer_id;
    if (buyerId === null) return { result: buyerId, save: true, events: ['call_forwarded'] };
    // The connection counts in the save's own transaction (a retry saves nothing, so counts
    // nothing), in the buyer's zone as the attempt holds it: no read of the buyer or its counters.
    const connection = { increments: { connection: 1 }, existingOnly: true };
    const zone = typeof attempt.time_zone === 'string' && attempt.time_zone ? attempt.time_zone : undefined;
    if (zone) {
      return {
        result: buyerId,
        save: true,
        events: ['call_forwarded'],
        // A new period began since the claim (or the counters are gone): counted after the save instead.
        optional: { writes: [blindCounterWrite(companyId, buyerId, zone, at, connection)], otherwise: () => applyCounterChange(companyId, buyerId, zone, at, connection) },
      };
    }
    // An attempt claimed before it carried the zone: the buyer is read for it, after the save.
    const counted = async () => {
      const buyerZone = await attemptBuyerZone(companyId, attempt);
      if (buyerZone) await countOnBuyer(companyId, buyerId, buyerZone, at, { connection: true });
    };
    return { result: buyerId, save: true, events: ['call_forwarded'], afterSave: counted };
  }, at);
}

export type DialOutcome = 'completed' | 'answered' | 'no-answer' | 'busy' | 'failed' | 'canceled';

/**
 * A dial ended: after a conversation (`completed` with the answered seconds) the call is done;
 * otherwise the next eligible buyer of the call's queue is claimed and dialed, or the call ends.
 */
export async function dialResult(companyId: number, callId: number, attemptNumber: number, outcome: DialOutcome, answeredDuration: number, at: Date): Promise<CallInstruction> {
  const talked = (outcome === 'completed' || outcome === 'answered') && answeredDuration > 0;
  let claimedNext: ClaimChoice | undefined;
  let nextDial: DialKnown | undefined;
  // The next buyer is claimed in the save's transaction (claimInSave).
  const claims = claimAcrossRuns();
  const { call, saved } = await transition(companyId, callId, async (call) => {
    const attempts = call.attempts as Attempt[];
    const attempt = attempts[attemptNumber - 1];
    if (!call.in_progress || !attempt || attempt.status === 'completed' || attempt.status === 'no-answer' || attempt.status === 'busy' || attempt.status === 'failed' || attempt.status === 'canceled') {
      return { result: { answeredBefore: true, buyerId: undefined as number | null | undefined, agentId: undefined as number | undefined, converted: false }, save: false };
    }
    const answeredBefore = attempt.status === 'answered';
    attempt.released = true;
    // The buyer as the attempt carries it (its zone; its terms when claimed, if the talk may
    // convert), else read; and, when the talk may convert, when this caller was last paid by it:
    // side by side.
    const mayConvert = talked && attempt.buyer_id !== null && !call.buyer_converted;
    const carried = attemptCarriedBuyer(attempt, mayConvert);
    // Terms known from the attempt without a price or a duplicate timeframe need no history.
    const carriedTerms = carried && mayConvert ? conversionTerms(carried, at) : undefined;
    const needsHistory = mayConvert && (!carriedTerms || (carriedTerms.revenue !== null && carriedTerms.duplicateTimeframe !== null));
    const [buyer, paidAt] = await Promise.all([
      attempt.buyer_id === null || carried ? carried : getRecord(companyId, 'buyers', attempt.buyer_id),
      needsHistory ? lastPaid(companyId, `b${String(attempt.buyer_id)}`, call.caller_number) : undefined,
    ]);
    let converted = false;
    if (talked) {
      attempt.status = 'completed';
      attempt.answered_duration = answeredDuration;
      attempt.answered_at ??= at.toISOString();
      call.answered_duration = answeredDuration;
      call.buyer_id = attempt.buyer_id;
      call.buyer = attempt.buyer_name;
      call.status = 'completed';
      timeline(call, at, 'dial_ended', { ...attemptTarget(attemptNumber, attempt), outcome: 'completed', answered_duration: answeredDuration });
      if (buyer) converted = await convertForBuyer(companyId, call, buyer, answeredDuration, at, mayConvert ? { at: paidAt } : undefined);
    } else {
      attempt.status = outcome === 'completed' || outcome === 'answered' ? 'no-answer' : outcome;
      timeline(call, at, 'dial_ended', { ...attemptTarget(attemptNumber, attempt), outcome: attempt.status });
      if (outcome !== 'canceled' && call.in_progress) {
        const remaining = new Set((call.queue as number[]) ?? []);
        // The buyers to claim from and what the next buyer's dial needs besides the buyer (offer,
        // recording rules, SIP headers), in one read rather than two or after the save.
        claimedNext = remaining.size
          ? await claims.choose(async () => {
              const reads = await fallThroughReads(companyId, (call.offer_id as number | null) ?? null, remaining);
              nextDial = reads.dial;
              return claimInSave(companyId, buyersWithCallBids(reads.buyers, call), { now: at, tokens: (call.data ?? {}) as TokenValues }, serviceRandom);
            })
          : undefined;
        if (claimedNext?.buyer) {
          const next = claimedNext.buyer;
          attempts.push({ attempt: attempts.length + 1, buyer_id: next.id, buyer_name: next.name, status: 'ringing', started_at: at.toISOString(), answered_at: null, answered_duration: null, released: false, ...attemptBuyerFacts(next.record) });
          call.queue = 'next' in claimedNext ? claimedNext.next.map((buyerNext) => buyerNext.id) : [];
          call.buyer_id = next.id;
          call.buyer = next.name;
          // A call an agent did not take names the buyer it fell through to, not the agent.
          if (attempt.agent_id !== undefined) Object.assign(call, { agent_id: null, agent: null });
          call.status = 'ringing';
          timeline(call, at, 'dial', { attempt: attempts.length, buyer_id: next.id, number: next.record.number });
        } else {
          call.status = 'no_answer';
          call.queue = [];
          if (claimedNext) timeline(call, at, 'routing', { chosen: null, excluded: claimedNext.excluded.map((b) => ({ buyer_id: b.id, reason: b.reason })) });
        }
      } else if (outcome === 'canceled') {
        call.status = 'canceled';
      }
    }
    const events: EventName[] = [];
    if (talked && !answeredBefore) events.push('call_forwarded');
    if (claimedNext?.buyer) events.push('call_ringing');
    const leg = attempt.buyer_id;
    const change = buyer && leg !== null ? callCountsChange({ release: true, connection: talked && !answeredBefore, conversionRevenue: converted ? Number(call.revenue ?? 0) : undefined }) : undefined;
    // The buyer's counts and the duplicate history ride in the save's transaction: exactly once
    // with the save (a retried webhook saves nothing, so counts nothing). Counts whose blind
    // condition fails (a new period since the claim) are applied after the save instead.
    const paid = converted && leg !== null ? paidWrite(companyId, `b${String(leg)}`, call.caller_number, at) : undefined;
    const ended = { agentId: attempt.agent_id, converted };
    return {
      result: { answeredBefore, buyerId: attempt.buyer_id, agentId: attempt.agent_id, converted },
      save: true,
      events,
      alongside: paid ? [paid] : [],
      ...(change && buyer && leg !== null ? { optional: { writes: [blindCounterWrite(companyId, leg, buyerTimeZone(buyer), at, change)], otherwise: () => applyCounterChange(companyId, leg, buyerTimeZone(buyer), at, change) } } : {}),
      // The finished leg's effects, beside the publishing of the events (one step, not two).
      afterSave: () => endedLegEffects(companyId, callId, ended, talked ? answeredDuration : 0, at),
      claim: claims.inSave(claimedNext),
      // A lost save wrote no claim: nothing to give back.
      undo: async () => {
        claimedNext = undefined;
      },
    };
  }, at);
  if (!saved) return instructionFor(companyId, call);

  const attempts = call.attempts as Attempt[];
  const newest = attempts[attempts.length - 1]!;
  // A fall-through to a bidder is a win of its bid too.
  if (claimedNext?.buyer && claimedNext.buyer.id === newest.buyer_id) await countCallWin(companyId, call, claimedNext.buyer.id, at);
  if (newest.attempt > attemptNumber && newest.status === 'ringing' && newest.buyer_id !== null) {
    // The buyer claimed for it was read by the claim.
    const next = claimedNext?.buyer?.id === newest.buyer_id ? claimedNext.buyer.record : await getRecord(companyId, 'buyers', newest.buyer_id);
    if (next && conversionTerms(next, at).duration === 0) {
      const onDial = await transition(companyId, callId, async (fresh) => ({ result: await convertForBuyer(companyId, fresh, next, 0, at), save: true }), at);
      if (onDial.result) await applyBuyerConversion(companyId, onDial.call, next, at);
    }
  }
  // The next buyer's dial from the claim's copy of it (read by the claim), not a second read.
  return instructionFor(companyId, call, claimedNext?.buyer?.id === newest.buyer_id ? { ...nextDial, buyer: claimedNext.buyer.record } : nextDial);
}

/**
 * Effects of a saved dial end besides those in its save (the buyer's counts, the duplicate
 * history): the finished leg frees its agent; a conversion is counted in the metrics.
 */
async function endedLegEffects(companyId: number, callId: number, ended: { agentId: number | undefined; converted: boolean }, talk: number, at: Date): Promise<void> {
  if (ended.agentId !== undefined) await agentLegEnded(companyId, ended.agentId, callId, at, talk);
  if (ended.converted) countMetric(METRIC.conversions);
}

/** What the reports add up of a call (its rollup cells and their figures). */
export function callFigures(call: Call): CallFigures {
  return {
    created_at: String(call.created_at),
    offer_id: (call.offer_id as number | null) ?? null,
    // Reports book a call under the buyer that paid for it (a buyer converting on dial pays even
    // when another buyer answers), else the buyer that took it.
    buyer_id: ((call.converted_buyer_id ?? call.buyer_id) as number | null) ?? null,
    traffic_source_id: (call.traffic_source_id as number | null) ?? null,
    status: String(call.status),
    buyer_converted: call.buyer_converted === true,
    offer_converted: call.offer_converted === true,
    revenue: Number(call.revenue ?? 0),
    payout: Number(call.payout ?? 0),
    answered_duration: Number(call.answered_duration ?? 0),
    total_duration: Number(call.total_duration ?? 0),
  };
}

/** Rollup writes for a call moving from `before` (not yet counted: undefined) to `after`. */
export function rollupWrites(companyId: number, before: CallFigures | undefined, after: CallFigures): TransactItem[] {
  return rollupChanges(before, after).map(({ cell, delta }) =>
    rollupCellUpdate(keys.callRollup(companyId, cell.day, cell.hour, cell.category, cell.value), delta, { day: cell.day, hour: cell.hour, category: cell.category, value: cell.value }),
  );
}

export interface CallEnding {
  /** The caller's whole call in seconds, as the carrier reports it. */
  totalDuration: number;
  at: Date;
  /** At most this much talk time is booked (a call ended without the carrier's word on it). */
  maxTalkSeconds?: number;
  /** Why the call ended when it was not the carrier's final callback, for the timeline. */
  reason?: string;
  /** The carrier's final CallStatus (busy, no-answer, failed...): how an unanswered outbound call ended. */
  carrierStatus?: string;
  /** The call as the caller just read it (consistently, with its company's event consumers), so it is not read twice. */
  read?: CallForChange;
  /** The company's offer_conversions as the caller read them (beside the call), else read here. */
  offerConversions?: readonly StoredRecord[];
}

/** An outbound call the callee never answered ends as the carrier says: busy, failed, canceled, else no answer. */
const UNANSWERED: Record<string, string> = { busy: 'busy', failed: 'failed', canceled: 'canceled' };

/**
 * The call is over (the carrier's final status, or the stale-call sweeper when that was lost):
 * release whatever it still holds, decide the traffic source payout, and count it in the rollups
 * in the same write that ends it. Once only: true when this call ended it.
 */
export async function finishCall(companyId: number, callId: number, ending: CallEnding): Promise<boolean> {
  const at = ending.at;
  let held: { id: number; zone: string | undefined } | undefined;
  let heldAgent: { id: number; talk: number } | undefined;
  let paidRule: number | undefined;
  let stateHolds: number[] = [];
  const { saved } = await transition(companyId, callId, async (call) => {
    if (call.rolled_up) return { result: undefined, save: false };
    // State call limit slots (docs/call-configuration.md): released with the save that ends the call.
    stateHolds = Array.isArray(call.state_limit_holds) ? (call.state_limit_holds as number[]) : [];
    // Emptied only where it held slots: a call that held none is not given the attribute (its item stays small).
    if (stateHolds.length) call.state_limit_holds = [];
    const attempt = currentAttempt(call);
    held = attempt && !attempt.released && attempt.buyer_id !== null ? { id: attempt.buyer_id, zone: typeof attempt.time_zone === 'string' ? attempt.time_zone : undefined } : undefined;
    heldAgent = undefined;
    if (attempt && !attempt.released) {
      attempt.released = true;
      if (attempt.status === 'answered' && attempt.answered_at) {
        attempt.status = 'completed';
        attempt.answered_duration = Math.min(ending.maxTalkSeconds ?? Infinity, Math.max(0, Math.round((at.getTime() - Date.parse(attempt.answered_at)) / 1000)));
        call.answered_duration = attempt.answered_duration;
        call.status = 'completed';
      } else if (attempt.status === 'ringing') {
        attempt.status = 'canceled';
        call.status = 'canceled';
      }
      if (attempt.agent_id !== undefined) heldAgent = { id: attempt.agent_id, talk: attempt.answered_duration ?? 0 };
    }
    if (call.status === 'dialing') call.status = UNANSWERED[ending.carrierStatus ?? ''] ?? 'no_answer';
    // The caller hung up in an IVR menu, before any buyer was dialed.
    if (call.status === IVR_STATUS) call.status = 'canceled';
    if (!ENDED.has(String(call.status))) call.status = 'completed';
    call.in_progress = false;
    call.ended_at ??= at.toISOString();
    call.total_duration = Math.max(Number(call.total_duration ?? 0), ending.totalDuration);
    call.queue = [];
    // Traffic source payout, from the offer's payout rules.
    paidRule = undefined;
    if (call.offer_id !== null && !call.offer_converted) {
      const rules = (ending.offerConversions ?? (await queryAllRecords(companyId, 'offer_conversions'))).filter((rule) => rule.offer_id === call.offer_id) as OfferConversionRule[];
      // One GetItem per rule of the offer (usually one or two), all at once.
      const paidAt = await Promise.all(rules.map((rule) => lastPaid(companyId, `oc${rule.id}`, call.caller_number)));
      const lastPaidAt = new Map<number, Date>();
      rules.forEach((rule, index) => {
        if (paidAt[index]) lastPaidAt.set(rule.id, paidAt[index]);
      });
      const payout = decideOfferConversion({ rules, tokens: (call.data ?? {}) as TokenValues, answeredDuration: Number(call.answered_duration ?? 0), buyerRevenue: Number(call.revenue ?? 0), lastPaidAt, at });
      if (payout.converted) {
        call.offer_converted = true;
        call.payout = payout.payout;
        call.traffic_source_payout = payout.payout;
        call.offer_conversion_id = payout.ruleId;
        paidRule = payout.ruleId;
        timeline(call, at, 'traffic_source_payout', { offer_conversion_id: payout.ruleId, payout: payout.payout });
      }
    }
    call.profit = cents(Number(call.revenue ?? 0) - Number(call.payout ?? 0));
    call.rolled_up = true;
    timeline(call, at, 'ended', { status: call.status, total_duration: call.total_duration, ...(ending.reason ? { reason: ending.reason } : {}) });
    // The releases and the duplicate history are independent of one another and of the events:
    // side by side, once the call is saved ended.
    const caller = call.caller_number;
    // A held buyer whose zone the attempt carries is released inside the ending transaction (blind;
    // after it when its condition fails), else after the save.
    const heldBuyer = held;
    const releaseInSave = heldBuyer?.zone ? { id: heldBuyer.id, zone: heldBuyer.zone } : undefined;
    const afterSave = () =>
      Promise.all([
        stateHolds.length ? releaseStateSlots(companyId, stateHolds) : undefined,
        heldAgent ? agentLegEnded(companyId, heldAgent.id, callId, at, heldAgent.talk) : undefined,
        heldBuyer && !releaseInSave ? releaseHeld(companyId, heldBuyer.id, heldBuyer.zone, at) : undefined,
        paidRule !== undefined ? markPaid(companyId, `oc${paidRule}`, caller, at) : undefined,
        // Off the ringing path: the lead learns of its call (and of a conversion) when the call ends.
        typeof call.lead_id === 'number' ? leadCallEnded(companyId, call.lead_id, call.id, call.buyer_converted === true, at) : undefined,
      ]);
    const release = callCountsChange({ release: true })!;
    return {
      result: undefined,
      save: true,
      alongside: rollupWrites(companyId, undefined, callFigures(call)),
      events: ['call_ended'],
      afterSave,
      ...(releaseInSave
        ? {
            optional: {
              writes: [blindCounterWrite(companyId, releaseInSave.id, releaseInSave.zone, at, release)],
              otherwise: () => applyCounterChange(companyId, releaseInSave.id, releaseInSave.zone, at, release),
            },
          }
        : {}),
    };
  }, at, ending.read);
  if (!saved) return false;
  countMetric(METRIC.callsEnded);
  return true;
}

/** Gives back the concurrent call an ended attempt still held (its zone from the attempt, else the buyer). */
async function releaseHeld(companyId: number, buyerId: number, zone: string | undefined, at: Date): Promise<void> {
  const timeZone = await attemptBuyerZone(companyId, { buyer_id: buyerId, time_zone: zone });
  if (timeZone) await countOnBuyer(companyId, buyerId, timeZone, at, { release: true });
}

/**
 * Ends a call whose final carrier callback never came (shared/calls/stale-calls.ts decides which)
 * exactly as that callback would have, with durations bounded by the longest possible call.
 */
export function endStaleCall(companyId: number, call: LiveCallFacts, now: Date): Promise<boolean> {
  return finishCall(companyId, call.id, {
    totalDuration: staleCallDuration(call, now),
    at: now,
    maxTalkSeconds: MAX_TALK_SECONDS,
    reason: 'no final callback from the carrier (stale-call sweeper)',
  });
}

/**
 * Merges `data` from an API request into the call's data hash (keys given win; the others stay).
 * A merge past the data limits is a 422 naming `data`, thrown before anything is saved.
 */
function mergeData(call: Call, data: unknown): void {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return;
  const merged = { ...(call.data && typeof call.data === 'object' ? call.data : {}), ...data } as Record<string, unknown>;
  const problems = dataProblems(merged);
  if (problems.length) throw new ValidationError({ data: problems.map((problem) => `${problem} with the call's existing data`) });
  call.data = merged;
}

/**
 * A change made through the API (revenue, payout, conversion flags, contact fields): saved with
 * the rollup difference in the same write; buyer counters follow revenue and conversion changes.
 * `changes.data` is merged into the call's data (inside the versioned save, so a concurrent
 * merge is not lost), every other field replaces its value.
 */
export async function adjustCall(companyId: number, callId: number, changes: Record<string, unknown>, at: Date): Promise<Call> {
  let before: CallFigures | undefined;
  const { call } = await transition(companyId, callId, async (call) => {
    before = call.rolled_up ? callFigures(call) : undefined;
    const { data, ...fields } = changes;
    Object.assign(call, fields);
    if ('data' in changes) mergeData(call, data);
    if ('revenue' in changes) {
      call.buyer_revenue = call.revenue;
      // A payout that is a share of the buyer revenue follows it, unless a payout is set too.
      if (!('payout' in changes) && call.offer_converted && typeof call.offer_conversion_id === 'number') {
        const rule = await getRecord(companyId, 'offer_conversions', call.offer_conversion_id);
        if (rule?.payout_type === 'buyer_conversion_percent') {
          const percent = Number(rule.revenue_percentage ?? rule.payout ?? 0);
          call.payout = cents((Number(call.revenue ?? 0) * percent) / 100);
        }
      }
    }
    if ('payout' in changes || 'revenue' in changes) call.traffic_source_payout = call.payout;
    call.profit = cents(Number(call.revenue ?? 0) - Number(call.payout ?? 0));
    call.user_updated_at = at.toISOString();
    timeline(call, at, 'updated', { fields: Object.keys(changes) });
    return { result: undefined, save: true, alongside: before ? rollupWrites(companyId, before, callFigures(call)) : [], events: ['call_changed'] };
  }, at);
  const buyerId = (call.converted_buyer_id ?? call.buyer_id) as number | null;
  if (before && buyerId !== null) {
    const revenueDelta = cents(Number(call.revenue ?? 0) - before.revenue);
    const conversionDelta = (call.buyer_converted ? 1 : 0) - (before.buyer_converted ? 1 : 0);
    if (revenueDelta !== 0 || conversionDelta !== 0) {
      const buyer = await getRecord(companyId, 'buyers', buyerId);
      if (buyer) {
        await applyCounterChange(companyId, buyerId, buyerTimeZone(buyer), at, {
          increments: { revenue: revenueDelta, earned_revenue: revenueDelta, buyer_conversion: conversionDelta },
        });
      }
    }
  }
  return call;
}

/**
 * Records an event on a call's timeline (key presses, hang-up requests), merging `data` into the
 * call's data; `messages` (a key press's webhook) go to the outbox in the same save.
 */
export async function recordOnTimeline(companyId: number, callId: number, type: string, detail: Record<string, unknown>, at: Date, data?: Record<string, unknown>, messages: readonly QueueMessage[] = []): Promise<Call> {
  const outbox = stageMessages(companyId, messages, at);
  const { call } = await transition(companyId, callId, async (call) => {
    timeline(call, at, type, detail);
    if (data) mergeData(call, data);
    return { result: undefined, save: true, alongside: outbox.writes };
  }, at);
  await publishStaged(outbox.staged);
  return call;
}

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
  const id = timeSortableId(at.getTime());
  const call: Call = {
    id,
    uuid: callUuid(companyId, id),
    secure_token: randomBytes(16).toString('hex'),
    carrier: outbound.carrier,
    carrier_call_id: outbound.carrierCallId,
    direction: 'outbound',
    created_at: at.toISOString(),
    updated_at: at.toISOString(),
    user_updated_at: null,
    ended_at: null,
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

/** The save of a call routed to its first buyer (`call_ringing`), its claim riding in it (a lost save wrote none). */
function ringingSave(claimed: ClaimChoice, claims: ClaimAcrossRuns) {
  return { result: undefined, save: true, events: ['call_ringing'] as EventName[], claim: claims.inSave(claimed) };
}

/**
 * After a call was routed later than its arrival (an outbound callee answered, an IVR answer):
 * an ended call is finished, a buyer converting on dial is paid, and the call gets its instruction.
 */
async function afterRouting(companyId: number, call: Call, saved: boolean, claimed: ClaimChoice | undefined, at: Date): Promise<CallInstruction> {
  if (!saved) return instructionFor(companyId, call);
  if (!call.in_progress) {
    await finishCall(companyId, call.id, { totalDuration: 0, at });
    return { kind: 'hangup', reason: String(call.status), companyId, callId: call.id };
  }
  const buyer = claimed?.buyer;
  await countCallWin(companyId, call, buyer?.id, at);
  if (buyer && conversionTerms(buyer.record, at).duration === 0) {
    const onDial = await transition(companyId, call.id, async (fresh) => ({ result: await convertForBuyer(companyId, fresh, buyer.record, 0, at), save: true }), at);
    if (onDial.result) await applyBuyerConversion(companyId, onDial.call, buyer.record, at);
  }
  return instructionFor(companyId, call, { buyer: claimed?.buyer?.record });
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
      call.status = 'blocked';
      call.in_progress = false;
      call.ended_at = at.toISOString();
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

/**
 * The carrier's recording callback: stores `recording_url` and `has_recording` on the call
 * (once; a retried callback with the same URL changes nothing). True when this saved it.
 */
export async function recordingReady(companyId: number, callId: number, recordingUrl: string, at: Date): Promise<boolean> {
  const { saved } = await transition(companyId, callId, async (call) => {
    if (call.recording_url === recordingUrl) return { result: undefined, save: false };
    call.recording_url = recordingUrl;
    call.has_recording = true;
    timeline(call, at, 'recording', { recording_url: recordingUrl });
    return { result: undefined, save: true, events: ['call_changed'] };
  }, at);
  return saved;
}

/** A change of a call's transcription (shared/call-config/transcription-jobs.ts); `tags` are added to the call's. */
export interface TranscriptionChange {
  status: 'in_progress' | 'completed' | 'failed';
  transcript?: string | null;
  keywordGroupIds?: number[];
  tags?: string[];
}

/**
 * The transcription of a call's recording started, finished or failed: its fields, a
 * `transcription` timeline entry and `call_changed`, in one versioned save. Not a user's change
 * (no user_updated_at); a repeated settle with the same values saves nothing.
 */
export async function transcriptionChanged(companyId: number, callId: number, change: TranscriptionChange, at: Date): Promise<boolean> {
  const { saved } = await transition(companyId, callId, async (call) => {
    const earlier = Array.isArray(call.tags) ? (call.tags as string[]) : [];
    const fields: Record<string, unknown> = { transcription_status: change.status };
    if (change.transcript !== undefined) fields.transcription = change.transcript;
    if (change.keywordGroupIds) fields.transcription_keyword_group_ids = change.keywordGroupIds;
    if (change.tags) fields.tags = [...new Set([...earlier, ...change.tags])];
    if (Object.entries(fields).every(([key, value]) => JSON.stringify(call[key] ?? null) === JSON.stringify(value))) return { result: undefined, save: false };
    Object.assign(call, fields);
    timeline(call, at, 'transcription', { status: change.status });
    return { result: undefined, save: true, events: ['call_changed'] };
  }, at);
  return saved;
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
      call.status = 'canceled';
      call.in_progress = false;
      call.ended_at = at.toISOString();
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
