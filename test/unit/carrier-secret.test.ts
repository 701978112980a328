import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TwilioCallControl } from '../../shared/adapters/aws/twilio-call-control.js';
import { TwilioNumbers } from '../../shared/adapters/aws/twilio-numbers.js';
import { CARRIER_SECRET_MAX_AGE_SECONDS, carrierAuthToken, carrierTokenSource, createSecretsProvider } from '../../shared/adapters/carrier-secret.js';
import { createNumberProvider, createTelephonyPort } from '../../shared/adapters/index.js';
import { routes } from '../../shared/http/routes.js';
import { buildApiEvent } from '../../shared/local/lambda-event.js';
import { validCarrierSignature } from '../../shared/voice/carrier-auth.js';
import { twilioSignature } from '../../shared/voice/twilio-signature.js';

const SECRET_ID = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:call-tracking/twilio-auth-token-AbCdEf';

const secretsManager = mockClient(SecretsManagerClient);
beforeEach(() => secretsManager.reset());
afterEach(() => vi.useRealTimers());

/** A token source over `env` with a cache of its own, as a fresh function instance has. */
const sourceOver = (env: NodeJS.ProcessEnv) => {
  const secrets = createSecretsProvider();
  return carrierTokenSource(env, () => secrets);
};

describe('the carrier auth token', () => {
  it('is TWILIO_AUTH_TOKEN when set, without asking Secrets Manager', async () => {
    await expect(sourceOver({ TWILIO_AUTH_TOKEN: 'local-token', TWILIO_AUTH_TOKEN_SECRET: SECRET_ID })()).resolves.toBe('local-token');
    expect(secretsManager.calls()).toHaveLength(0);
  });

  it('is read from the secret TWILIO_AUTH_TOKEN_SECRET names, with exactly one GetSecretValue', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: 'token-from-secrets-manager\n' });
    await expect(sourceOver({ TWILIO_AUTH_TOKEN_SECRET: SECRET_ID })()).resolves.toBe('token-from-secrets-manager');
    const calls = secretsManager.commandCalls(GetSecretValueCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({ SecretId: SECRET_ID });
  });

  it('is kept for five minutes, then read again, so a rotated token takes effect without a deploy', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T10:00:00Z'));
    secretsManager.on(GetSecretValueCommand).resolvesOnce({ SecretString: 'first-token' }).resolves({ SecretString: 'rotated-token' });
    const token = sourceOver({ TWILIO_AUTH_TOKEN_SECRET: SECRET_ID });
    expect(await token()).toBe('first-token');
    vi.setSystemTime(new Date(Date.parse('2026-11-22T10:00:00Z') + (CARRIER_SECRET_MAX_AGE_SECONDS - 1) * 1000));
    expect(await token()).toBe('first-token');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    vi.setSystemTime(new Date(Date.parse('2026-11-22T10:00:00Z') + (CARRIER_SECRET_MAX_AGE_SECONDS + 1) * 1000));
    expect(await token()).toBe('rotated-token');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('fails with a message naming both settings when neither is set', async () => {
    await expect(sourceOver({})()).rejects.toThrow(/TWILIO_AUTH_TOKEN_SECRET .*TWILIO_AUTH_TOKEN/);
    expect(secretsManager.calls()).toHaveLength(0);
  });

  it('fails naming the secret when it holds no plain-text token, and when Secrets Manager refuses', async () => {
    secretsManager.on(GetSecretValueCommand).resolvesOnce({ SecretString: '  ' }).rejects(new Error('AccessDeniedException: not allowed'));
    await expect(sourceOver({ TWILIO_AUTH_TOKEN_SECRET: SECRET_ID })()).rejects.toThrow(`The secret ${SECRET_ID} (TWILIO_AUTH_TOKEN_SECRET) holds no plain-text carrier auth token`);
    await expect(sourceOver({ TWILIO_AUTH_TOKEN_SECRET: SECRET_ID })()).rejects.toThrow(/not allowed/);
  });
});

describe('the carrier adapters with the token in Secrets Manager', () => {
  const recordingFetch = () => {
    const authorizations: string[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      authorizations.push(String((init.headers as Record<string, string>).Authorization ?? (init.headers as Record<string, string>).authorization));
      return new Response(JSON.stringify({ available_phone_numbers: [] }), { status: 200 });
    }) as unknown as typeof globalThis.fetch;
    return { fetch, authorizations };
  };
  const basic = (token: string) => `Basic ${Buffer.from(`AC1:${token}`).toString('base64')}`;

  it('authenticate the number provider and call control with the secret\'s token', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: 'secret-token' });
    const token = sourceOver({ TWILIO_AUTH_TOKEN_SECRET: SECRET_ID });
    const numbers = recordingFetch();
    await new TwilioNumbers({ accountSid: 'AC1', authToken: token, fetch: numbers.fetch }).search({ limit: 1 });
    const control = recordingFetch();
    await new TwilioCallControl({ accountSid: 'AC1', authToken: token }, control.fetch).hangup('CA1');
    expect([...numbers.authorizations, ...control.authorizations]).toEqual([basic('secret-token'), basic('secret-token')]);
  });

  it('are made from TWILIO_AUTH_TOKEN_SECRET alone, and refused without any token setting', () => {
    expect(createNumberProvider({ NUMBER_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN_SECRET: SECRET_ID })).toBeInstanceOf(TwilioNumbers);
    expect(createTelephonyPort({ TELEPHONY_ADAPTER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN_SECRET: SECRET_ID })).toBeInstanceOf(TwilioCallControl);
    expect(() => createTelephonyPort({ TELEPHONY_ADAPTER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1' })).toThrow(/TWILIO_AUTH_TOKEN_SECRET \(or TWILIO_AUTH_TOKEN\)/);
  });
});

describe('the voice webhook signature check', () => {
  const incoming = routes.find((route) => route.operation === 'voice.incoming')!;
  const signedEvent = (token: string) => {
    const fields = { CallSid: 'CA1', From: '+14155550100', To: '+14155550101' };
    const url = `http://calls.example${incoming.path}`;
    const headers = { host: 'calls.example', 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(token, url, fields) };
    return { event: buildApiEvent({ method: 'POST', url: incoming.path, headers, body: Buffer.from(new URLSearchParams(fields).toString()), sourceIp: '127.0.0.1' }, incoming, {}), fields };
  };
  const saved = { token: process.env.TWILIO_AUTH_TOKEN, secret: process.env.TWILIO_AUTH_TOKEN_SECRET };
  const restore = (name: string, value: string | undefined) => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  afterEach(() => {
    restore('TWILIO_AUTH_TOKEN', saved.token);
    restore('TWILIO_AUTH_TOKEN_SECRET', saved.secret);
  });

  it('checks against the token in Secrets Manager when the environment names only the secret', async () => {
    delete process.env.TWILIO_AUTH_TOKEN;
    process.env.TWILIO_AUTH_TOKEN_SECRET = `${SECRET_ID}-signature`;
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: 'carrier-token' });
    const good = signedEvent('carrier-token');
    expect(await validCarrierSignature(good.event, good.fields)).toBe(true);
    await expect(carrierAuthToken()).resolves.toBe('carrier-token');
    expect(secretsManager.commandCalls(GetSecretValueCommand).map((call) => call.args[0].input)).toEqual([{ SecretId: `${SECRET_ID}-signature` }]);
  });

  it('after a rotation, reads the secret afresh once when the cached token fails, at most once per 30 s', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T10:00:00Z'));
    delete process.env.TWILIO_AUTH_TOKEN;
    process.env.TWILIO_AUTH_TOKEN_SECRET = `${SECRET_ID}-rotation`;
    secretsManager.on(GetSecretValueCommand).resolvesOnce({ SecretString: 'old-token' }).resolves({ SecretString: 'new-token' });
    const before = signedEvent('old-token');
    expect(await validCarrierSignature(before.event, before.fields)).toBe(true);
    // The carrier now signs with the rotated token: the cached one fails, the fresh read passes.
    const after = signedEvent('new-token');
    expect(await validCarrierSignature(after.event, after.fields)).toBe(true);
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);
    // Forged requests right after cause no further reads...
    const forged = signedEvent('forged-token');
    expect(await validCarrierSignature(forged.event, forged.fields)).toBe(false);
    expect(await validCarrierSignature(forged.event, forged.fields)).toBe(false);
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);
    // ...and the new token is what the cache holds now.
    expect(await validCarrierSignature(after.event, after.fields)).toBe(true);
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);
    // 30 s later a failing signature may read once more.
    vi.setSystemTime(new Date(Date.parse('2026-11-22T10:00:31Z')));
    expect(await validCarrierSignature(forged.event, forged.fields)).toBe(false);
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(3);
  });

  it('refuses every request when no token is configured', async () => {
    delete process.env.TWILIO_AUTH_TOKEN;
    delete process.env.TWILIO_AUTH_TOKEN_SECRET;
    const signed = signedEvent('anything');
    expect(await validCarrierSignature(signed.event, signed.fields)).toBe(false);
    expect(secretsManager.calls()).toHaveLength(0);
  });
});
