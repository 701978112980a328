import { routerAnswered } from '../../shared/calls/call-flow.js';
import { getCall } from '../../shared/calls/call-store.js';
import { keyPressed } from '../../shared/call-config/key-presses.js';
import type { Operation } from '../../shared/http/request.js';
import { callbackId, textField } from '../../shared/voice/callback-fields.js';
import { EMPTY_TWIML, HANGUP_TWIML, twimlFor } from '../../shared/voice/twiml.js';
import { orNeutral, voiceBase, xml } from './twilio-operations.js';

/**
 * The carrier webhooks of IVR menus and key presses (docs/call-configuration.md): like the
 * others, a callback naming no live call of the company gets neutral TwiML, never an error.
 */

/** Keys as the carrier reports them; anything else counts as no keys. */
function digitsField(value: unknown): string {
  return typeof value === 'string' && /^[0-9*#]{1,32}$/.test(value) ? value : '';
}

/** `router_answer?company&call&step`: the caller's answer to an IVR gather (Digits, SpeechResult). */
export const routerAnswer: Operation = async (request) => {
  const companyId = callbackId(request.params.company);
  const callId = callbackId(request.params.call);
  const step = callbackId(request.params.step);
  if (companyId === undefined || callId === undefined || step === undefined) return xml(HANGUP_TWIML);
  const input = { digits: digitsField(request.params.Digits), speech: textField(request.params, 'SpeechResult', 500) };
  return xml(await orNeutral(async () => twimlFor(await routerAnswered(companyId, callId, step, input, request.now), { base: voiceBase(request) }), HANGUP_TWIML));
};

/**
 * `key_press?company&call`: keys (Digits) pressed during the call, reported by the carrier; runs
 * the matching key press flow (shared/call-config/key-presses.ts). The carrier ignores the answer.
 */
export const keyPress: Operation = async (request) => {
  const companyId = callbackId(request.params.company);
  const callId = callbackId(request.params.call);
  const digits = digitsField(request.params.Digits);
  if (companyId === undefined || callId === undefined || !digits) return xml(EMPTY_TWIML);
  const call = await getCall(companyId, callId);
  if (call?.in_progress === true) await keyPressed(companyId, call, digits, request.now);
  return xml(EMPTY_TWIML);
};
