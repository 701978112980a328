import { traced } from '../observability/tracer.js';

/**
 * The voice carrier's auth token, which signs its webhooks and authorises its REST API, read at
 * run time rather than baked into the function's environment:
 * - TWILIO_AUTH_TOKEN: the token itself (`npm start`, the tests, the call simulator);
 * - else TWILIO_AUTH_TOKEN_SECRET: a Secrets Manager secret (name or ARN) holding the token as
 *   plain text, as the stack sets it. Read on first use and kept for five minutes, so a rotated
 *   token takes effect without a deploy and a warm function asks Secrets Manager rarely.
 */
export const CARRIER_SECRET_MAX_AGE_SECONDS = 300;

/**
 * Reads the token; rejects with a message naming the settings when neither is configured.
 * `refresh` skips the cache (a signature that fails with the cached token may mean it was rotated).
 */
export type CarrierTokenSource = (options?: { refresh?: boolean }) => Promise<string>;

export class CarrierTokenNotConfiguredError extends Error {
  constructor() {
    super('The carrier auth token is not configured: set TWILIO_AUTH_TOKEN_SECRET (a Secrets Manager secret name or ARN) or TWILIO_AUTH_TOKEN');
    this.name = 'CarrierTokenNotConfiguredError';
  }
}

/** Is a token configured at all (checked when an adapter is made, so a missing setting fails early)? */
export function carrierTokenConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.TWILIO_AUTH_TOKEN || env.TWILIO_AUTH_TOKEN_SECRET);
}

/** A token source over `env`; `secrets` caches what it reads (one provider per process in production). */
export function carrierTokenSource(env: NodeJS.ProcessEnv = process.env, secrets: () => SecretsReader = processSecrets): CarrierTokenSource {
  return async (options = {}) => {
    if (env.TWILIO_AUTH_TOKEN) return env.TWILIO_AUTH_TOKEN;
    const secretId = env.TWILIO_AUTH_TOKEN_SECRET;
    if (!secretId) throw new CarrierTokenNotConfiguredError();
    const token = await secrets().get(secretId, { maxAge: CARRIER_SECRET_MAX_AGE_SECONDS, forceFetch: options.refresh === true });
    if (typeof token !== 'string' || !token.trim()) throw new Error(`The secret ${secretId} (TWILIO_AUTH_TOKEN_SECRET) holds no plain-text carrier auth token`);
    return token.trim();
  };
}

/** Reads a secret's string, keeping it `maxAge` seconds unless `forceFetch` (the part of Powertools' SecretsProvider used here). */
export interface SecretsReader {
  get(secretId: string, options: { maxAge: number; forceFetch?: boolean }): Promise<string | undefined>;
}

/**
 * A Secrets Manager reader with its own cache, over a traced client. The client is imported on
 * first use: every function reaches this module through the adapters, few read the token, and
 * with the SDK taken from the runtime a static import (Powertools Parameters' SecretsProvider has
 * one) would load the Secrets Manager client at every cold start.
 */
export function createSecretsProvider(): SecretsReader {
  const cache = new Map<string, { value: string | undefined; expiresAt: number }>();
  let client: Promise<{ read: (secretId: string) => Promise<string | undefined> }> | undefined;
  const sdk = () =>
    (client ??= import('@aws-sdk/client-secrets-manager').then(({ SecretsManagerClient, GetSecretValueCommand }) => {
      const secrets = traced(new SecretsManagerClient({}));
      return { read: async (secretId: string) => (await secrets.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString };
    }));
  return {
    async get(secretId, { maxAge, forceFetch }) {
      const cached = cache.get(secretId);
      if (cached && !forceFetch && Date.now() < cached.expiresAt) return cached.value;
      const value = await (await sdk()).read(secretId);
      cache.set(secretId, { value, expiresAt: Date.now() + maxAge * 1000 });
      return value;
    },
  };
}

let secretsProvider: SecretsReader | undefined;

function processSecrets(): SecretsReader {
  secretsProvider ??= createSecretsProvider();
  return secretsProvider;
}

/** The carrier auth token of this process, from the environment as it is now. */
export function carrierAuthToken(options?: { refresh?: boolean }): Promise<string> {
  return carrierTokenSource(process.env)(options);
}

/** Is the token read from Secrets Manager (so re-reading it can find a rotated one)? */
export function carrierTokenFromSecret(env: NodeJS.ProcessEnv = process.env): boolean {
  return !env.TWILIO_AUTH_TOKEN && Boolean(env.TWILIO_AUTH_TOKEN_SECRET);
}
