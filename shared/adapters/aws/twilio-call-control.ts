import type { OutboundCallRequest, OutboundSms, TelephonyPort } from '../../ports/telephony.js';
import type { CarrierTokenSource } from '../carrier-secret.js';

/**
 * Call control through the Twilio-compatible REST API: hang up (POST Calls/{sid}.json with
 * Status=completed), place a call (POST Calls.json), send a text (POST Messages.json), and
 * redirect a live call or play digits into it (POST Calls/{sid}.json with new Twiml).
 */
export class TwilioCallControl implements TelephonyPort {
  constructor(
    /** `authToken`: the token, or where to read it before each request (it may be rotated). */
    private readonly options: { accountSid: string; authToken: string | CarrierTokenSource; baseUrl?: string },
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  private async post(path: string, fields: Record<string, string>, what: string): Promise<Record<string, unknown>> {
    const base = (this.options.baseUrl ?? 'https://api.twilio.com').replace(/\/$/, '');
    const token = typeof this.options.authToken === 'string' ? this.options.authToken : await this.options.authToken();
    const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(this.options.accountSid)}/${path}`;
    const response = await this.fetchImpl(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${this.options.accountSid}:${token}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(fields).toString(),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`Carrier refused ${what}: HTTP ${response.status}`);
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    return body && typeof body === 'object' ? body : {};
  }

  async hangup(carrierCallId: string): Promise<void> {
    await this.post(`Calls/${encodeURIComponent(carrierCallId)}.json`, { Status: 'completed' }, `the hang-up of ${carrierCallId}`);
  }

  async placeCall(request: OutboundCallRequest): Promise<{ carrierCallId: string }> {
    const body = await this.post(
      'Calls.json',
      {
        To: request.to,
        From: request.from,
        Url: request.answerUrl,
        StatusCallback: request.statusUrl,
        StatusCallbackEvent: 'completed',
        Timeout: String(request.timeoutSeconds),
        // Synchronous detection that waits for the greeting's end: the answer webhook carries AnsweredBy, and a message starts after the beep.
        ...(request.machineDetection ? { MachineDetection: 'DetectMessageEnd', AsyncAmd: 'false' } : {}),
      },
      `the call to ${request.to}`,
    );
    if (typeof body.sid !== 'string') throw new Error('Carrier accepted the call but sent no call sid');
    return { carrierCallId: body.sid };
  }

  async redirect(carrierCallId: string, twiml: string): Promise<void> {
    await this.post(`Calls/${encodeURIComponent(carrierCallId)}.json`, { Twiml: twiml }, `the redirect of ${carrierCallId}`);
  }

  /**
   * Twilio has no "send DTMF" request: the call's TwiML is replaced by a <Play digits>, which
   * takes the leg out of whatever it was executing (a bridged <Dial> included).
   */
  async sendDigits(carrierCallId: string, digits: string): Promise<void> {
    const twiml = `<?xml version="1.0" encoding="UTF-8"?><Response><Play digits="${digits.replace(/[^0-9*#w]/g, '')}"/></Response>`;
    await this.post(`Calls/${encodeURIComponent(carrierCallId)}.json`, { Twiml: twiml }, `the digits for ${carrierCallId}`);
  }

  async sendSms(message: OutboundSms): Promise<{ carrierMessageId: string }> {
    const body = await this.post('Messages.json', { To: message.to, From: message.from, Body: message.body }, `the text to ${message.to}`);
    if (typeof body.sid !== 'string') throw new Error('Carrier accepted the text but sent no message sid');
    return { carrierMessageId: body.sid };
  }
}
