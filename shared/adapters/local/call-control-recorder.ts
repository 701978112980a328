import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { OutboundCallRequest, OutboundSms, TelephonyPort } from '../../ports/telephony.js';

/**
 * Local telephony: records what would reach the carrier (hang-ups, outbound calls, texts,
 * redirects and digits played into calls, the last two also in key-presses.jsonl). The
 * call simulator plays the callee of a recorded outbound call (shared/local/call-simulator.ts).
 * With a folder (`npm start` uses DATA_DIR/outbox) placed calls and texts are also appended to
 * calls.jsonl and texts.jsonl there, so `npm run call -- --placed` can answer a lead's call.
 */
/** Where `npm start` keeps the outbound calls it placed, in its outbox folder. */
export const PLACED_CALLS_FILE = 'calls.jsonl';
/** Where redirects (key press transfers) and digits sent into calls are kept, in the outbox folder. */
export const CALL_CONTROL_FILE = 'key-presses.jsonl';

export class CallControlRecorder implements TelephonyPort {
  readonly hungUp: string[] = [];
  readonly placed: Array<OutboundCallRequest & { carrierCallId: string }> = [];
  readonly texts: Array<OutboundSms & { carrierMessageId: string }> = [];
  readonly redirects: Array<{ carrierCallId: string; twiml: string }> = [];
  readonly digitsSent: Array<{ carrierCallId: string; digits: string }> = [];

  constructor(private readonly folder?: string) {
    if (folder) mkdirSync(folder, { recursive: true });
  }

  private keep(file: string, entry: object): void {
    if (this.folder) appendFileSync(join(this.folder, file), `${JSON.stringify(entry)}\n`);
  }

  async hangup(carrierCallId: string): Promise<void> {
    this.hungUp.push(carrierCallId);
  }

  async placeCall(request: OutboundCallRequest): Promise<{ carrierCallId: string }> {
    const carrierCallId = `CA${randomBytes(16).toString('hex')}`;
    this.placed.push({ ...request, carrierCallId });
    this.keep(PLACED_CALLS_FILE, { ...request, carrierCallId });
    return { carrierCallId };
  }

  async redirect(carrierCallId: string, twiml: string): Promise<void> {
    this.redirects.push({ carrierCallId, twiml });
    this.keep(CALL_CONTROL_FILE, { kind: 'redirect', carrierCallId, twiml });
  }

  async sendDigits(carrierCallId: string, digits: string): Promise<void> {
    this.digitsSent.push({ carrierCallId, digits });
    this.keep(CALL_CONTROL_FILE, { kind: 'digits', carrierCallId, digits });
  }

  async sendSms(message: OutboundSms): Promise<{ carrierMessageId: string }> {
    const carrierMessageId = `SM${randomBytes(16).toString('hex')}`;
    this.texts.push({ ...message, carrierMessageId });
    this.keep('texts.jsonl', { ...message, carrierMessageId });
    return { carrierMessageId };
  }
}
