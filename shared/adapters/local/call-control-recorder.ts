import { randomBytes } from 'node:crypto';
import type { OutboundCallRequest, OutboundSms, TelephonyPort } from '../../ports/telephony.js';

/**
 * Local telephony: records what would reach the carrier (hang-ups, outbound calls, texts). The
 * call simulator plays the callee of a recorded outbound call (shared/local/call-simulator.ts).
 */
export class CallControlRecorder implements TelephonyPort {
  readonly hungUp: string[] = [];
  readonly placed: Array<OutboundCallRequest & { carrierCallId: string }> = [];
  readonly texts: Array<OutboundSms & { carrierMessageId: string }> = [];

  async hangup(carrierCallId: string): Promise<void> {
    this.hungUp.push(carrierCallId);
  }

  async placeCall(request: OutboundCallRequest): Promise<{ carrierCallId: string }> {
    const carrierCallId = `CA${randomBytes(16).toString('hex')}`;
    this.placed.push({ ...request, carrierCallId });
    return { carrierCallId };
  }

  async sendSms(message: OutboundSms): Promise<{ carrierMessageId: string }> {
    const carrierMessageId = `SM${randomBytes(16).toString('hex')}`;
    this.texts.push({ ...message, carrierMessageId });
    return { carrierMessageId };
  }
}
