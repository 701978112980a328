import { machineAnswered } from '../../shared/call-config/amd-flows.js';
import { whisperSounds, withHoldSounds } from '../../shared/call-config/call-sounds.js';
import { buyerAnswered, dialResult, outboundAnswered, recordingReady, startCall, UnknownCallError, type DialOutcome } from '../../shared/calls/call-flow.js';
import { recordingStored } from '../../shared/call-config/recording-effects.js';
import { sipHeaderFields } from '../../shared/call-config/inbound-tokens.js';
import { isHttpUrl } from '../../shared/http/param-schemas.js';
import { findCallByCarrierId, getCall } from '../../shared/calls/call-store.js';
import { finishCarrierCall } from '../../shared/calls/carrier-call-end.js';
import type { ApiResponse, Operation, OperationRequest } from '../../shared/http/request.js';
import { callbackIds, carrierCallId, secondsField, textField, type CallbackIds } from '../../shared/voice/callback-fields.js';
import { EMPTY_TWIML, HANGUP_TWIML, sayThenHangupTwiml, twimlFor, whisperTwiml } from '../../shared/voice/twiml.js';

/**
 * The Twilio-compatible voice webhooks (Twilio, SignalWire, Telnyx TeXML): each turns the
 * carrier's form fields into a step of the call state machine and its answer into TwiML.
 *
 * A callback that names no live call of the company (unknown or garbage ids, another company's
 * call, an ended call, an unusable CallSid) is answered 200 with neutral TwiML: `<Hangup/>` where
 * the answer steers a leg, the empty `<Response/>` for status callbacks whose answer the carrier
 * ignores. Never a 500: the carrier would retry and play its error message to a caller.
 */
export function xml(body: string): { kind: 'raw'; response: ApiResponse } {
  return { kind: 'raw', response: { statusCode: 200, headers: { 'content-type': 'text/xml; charset=utf-8' }, body } };
}

/** Where the voice routes live, as the carrier reached this one. */
export function voiceBase(request: OperationRequest): string {
  return request.url.replace(/\/[a-z_]+(\?.*)?$/, '');
}

/** Runs a step of the state machine; a call that does not exist gets `neutral` instead. */
export async function orNeutral(step: () => Promise<string>, neutral: string): Promise<string> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof UnknownCallError) return neutral;
    throw error;
  }
}

/** Is the call the callback URL names in progress (for the callbacks that only read it)? */
async function isLive(ids: CallbackIds | undefined): Promise<boolean> {
  if (!ids) return false;
  const call = await getCall(ids.companyId, ids.callId);
  return call?.in_progress === true;
}

/** `incoming`: a call reached a tracking number. */
export const incoming: Operation = async (request) => {
  const callSid = carrierCallId(request.params.CallSid);
  if (!callSid) return xml(HANGUP_TWIML);
  const instruction = await startCall({
    carrier: 'twilio',
    carrierCallId: callSid,
    from: textField(request.params, 'From'),
    to: textField(request.params, 'To'),
    callerCity: textField(request.params, 'FromCity') || undefined,
    callerState: textField(request.params, 'FromState') || undefined,
    callerCountry: textField(request.params, 'FromCountry') || undefined,
    sipHeaders: sipHeaderFields(request.params),
    at: request.now,
  });
  return xml(await withHoldSounds(instruction, twimlFor(instruction, { base: voiceBase(request) }), request.now));
};

const DIAL_OUTCOMES = new Set(['completed', 'answered', 'no-answer', 'busy', 'failed', 'canceled']);

/** `dial_action`: a dial ended; go on to the next buyer or end. */
export const dialAction: Operation = async (request) => {
  const ids = callbackIds(request.params);
  if (!ids) return xml(HANGUP_TWIML);
  const status = textField(request.params, 'DialCallStatus');
  const outcome = (DIAL_OUTCOMES.has(status) ? status : 'failed') as DialOutcome;
  const duration = secondsField(request.params, 'DialCallDuration');
  return xml(
    await orNeutral(
      async () => {
        const next = await dialResult(ids.companyId, ids.callId, ids.attempt, outcome, duration, request.now);
        return withHoldSounds(next, twimlFor(next, { base: voiceBase(request) }), request.now);
      },
      HANGUP_TWIML,
    ),
  );
};

/** `dial_status`: the buyer's leg was answered (the carrier ignores the answer). */
export const dialStatus: Operation = async (request) => {
  const ids = callbackIds(request.params);
  const status = textField(request.params, 'CallStatus');
  if (ids && (status === 'in-progress' || status === 'answered')) {
    return xml(await orNeutral(async () => (await buyerAnswered(ids.companyId, ids.callId, ids.attempt, request.now), EMPTY_TWIML), EMPTY_TWIML));
  }
  return xml(EMPTY_TWIML);
};

const FINAL = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled']);

/** `status`: the caller's call changed status; a final one ends the call (once). */
export const callStatus: Operation = async (request) => {
  const callSid = carrierCallId(request.params.CallSid);
  if (callSid && FINAL.has(textField(request.params, 'CallStatus'))) {
    await finishCarrierCall('twilio', callSid, { totalDuration: secondsField(request.params, 'CallDuration'), at: request.now, carrierStatus: textField(request.params, 'CallStatus') });
  }
  return xml(EMPTY_TWIML);
};

/** `whisper`: asks a buyer that must press 1 to accept; hangs up on them when the call is gone. */
export const whisper: Operation = async (request) => {
  const ids = callbackIds(request.params);
  if (!(await isLive(ids))) return xml(HANGUP_TWIML);
  const url = request.url.replace('/whisper?', '/whisper_result?');
  return xml(whisperTwiml(url, await whisperSounds(ids!.companyId, ids!.callId, request.now)));
};

/** `whisper_result`: 1 connects the caller to a live call; anything else declines it for this buyer. */
export const whisperResult: Operation = async (request) => {
  if (textField(request.params, 'Digits') !== '1') return xml(HANGUP_TWIML);
  return xml((await isLive(callbackIds(request.params))) ? EMPTY_TWIML : HANGUP_TWIML);
};

/** What the callee of an outbound call hears when no buyer can take it. */
export const NO_BUYER_MESSAGE = 'Sorry, nobody is available to take your call right now. Goodbye.';

/**
 * `outbound_answer`: the callee of an outbound call (a lead's dial) answered; the carrier asks
 * what to do. Found by the carrier's call id (the service recorded it when the carrier accepted
 * the call), then routed like an inbound call: a Dial to the chosen buyer, or a message and a
 * hang-up when no buyer can take it.
 */
export const outboundAnswer: Operation = async (request) => {
  const callSid = carrierCallId(request.params.CallSid);
  const found = callSid ? await findCallByCarrierId('twilio', callSid) : undefined;
  if (!found) return xml(HANGUP_TWIML);
  // A machine answered: the offer's answering machine flow, not a buyer.
  const machine = await machineAnswered(found.companyId, found.call, textField(request.params, 'AnsweredBy'), request.now);
  if (machine) return xml(machine);
  const instruction = await orNeutral(async () => {
    const next = await outboundAnswered(found.companyId, found.call.id, request.now);
    if (next.kind === 'hangup' && next.reason === 'no_buyer') return sayThenHangupTwiml(NO_BUYER_MESSAGE);
    return withHoldSounds(next, twimlFor(next, { base: voiceBase(request) }), request.now);
  }, HANGUP_TWIML);
  return xml(instruction);
};

/**
 * `recording`: the recording of a dial a call_recording_rules entry asked for is ready. Stores
 * `recording_url` and `has_recording` on the call (a retry changes nothing), then what follows a
 * recording (transcription) runs. Anything that names no call, or no usable URL, is ignored.
 */
export const recording: Operation = async (request) => {
  const ids = callbackIds(request.params);
  const url = textField(request.params, 'RecordingUrl', 1000);
  const status = textField(request.params, 'RecordingStatus');
  if (!ids || !url || !isHttpUrl(url) || (status && status !== 'completed')) return xml(EMPTY_TWIML);
  return xml(
    await orNeutral(async () => {
      if (await recordingReady(ids.companyId, ids.callId, url, request.now)) await recordingStored(ids.companyId, ids.callId, url, request.now);
      return EMPTY_TWIML;
    }, EMPTY_TWIML),
  );
};
