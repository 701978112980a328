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
  };
}

export async function simulateCall(options: SimulatedCall): Promise<SimulationResult> {
  const callSid = options.callSid ?? `CA${randomBytes(16).toString('hex')}`;
  const steps: SimulatorStep[] = [];
  const base = options.baseUrl.replace(/\/$/, '');
  const post = async (url: string, fields: Record<string, string>): Promise<string> => {
    const absolute = url.startsWith('http') ? url : `${base}${url}`;
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
  const common = { CallSid: callSid, AccountSid: 'ACsimulator', From: options.from, To: options.to, Direction: 'inbound' };
  let twiml = await post('/api/v1/voice/twilio/incoming', { ...common, CallStatus: 'ringing' });
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
    const behaviour = options.buyers[Math.min(attempt, options.buyers.length - 1)] ?? { answer: true, answerAfter: 5, talk: 60 };
    let answered = behaviour.answer && behaviour.answerAfter < dial.timeout;
    if (answered && dial.whisper) {
      const whisper = await post(dial.whisper, { ...common, CallSid: `${callSid}-leg${attempt + 1}`, CallStatus: 'in-progress' });
      const gather = /<Gather\b([^>]*)>/.exec(whisper);
      const result = gather ? await post(attribute(gather[1]!, 'action')!, { ...common, Digits: behaviour.keys ?? '' }) : '';
      answered = !result.includes('<Hangup');
    }
    if (answered) {
      if (dial.statusCallback) await post(dial.statusCallback, { ...common, CallSid: `${callSid}-leg${attempt + 1}`, CallStatus: 'in-progress' });
      elapsed += behaviour.answerAfter + behaviour.talk;
      talked = true;
      twiml = await post(dial.action, { ...common, CallStatus: 'in-progress', DialCallStatus: 'completed', DialCallDuration: String(behaviour.talk) });
    } else {
      elapsed += Math.min(behaviour.answerAfter, dial.timeout);
      twiml = await post(dial.action, { ...common, CallStatus: 'in-progress', DialCallStatus: 'no-answer', DialCallDuration: '0' });
    }
  }
  await post('/api/v1/voice/twilio/status', { ...common, CallStatus: 'completed', CallDuration: String(elapsed) });
  const first = steps[0]?.response ?? '';
  const outcome = first.includes('<Reject') ? 'rejected' : dialed.length === 0 ? 'no_buyer' : talked ? 'completed' : 'no_answer';
  return { callSid, ...ids, dialed, outcome, steps };
}
