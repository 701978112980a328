import { NumberProviderError, NumberUnavailableError, type NumberProvider, type NumberSearch, type PurchasedNumber } from '../../ports/numbers.js';
import type { CarrierTokenSource } from '../carrier-secret.js';
import { jsonOrUndefined } from '../../json-text.js';

/**
 * Numbers from a Twilio-compatible carrier (REST API 2010-04-01, Basic auth with the account
 * SID and auth token). `fetch` is injected so tests can see every request.
 */
export interface TwilioNumbersOptions {
  accountSid: string;
  /** The token, or where to read it before each request (shared/adapters/carrier-secret.ts: it may be rotated). */
  authToken: string | CarrierTokenSource;
  /** Default https://api.twilio.com; other Twilio-compatible carriers serve the same paths. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Per-request limit, below the function's own timeout. */
  timeoutMs?: number;
  /**
   * Base URL of this service's voice webhooks (`.../api/v1/voice/twilio`): bought numbers are
   * pointed at its `incoming` and `status` routes, so their calls reach the state machine, and
   * at its `sms` route, so texts to them become incoming_text_messages.
   */
  voiceWebhookBase?: string;
}

/** Twilio's error codes for a number that cannot be bought (not available, not a valid number). */
const UNAVAILABLE_CODES = new Set([21422, 21421, 21452]);
const UNAVAILABLE_STATUSES = new Set([400, 404, 409]);

interface TwilioError {
  code?: number;
  message?: string;
}

export class TwilioNumbers implements NumberProvider {
  readonly name = 'twilio';
  private readonly accountUrl: string;
  private readonly accountSid: string;
  private readonly authToken: CarrierTokenSource;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly voiceWebhookBase: string | undefined;

  constructor(options: TwilioNumbersOptions) {
    if (!options.accountSid || !options.authToken) throw new Error('The Twilio number provider needs an account SID and an auth token');
    const base = (options.baseUrl || 'https://api.twilio.com').replace(/\/+$/, '');
    this.voiceWebhookBase = options.voiceWebhookBase?.replace(/\/+$/, '');
    this.accountUrl = `${base}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}`;
    this.accountSid = options.accountSid;
    const token = options.authToken;
    this.authToken = typeof token === 'string' ? async () => token : token;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? 8_000;
  }

  async search(query: NumberSearch): Promise<string[]> {
    const params = new URLSearchParams();
    if (query.area_code) params.set('AreaCode', query.area_code);
    if (query.contains) params.set('Contains', query.contains);
    params.set('PageSize', String(query.limit));
    const body = await this.request('GET', `/AvailablePhoneNumbers/US/Local.json?${params.toString()}`);
    const list = (body as { available_phone_numbers?: unknown } | undefined)?.available_phone_numbers;
    if (!Array.isArray(list)) throw new NumberProviderError('Twilio search answered without available_phone_numbers');
    return list
      .map((entry) => (entry as { phone_number?: unknown }).phone_number)
      .filter((number): number is string => typeof number === 'string')
      .slice(0, query.limit);
  }

  async purchase(number: string): Promise<PurchasedNumber> {
    const form = new URLSearchParams({ PhoneNumber: number });
    if (this.voiceWebhookBase) {
      form.set('VoiceUrl', `${this.voiceWebhookBase}/incoming`);
      form.set('VoiceMethod', 'POST');
      form.set('StatusCallback', `${this.voiceWebhookBase}/status`);
      form.set('StatusCallbackMethod', 'POST');
      // Texts to the number reach the inbound-SMS webhook (incoming_text_messages).
      form.set('SmsUrl', `${this.voiceWebhookBase}/sms`);
      form.set('SmsMethod', 'POST');
    }
    const body = (await this.request('POST', '/IncomingPhoneNumbers.json', form, 'purchase')) as
      | { sid?: unknown; phone_number?: unknown }
      | undefined;
    if (typeof body?.sid !== 'string' || typeof body.phone_number !== 'string') {
      throw new NumberProviderError('Twilio purchase answered without sid and phone_number');
    }
    return { number: body.phone_number, provider_id: body.sid };
  }

  async release(providerId: string, _number: string): Promise<void> {
    try {
      await this.request('DELETE', `/IncomingPhoneNumbers/${encodeURIComponent(providerId)}.json`);
    } catch (error) {
      // Already released (by hand in the console, or a retried delete): nothing left to do.
      if (error instanceof NumberProviderError && error.status === 404) return;
      throw error;
    }
  }

  private async request(method: 'GET' | 'POST' | 'DELETE', path: string, form?: URLSearchParams, kind?: 'purchase'): Promise<unknown> {
    const authorization = `Basic ${Buffer.from(`${this.accountSid}:${await this.authToken()}`).toString('base64')}`;
    const headers: Record<string, string> = { Authorization: authorization, Accept: 'application/json' };
    if (form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    let response: Response;
    try {
      response = await this.fetch(`${this.accountUrl}${path}`, {
        method,
        headers,
        body: form?.toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      // Network failure or timeout: no answer at all.
      throw new NumberProviderError(`Twilio ${method} ${path.split('?')[0]} failed: ${(error as Error).message}`);
    }
    const text = await response.text();
    const body = jsonOrUndefined(text);
    if (!response.ok) {
      const error = (body ?? {}) as TwilioError;
      const message = `Twilio ${method} ${path.split('?')[0]} answered ${response.status}${error.message ? `: ${error.message}` : ''}`;
      if (kind === 'purchase' && UNAVAILABLE_STATUSES.has(response.status) && (error.code === undefined || UNAVAILABLE_CODES.has(error.code))) {
        throw new NumberUnavailableError(message, response.status, error.code);
      }
      throw new NumberProviderError(message, response.status, error.code);
    }
    return body;
  }
}
