import type { TelephonyPort } from '../../ports/telephony.js';

/** Hangs up through the Twilio-compatible REST API: POST Calls/{sid}.json with Status=completed. */
export class TwilioCallControl implements TelephonyPort {
  constructor(
    private readonly options: { accountSid: string; authToken: string; baseUrl?: string },
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async hangup(carrierCallId: string): Promise<void> {
    const base = (this.options.baseUrl ?? 'https://api.twilio.com').replace(/\/$/, '');
    const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(this.options.accountSid)}/Calls/${encodeURIComponent(carrierCallId)}.json`;
    const response = await this.fetchImpl(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${this.options.accountSid}:${this.options.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ Status: 'completed' }).toString(),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`Carrier refused the hang-up of ${carrierCallId}: HTTP ${response.status}`);
  }
}
