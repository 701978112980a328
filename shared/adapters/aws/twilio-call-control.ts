import type { TelephonyPort } from '../../ports/telephony.js';
import type { CarrierTokenSource } from '../carrier-secret.js';

/** Hangs up through the Twilio-compatible REST API: POST Calls/{sid}.json with Status=completed. */
export class TwilioCallControl implements TelephonyPort {
  constructor(
    /** `authToken`: the token, or where to read it before each request (it may be rotated). */
    private readonly options: { accountSid: string; authToken: string | CarrierTokenSource; baseUrl?: string },
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async hangup(carrierCallId: string): Promise<void> {
    const base = (this.options.baseUrl ?? 'https://api.twilio.com').replace(/\/$/, '');
    const token = typeof this.options.authToken === 'string' ? this.options.authToken : await this.options.authToken();
    const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(this.options.accountSid)}/Calls/${encodeURIComponent(carrierCallId)}.json`;
    const response = await this.fetchImpl(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${this.options.accountSid}:${token}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ Status: 'completed' }).toString(),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`Carrier refused the hang-up of ${carrierCallId}: HTTP ${response.status}`);
  }
}
