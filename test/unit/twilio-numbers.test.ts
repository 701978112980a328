import { describe, expect, it } from 'vitest';
import { TwilioNumbers } from '../../shared/adapters/aws/twilio-numbers.js';
import { NumberProviderError, NumberUnavailableError } from '../../shared/ports/numbers.js';

interface SentRequest {
  url: string;
  method: string | undefined;
  headers: Record<string, string>;
  body: unknown;
}

/** A stand-in for global fetch: records each request and answers from the queue. */
function fakeFetch(...answers: Array<{ status: number; body?: unknown } | Error>) {
  const sent: SentRequest[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    sent.push({ url: String(input), method: init?.method, headers: { ...(init?.headers as Record<string, string>) }, body: init?.body });
    const answer = answers.shift();
    if (!answer) throw new Error('unexpected request');
    if (answer instanceof Error) throw answer;
    const text = answer.body === undefined ? null : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    return new Response(text, { status: answer.status, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { fetch, sent };
}

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'not-a-real-token';
const AUTHORIZATION = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
const BASE = 'https://carrier.example.test';
const ACCOUNT = `${BASE}/2010-04-01/Accounts/${SID}`;

function provider(fetch: typeof globalThis.fetch) {
  // The trailing slash is dropped.
  return new TwilioNumbers({ accountSid: SID, authToken: TOKEN, baseUrl: `${BASE}/`, fetch });
}

describe('Twilio number provider', () => {
  it('searches local US numbers with AreaCode, Contains and PageSize, Basic auth', async () => {
    const { fetch, sent } = fakeFetch({
      status: 200,
      body: { available_phone_numbers: [{ phone_number: '+14155550142', friendly_name: '(415) 555-0142' }, { phone_number: '+14155550143' }] },
    });
    expect(await provider(fetch).search({ area_code: '415', contains: '55*', limit: 5 })).toEqual(['+14155550142', '+14155550143']);
    expect(sent).toEqual([
      {
        url: `${ACCOUNT}/AvailablePhoneNumbers/US/Local.json?AreaCode=415&Contains=55*&PageSize=5`,
        method: 'GET',
        headers: { Authorization: AUTHORIZATION, Accept: 'application/json' },
        body: undefined,
      },
    ]);
  });

  it('leaves out filters that are not given and never returns more than the limit', async () => {
    const { fetch, sent } = fakeFetch({ status: 200, body: { available_phone_numbers: [{ phone_number: '+1' }, { phone_number: '+2' }, { phone_number: '+3' }] } });
    expect(await provider(fetch).search({ limit: 2 })).toEqual(['+1', '+2']);
    expect(sent[0]!.url).toBe(`${ACCOUNT}/AvailablePhoneNumbers/US/Local.json?PageSize=2`);
  });

  it('uses api.twilio.com by default', async () => {
    const { fetch, sent } = fakeFetch({ status: 200, body: { available_phone_numbers: [] } });
    await new TwilioNumbers({ accountSid: SID, authToken: TOKEN, fetch }).search({ limit: 1 });
    expect(sent[0]!.url).toBe(`https://api.twilio.com/2010-04-01/Accounts/${SID}/AvailablePhoneNumbers/US/Local.json?PageSize=1`);
  });

  it('buys a number with a form-encoded POST and answers with its E.164 and SID', async () => {
    const { fetch, sent } = fakeFetch({ status: 201, body: { sid: 'PN11112222333344445555666677778888', phone_number: '+14155550142' } });
    expect(await provider(fetch).purchase('+14155550142')).toEqual({ number: '+14155550142', provider_id: 'PN11112222333344445555666677778888' });
    expect(sent).toEqual([
      {
        url: `${ACCOUNT}/IncomingPhoneNumbers.json`,
        method: 'POST',
        headers: { Authorization: AUTHORIZATION, Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'PhoneNumber=%2B14155550142',
      },
    ]);
  });

  it('points a bought number at the voice webhooks and the inbound-SMS webhook when it knows their base', async () => {
    const { fetch, sent } = fakeFetch({ status: 201, body: { sid: 'PN11112222333344445555666677778888', phone_number: '+14155550142' } });
    const twilio = new TwilioNumbers({ accountSid: SID, authToken: TOKEN, baseUrl: BASE, fetch, voiceWebhookBase: 'https://api.example.test/api/v1/voice/twilio' });
    await twilio.purchase('+14155550142');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe(`${ACCOUNT}/IncomingPhoneNumbers.json`);
    expect(sent[0]!.method).toBe('POST');
    expect(Object.fromEntries(new URLSearchParams(String(sent[0]!.body)))).toEqual({
      PhoneNumber: '+14155550142',
      VoiceUrl: 'https://api.example.test/api/v1/voice/twilio/incoming',
      VoiceMethod: 'POST',
      StatusCallback: 'https://api.example.test/api/v1/voice/twilio/status',
      StatusCallbackMethod: 'POST',
      SmsUrl: 'https://api.example.test/api/v1/voice/twilio/sms',
      SmsMethod: 'POST',
    });
  });

  it('releases a number with a DELETE of its SID', async () => {
    const { fetch, sent } = fakeFetch({ status: 204 });
    await provider(fetch).release('PN1', '+14155550142');
    expect(sent).toEqual([
      { url: `${ACCOUNT}/IncomingPhoneNumbers/PN1.json`, method: 'DELETE', headers: { Authorization: AUTHORIZATION, Accept: 'application/json' }, body: undefined },
    ]);
  });

  it('treats releasing a number that is already gone (404) as done', async () => {
    const { fetch } = fakeFetch({ status: 404, body: { code: 20404, message: 'The requested resource was not found' } });
    await expect(provider(fetch).release('PN1', '+14155550142')).resolves.toBeUndefined();
  });

  it('turns any other non-2xx answer into a NumberProviderError with status, code and message', async () => {
    const { fetch } = fakeFetch(
      { status: 500, body: { code: 20500, message: 'Internal Server Error' } },
      { status: 401, body: { code: 20003, message: 'Authenticate' } },
      { status: 503, body: 'Service Unavailable' },
    );
    const twilio = provider(fetch);
    const searchError = await twilio.search({ limit: 1 }).catch((error: unknown) => error);
    expect(searchError).toBeInstanceOf(NumberProviderError);
    expect(searchError).not.toBeInstanceOf(NumberUnavailableError);
    expect(searchError).toMatchObject({ status: 500, code: 20500, message: 'Twilio GET /AvailablePhoneNumbers/US/Local.json answered 500: Internal Server Error' });
    const purchaseError = await twilio.purchase('+14155550142').catch((error: unknown) => error);
    expect(purchaseError).toBeInstanceOf(NumberProviderError);
    expect(purchaseError).not.toBeInstanceOf(NumberUnavailableError);
    expect(purchaseError).toMatchObject({ status: 401, code: 20003 });
    await expect(twilio.release('PN1', '+14155550142')).rejects.toMatchObject({ name: 'NumberProviderError', status: 503 });
  });

  it('reports a number the carrier will not sell as unavailable', async () => {
    const { fetch } = fakeFetch({ status: 400, body: { code: 21422, message: 'PhoneNumber is not available' } });
    const error = await provider(fetch).purchase('+14155550142').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NumberUnavailableError);
    expect(error).toMatchObject({ status: 400, code: 21422, message: 'Twilio POST /IncomingPhoneNumbers.json answered 400: PhoneNumber is not available' });
  });

  it('reports a network failure and a 2xx answer without the promised fields as provider errors', async () => {
    const { fetch } = fakeFetch(new TypeError('fetch failed'), { status: 200, body: { sid: 'PN1' } }, { status: 200, body: 'not json' });
    const twilio = provider(fetch);
    await expect(twilio.search({ limit: 1 })).rejects.toThrow(new NumberProviderError('Twilio GET /AvailablePhoneNumbers/US/Local.json failed: fetch failed'));
    await expect(twilio.purchase('+14155550142')).rejects.toThrow('Twilio purchase answered without sid and phone_number');
    await expect(twilio.search({ limit: 1 })).rejects.toThrow('Twilio search answered without available_phone_numbers');
  });

  it('needs an account SID and an auth token', () => {
    const { fetch } = fakeFetch();
    expect(() => new TwilioNumbers({ accountSid: '', authToken: TOKEN, fetch })).toThrow(/account SID and an auth token/);
    expect(() => new TwilioNumbers({ accountSid: SID, authToken: '', fetch })).toThrow(/account SID and an auth token/);
  });
});
