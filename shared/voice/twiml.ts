import type { CallInstruction } from '../calls/call-flow.js';
import { MAX_TALK_SECONDS } from '../calls/stale-calls.js';

/**
 * Call instructions as TwiML (Twilio; SignalWire and Telnyx TeXML accept the same). Pure. The
 * callback URLs carry the company and call ids; the carrier signs them with the rest of the
 * request, so they cannot be forged.
 */
export function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char]!);
}

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>';

/** The neutral answer to a callback about no live call: end whatever leg asked. */
export const HANGUP_TWIML = `${HEAD}<Response><Hangup/></Response>`;

/** The answer to callbacks whose response the carrier ignores (status callbacks). */
export const EMPTY_TWIML = `${HEAD}<Response/>`;

export interface VoiceUrls {
  /** Absolute base of the voice routes, e.g. https://api.example.com/api/v1/voice/twilio */
  base: string;
}

function query(params: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)])).toString();
}

/** Configured SIP headers as URI parameters (names are validated; reserved secure-token names are refused at write). */
function sipHeaderParams(headers: readonly { name: string; value: string }[] | undefined): Record<string, string> {
  return Object.fromEntries((headers ?? []).map((header) => [header.name, header.value]));
}

export function twimlFor(instruction: CallInstruction, urls: VoiceUrls): string {
  const head = HEAD;
  switch (instruction.kind) {
    case 'reject':
      return `${head}<Response><Reject reason="rejected"/></Response>`;
    case 'hangup':
      return HANGUP_TWIML;
    case 'dial': {
      const { target } = instruction;
      const ids = { company: instruction.companyId, call: instruction.callId, attempt: instruction.attempt };
      const action = `${urls.base}/dial_action?${query(ids)}`;
      const answered = `${urls.base}/dial_status?${query(ids)}`;
      const attributes = [
        `action="${escapeXml(action)}"`,
        'method="POST"',
        `timeout="${Math.round(target.timeoutSeconds)}"`,
        // The carrier ends the buyer leg by then, which bounds how long a call can be in progress.
        `timeLimit="${MAX_TALK_SECONDS}"`,
        'answerOnBridge="true"',
        ...(target.callerId ? [`callerId="${escapeXml(target.callerId)}"`] : []),
        // A matching call_recording_rules entry records from the buyer's answer (docs/call-configuration.md).
        ...(target.record
          ? [
              `record="${target.record === 'mono' ? 'record-from-answer' : 'record-from-answer-dual'}"`,
              `recordingStatusCallback="${escapeXml(`${urls.base}/recording?${query(ids)}`)}"`,
              'recordingStatusCallbackMethod="POST"',
              'recordingStatusCallbackEvent="completed"',
            ]
          : []),
      ].join(' ');
      const legAttributes = [
        `statusCallback="${escapeXml(answered)}"`,
        'statusCallbackEvent="answered"',
        'statusCallbackMethod="POST"',
        ...(target.dtmfTones ? [`sendDigits="${escapeXml(target.dtmfTones)}"`] : []),
        ...(target.pressOneToAccept ? [`url="${escapeXml(`${urls.base}/whisper?${query(ids)}`)}"`] : []),
      ].join(' ');
      // SIP buyers get the call's secure token and uuid as headers, for the secure endpoints.
      const leg = target.number.toLowerCase().startsWith('sip:')
        ? `<Sip ${legAttributes}>${escapeXml(`${target.number}${target.number.includes('?') ? '&' : '?'}${query({ 'X-svc_secure_token': target.secureToken, 'X-svc_uuid': target.uuid, ...sipHeaderParams(target.sipHeaders) })}`)}</Sip>`
        : `<Number ${legAttributes}>${escapeXml(target.number)}</Number>`;
      return `${head}<Response><Dial ${attributes}>${leg}</Dial></Response>`;
    }
    case 'gather':
      return gatherTwiml(instruction, urls);
  }
}

/** The whisper played to a buyer that must press 1 to take the call: the offer's sound (`sounds`, URLs) instead of the spoken prompt when it has one. */
export function whisperTwiml(resultUrl: string, sounds: readonly string[] = []): string {
  const prompt = sounds.length ? sounds.map((url) => `<Play>${escapeXml(url)}</Play>`).join('') : '<Say>Press 1 to accept this call.</Say>';
  return (
    '<?xml version="1.0" encoding="UTF-8"?><Response>' +
    `<Gather numDigits="1" timeout="8" action="${escapeXml(resultUrl)}" method="POST">${prompt}</Gather>` +
    '<Hangup/></Response>'
  );
}

/** Says `message` to whoever is on the line, then hangs up (an outbound call no buyer can take). */
export function sayThenHangupTwiml(message: string): string {
  return `${HEAD}<Response><Say>${escapeXml(message)}</Say><Hangup/></Response>`;
}

/**
 * An IVR menu (shared/call-config/ivr.ts): says and plays the prompt while gathering keys (and
 * words when speech is on). The answer goes to `router_answer`, naming the gather's step; a
 * caller who gives nothing falls through to the Redirect, the same request without Digits.
 */
function gatherTwiml(gather: Extract<CallInstruction, { kind: 'gather' }>, urls: VoiceUrls): string {
  const action = escapeXml(`${urls.base}/router_answer?${query({ company: gather.companyId, call: gather.callId, step: gather.step })}`);
  const attributes = [
    `input="${gather.speech ? 'dtmf speech' : 'dtmf'}"`,
    `numDigits="${gather.numDigits}"`,
    `timeout="${gather.timeoutSeconds}"`,
    ...(gather.speech ? ['speechTimeout="auto"'] : []),
    `action="${action}"`,
    'method="POST"',
  ].join(' ');
  const prompt = [...gather.say.map((text) => `<Say>${escapeXml(text)}</Say>`), ...gather.playUrls.map((url) => `<Play>${escapeXml(url)}</Play>`)].join('');
  return `${HEAD}<Response><Gather ${attributes}>${prompt}</Gather><Redirect method="POST">${action}</Redirect></Response>`;
}

/** A key press transfer: the caller's leg dials `target` (E.164 or sip: URI) instead. */
export function transferTwiml(target: string): string {
  const leg = target.toLowerCase().startsWith('sip:') ? `<Sip>${escapeXml(target)}</Sip>` : `<Number>${escapeXml(target)}</Number>`;
  return `${HEAD}<Response><Dial timeLimit="${MAX_TALK_SECONDS}">${leg}</Dial></Response>`;
}
