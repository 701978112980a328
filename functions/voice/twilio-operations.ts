import { buyerAnswered, dialResult, finishCall, startCall, type DialOutcome } from '../../shared/calls/call-flow.js';
import { findCallByCarrierId } from '../../shared/calls/call-store.js';
import type { ApiResponse, Operation, OperationRequest } from '../../shared/http/request.js';
import { twimlFor, whisperTwiml } from '../../shared/voice/twiml.js';

/**
 * The Twilio-compatible voice webhooks (Twilio, SignalWire, Telnyx TeXML): each turns the
 * carrier's form fields into a step of the call state machine and its answer into TwiML.
 */
function xml(body: string): { kind: 'raw'; response: ApiResponse } {
  return { kind: 'raw', response: { statusCode: 200, headers: { 'content-type': 'text/xml; charset=utf-8' }, body } };
}

const EMPTY = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

function field(request: OperationRequest, name: string): string {
  const value = request.params[name];
  return typeof value === 'string' ? value : '';
}

function int(request: OperationRequest, name: string): number {
  const value = Number(field(request, name));
  return Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0;
}

/** Where the voice routes live, as the carrier reached this one. */
function voiceBase(request: OperationRequest): string {
  return request.url.replace(/\/[a-z_]+(\?.*)?$/, '');
}

/** `incoming`: a call reached a tracking number. */
export const incoming: Operation = async (request) => {
  const instruction = await startCall({
    carrier: 'twilio',
    carrierCallId: field(request, 'CallSid'),
    from: field(request, 'From'),
    to: field(request, 'To'),
    callerCity: field(request, 'FromCity') || undefined,
    callerState: field(request, 'FromState') || undefined,
    callerCountry: field(request, 'FromCountry') || undefined,
    at: request.now,
  });
  return xml(twimlFor(instruction, { base: voiceBase(request) }));
};

const DIAL_OUTCOMES = new Set(['completed', 'answered', 'no-answer', 'busy', 'failed', 'canceled']);

/** `dial_action`: a dial ended; go on to the next buyer or end. */
export const dialAction: Operation = async (request) => {
  const status = field(request, 'DialCallStatus');
  const outcome = (DIAL_OUTCOMES.has(status) ? status : 'failed') as DialOutcome;
  const instruction = await dialResult(int(request, 'company'), int(request, 'call'), int(request, 'attempt'), outcome, int(request, 'DialCallDuration'), request.now);
  return xml(twimlFor(instruction, { base: voiceBase(request) }));
};

/** `dial_status`: the buyer's leg was answered. */
export const dialStatus: Operation = async (request) => {
  if (field(request, 'CallStatus') === 'in-progress' || field(request, 'CallStatus') === 'answered') {
    await buyerAnswered(int(request, 'company'), int(request, 'call'), int(request, 'attempt'), request.now);
  }
  return xml(EMPTY);
};

const FINAL = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled']);

/** `status`: the caller's call changed status; a final one ends the call. */
export const callStatus: Operation = async (request) => {
  if (FINAL.has(field(request, 'CallStatus'))) {
    const found = await findCallByCarrierId('twilio', field(request, 'CallSid'));
    if (found) await finishCall(found.companyId, found.call.id, { totalDuration: int(request, 'CallDuration'), at: request.now });
  }
  return xml(EMPTY);
};

/** `whisper`: asks a buyer that must press 1 to accept. */
export const whisper: Operation = async (request) => {
  const url = request.url.replace('/whisper?', '/whisper_result?');
  return xml(whisperTwiml(url));
};

/** `whisper_result`: 1 connects the caller; anything else declines the call for this buyer. */
export const whisperResult: Operation = async (request) =>
  xml(field(request, 'Digits') === '1' ? EMPTY : '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>');

