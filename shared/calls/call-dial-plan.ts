import { clock } from '../adapters/clock.js';
import { dialExtras } from '../call-config/dial-extras.js';
import { gatherFor, IVR_STATUS, type GatherStep, type IvrState } from '../call-config/ivr.js';
import { getRecord } from '../db/records.js';
import { dialedBuyer } from './call-bids.js';
import { currentAttempt, type Call } from './call-states.js';
import { firstTargets, type DialTarget } from './call-targets.js';
import { dialInputs, holdPlaylistOf, type DialKnown } from './dial-reads.js';

/**
 * The dial plan: what the carrier is told to do with a call as it stands (dial a buyer or an
 * agent, play a menu, hang up, reject), in carrier-neutral terms the carrier adapters translate.
 */
export type CallInstruction =
  | { kind: 'dial'; companyId: number; callId: number; attempt: number; target: DialTarget; /** The offer's hold playlist when known (null: none); undefined: read it (call-sounds.ts). */ holdPlaylistId?: number | null }
  | { kind: 'reject'; reason: string; companyId?: number; callId?: number }
  | { kind: 'hangup'; reason: string; companyId: number; callId: number }
  | ({ kind: 'gather' } & GatherStep);

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

/**
 * The instruction for a call as it stands (a retried callback gets the same answer again).
 * `known`: what the caller already read (the buyer, the offer, the recording rules), so a dial is
 * built without reading it again (shared/calls/dial-reads.ts); whatever is missing is read.
 */
export async function instructionFor(companyId: number, call: Call, known?: DialKnown): Promise<CallInstruction> {
  if (call.in_progress && call.status === IVR_STATUS && call.ivr) {
    const gather = await gatherFor(companyId, call.id, call.ivr as IvrState, clock().now());
    if (gather) return { kind: 'gather', ...gather };
  }
  const attempt = currentAttempt(call);
  if (call.in_progress && attempt?.status === 'ringing') {
    if (attempt.buyer_id === null) {
      // A target before buyers (an agent, call-targets.ts).
      const target = await firstTargets.dialTarget(companyId, call, attempt);
      return target ? { kind: 'dial', companyId, callId: call.id, attempt: attempt.attempt, target } : { kind: 'hangup', reason: String(call.status), companyId, callId: call.id };
    }
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
