import { randomBytes } from 'node:crypto';
import { twilioSignature } from '../voice/twilio-signature.js';

/**
 * The local call simulator: plays the carrier (Twilio's webhook protocol) against a running
 * service, so a call can be watched end to end without a phone network. It signs every request
 * like the carrier does, follows the TwiML it gets back, and decides for each dialed buyer
 * whether they answer and how long they talk. `npm run call` and the tests both use it.
 */
export interface BuyerBehaviour {
  answer: boolean;
  /** Seconds of ringing before the buyer answers (or gives up, for no answer). */
  answerAfter: number;
  /** Seconds of conversation once answered. */
  talk: number;
  /** Digits the buyer presses when asked to press 1 to accept. */
  keys?: string;
}

export interface SimulatedCall {
  baseUrl: string;
  authToken: string;
  from: string;
  to: string;
  /** How the buyer of each dial attempt behaves (attempt 1 first); the last entry repeats. */
  buyers: BuyerBehaviour[];
  callSid?: string;
  /** Headers of an incoming SIP call (name -> value), sent as the carrier does: `SipHeader_<name>` fields. */
  sipHeaders?: Record<string, string>;
  /** The carrier's FromState (the caller's state), when given. */
  fromState?: string;
  /** The caller's answers to IVR menus (<Gather>), one per menu played; none left = no input. */
  keys?: string[];
  /** Keys the caller presses once a buyer answered (the carrier's key_press webhook). */
  keysDuringCall?: string;
  /** Called for every step, for a live transcript. */
  onStep?: (step: SimulatorStep) => void;
}

export interface SimulatorStep {
  request: string;
  fields: Record<string, string>;
  status: number;
  response: string;
}

export interface SimulationResult {
  callSid: string;
  companyId?: number;
  callId?: number;
  /** Buyer numbers dialed, in order. */
  dialed: string[];
  outcome: 'rejected' | 'no_buyer' | 'completed' | 'no_answer';
  steps: SimulatorStep[];
}

interface DialStep {
  action: string;
  statusCallback?: string;
  whisper?: string;
  target: string;
  timeout: number;
  /** Where the carrier reports the dial's recording, when the Dial asks for one. */
  recordingCallback?: string;
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`${name}="([^"]*)"`).exec(tag);
  return match ? match[1]!.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'") : undefined;
}

function parseDial(twiml: string): DialStep | undefined {
  const dial = /<Dial\b([^>]*)>([\s\S]*?)<\/Dial>/.exec(twiml);
  if (!dial) return undefined;
  const leg = /<(Number|Sip)\b([^>]*)>([^<]*)<\/\1>/.exec(dial[2]!);
  if (!leg) return undefined;
  return {
    action: attribute(dial[1]!, 'action')!,
    timeout: Number(attribute(dial[1]!, 'timeout') ?? 30),
    statusCallback: attribute(leg[2]!, 'statusCallback'),
    whisper: attribute(leg[2]!, 'url'),
    target: leg[3]!.replace(/&amp;/g, '&'),
    recordingCallback: attribute(dial[1]!, 'record') ? attribute(dial[1]!, 'recordingStatusCallback') : undefined,
  };
}

type Post = (url: string, fields: Record<string, string>) => Promise<string>;

/** A poster that signs like the carrier, against `baseUrl` (absolute URLs keep only their path). */
function carrierPoster(options: { baseUrl: string; authToken: string; onStep?: (step: SimulatorStep) => void }, steps: SimulatorStep[]): Post {
  const base = options.baseUrl.replace(/\/$/, '');
  return async (url, fields) => {
    // A recorded outbound call names the service's configured base; the simulator plays it here.
    const absolute = url.startsWith('http') ? `${base}${new URL(url).pathname}${new URL(url).search}` : `${base}${url}`;
    const response = await fetch(absolute, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(options.authToken, absolute, fields) },
      body: new URLSearchParams(fields).toString(),
    });
    const text = await response.text();
    const step = { request: absolute, fields, status: response.status, response: text };
    steps.push(step);
    options.onStep?.(step);
    if (!response.ok) throw new Error(`${absolute} answered ${response.status}: ${text}`);
    return text;
  };
}

/** Follows the service's Dials from `twiml`, each buyer behaving as told; what happened. */
async function playDials(post: Post, base: string, first: string, buyers: readonly BuyerBehaviour[], common: Record<string, string>, callSid: string, keysDuringCall?: string) {
  let twiml = first;
  const dialed: string[] = [];
  let elapsed = 0;
  let talked = false;
  let ids: { companyId?: number; callId?: number } = {};
  for (let attempt = 0; attempt < 50; attempt++) {
    const dial = parseDial(twiml);
    if (!dial) break;
    const action = new URL(dial.action, base);
    ids = { companyId: Number(action.searchParams.get('company')), callId: Number(action.searchParams.get('call')) };
    dialed.push(dial.target);
    const behaviour = buyers[Math.min(attempt, buyers.length - 1)] ?? { answer: true, answerAfter: 5, talk: 60 };
    let answered = behaviour.answer && behaviour.answerAfter < dial.timeout;
    if (answered && dial.whisper) {
      const whisper = await post(dial.whisper, { ...common, CallSid: `${callSid}-leg${attempt + 1}`, CallStatus: 'in-progress' });
      const gather = /<Gather\b([^>]*)>/.exec(whisper);
      const result = gather ? await post(attribute(gather[1]!, 'action')!, { ...common, Digits: behaviour.keys ?? '' }) : '';
      answered = !result.includes('<Hangup');
    }
    if (answered) {
      if (dial.statusCallback) await post(dial.statusCallback, { ...common, CallSid: `${callSid}-leg${attempt + 1}`, CallStatus: 'in-progress' });
      if (keysDuringCall) await post(`/api/v1/voice/twilio/key_press?company=${ids.companyId}&call=${ids.callId}`, { ...common, CallStatus: 'in-progress', Digits: keysDuringCall });
      elapsed += behaviour.answerAfter + behaviour.talk;
      talked = true;
      twiml = await post(dial.action, { ...common, CallStatus: 'in-progress', DialCallStatus: 'completed', DialCallDuration: String(behaviour.talk) });
      // A recorded dial: the carrier reports the recording once the leg is over (a local URL stands for it).
      if (dial.recordingCallback) {
        const recordingSid = `RE${randomBytes(16).toString('hex')}`;
        await post(dial.recordingCallback, {
          ...common,
          RecordingSid: recordingSid,
          RecordingUrl: `${new URL(base).origin}/local/recordings/${recordingSid}.wav`,
          RecordingStatus: 'completed',
          RecordingDuration: String(behaviour.talk),
        });
      }
    } else {
      elapsed += Math.min(behaviour.answerAfter, dial.timeout);
      twiml = await post(dial.action, { ...common, CallStatus: 'in-progress', DialCallStatus: 'no-answer', DialCallDuration: '0' });
    }
  }
  return { dialed, elapsed, talked, ids };
}

/**
 * Answers the service's IVR menus (<Gather>) with `keys`, one entry per menu; a menu with no
 * entry left gets no input (the carrier follows the Redirect after the Gather). The TwiML after
 * the last menu.
 */
async function answerMenus(post: Post, first: string, keys: readonly string[], common: Record<string, string>): Promise<string> {
  let twiml = first;
  for (let menu = 0; menu < 50; menu++) {
    const gather = /<Gather\b([^>]*)>/.exec(twiml);
    if (!gather) break;
    const pressed = keys[menu];
    // No input: the Redirect after the Gather names the same URL, requested without Digits.
    twiml = await post(attribute(gather[1]!, 'action')!, { ...common, CallStatus: 'in-progress', ...(pressed ? { Digits: pressed } : {}) });
  }
  return twiml;
}

export async function simulateCall(options: SimulatedCall): Promise<SimulationResult> {
  const callSid = options.callSid ?? `CA${randomBytes(16).toString('hex')}`;
  const steps: SimulatorStep[] = [];
  const post = carrierPoster(options, steps);
  const common = { CallSid: callSid, AccountSid: 'ACsimulator', From: options.from, To: options.to, Direction: 'inbound' };
  const sipFields = Object.fromEntries(Object.entries(options.sipHeaders ?? {}).map(([name, value]) => [`SipHeader_${name}`, value]));
  const first = await answerMenus(post, await post('/api/v1/voice/twilio/incoming', { ...common, CallStatus: 'ringing', ...sipFields, ...(options.fromState ? { FromState: options.fromState } : {}) }), options.keys ?? [], common);
  const { dialed, elapsed, talked, ids } = await playDials(post, options.baseUrl, first, options.buyers, common, callSid, options.keysDuringCall);
  await post('/api/v1/voice/twilio/status', { ...common, CallStatus: 'completed', CallDuration: String(elapsed) });
  const outcome = first.includes('<Reject') ? 'rejected' : dialed.length === 0 ? 'no_buyer' : talked ? 'completed' : 'no_answer';
  return { callSid, ...ids, dialed, outcome, steps };
}

/** An outbound call the service placed (CallControlRecorder.placed in local mode). */
export interface PlacedCall {
  to: string;
  from: string;
  answerUrl: string;
  statusUrl: string;
  carrierCallId: string;
}

export interface SimulatedOutboundCall {
  baseUrl: string;
  authToken: string;
  placed: PlacedCall;
  /** Whether the callee answers; or how their phone ends the call unanswered. */
  answer: true | 'no-answer' | 'busy' | 'failed';
  /** Seconds the callee's phone rings before they answer (or the carrier gives up). */
  answerAfter?: number;
  /** Once the callee answered: how the buyer of each dial attempt behaves, as for inbound calls. */
  buyers: BuyerBehaviour[];
  /** The carrier's machine detection verdict sent with the answer (AnsweredBy: human, machine_end_beep...); unset, none is sent. */
  answeredBy?: string;
  onStep?: (step: SimulatorStep) => void;
}

export interface OutboundSimulationResult {
  callSid: string;
  dialed: string[];
  /** unanswered: the callee did not pick up; no_buyer: answered, nobody took it (hung up with a message); machine: a machine answered and got the offer's flow. */
  outcome: 'unanswered' | 'no_buyer' | 'completed' | 'no_answer' | 'machine';
  /** The service's answer to the answer webhook (TwiML), when the callee answered. */
  answer?: string;
  steps: SimulatorStep[];
}

/**
 * Plays the carrier's side of a placed outbound call: the callee's phone rings; unanswered, the
 * final status callback says so; answered, the service's answer webhook routes it and the
 * buyers behave as in `simulateCall`, then the final status callback ends it.
 */
export async function simulateOutboundCall(options: SimulatedOutboundCall): Promise<OutboundSimulationResult> {
  const { placed } = options;
  const callSid = placed.carrierCallId;
  const steps: SimulatorStep[] = [];
  const post = carrierPoster(options, steps);
  const common = { CallSid: callSid, AccountSid: 'ACsimulator', From: placed.from, To: placed.to, Direction: 'outbound-api' };
  const ringing = options.answerAfter ?? 5;
  if (options.answer !== true) {
    await post(placed.statusUrl, { ...common, CallStatus: options.answer, CallDuration: '0' });
    return { callSid, dialed: [], outcome: 'unanswered', steps };
  }
  const first = await post(placed.answerUrl, { ...common, CallStatus: 'in-progress', ...(options.answeredBy ? { AnsweredBy: options.answeredBy } : {}) });
  const { dialed, elapsed, talked } = await playDials(post, options.baseUrl, first, options.buyers, common, callSid);
  await post(placed.statusUrl, { ...common, CallStatus: 'completed', CallDuration: String(ringing + elapsed) });
  const machine = options.answeredBy !== undefined && options.answeredBy !== 'human' && options.answeredBy !== 'unknown' && dialed.length === 0;
  return { callSid, dialed, outcome: machine ? 'machine' : dialed.length === 0 ? 'no_buyer' : talked ? 'completed' : 'no_answer', answer: first, steps };
}
