import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API key pairs and user tokens. Secrets are 256-bit random values, so a single SHA-256 is
 * enough to store them (a slow password hash protects low-entropy secrets; these are not).
 */
export interface KeyPair {
  publicKey: string;
  privateKey: string;
}

export function mintKeyPair(): KeyPair {
  return { publicKey: randomBytes(16).toString('hex'), privateKey: randomBytes(32).toString('hex') };
}

export function mintUserToken(): string {
  return randomBytes(32).toString('hex');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const presentedHash = Buffer.from(hashSecret(presented), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presentedHash.length && timingSafeEqual(presentedHash, stored);
}

/** Public keys are 32 hex digits today; anything outside this shape cannot name a key pair. */
const PUBLIC_KEY_SHAPE = /^[A-Za-z0-9_-]{1,128}$/;
/** Private keys are 64 hex digits; a longer one is refused before it is hashed. */
const MAX_PRIVATE_KEY_CHARS = 256;
/** base64 of the longest acceptable pair, with room to spare. */
const MAX_BASIC_HEADER_CHARS = 1_024;

/**
 * Splits `Authorization: Basic base64(public:private)`; undefined when malformed, or when
 * either half could not be a key of this service (too long, or a public key of other characters).
 */
export function parseBasicAuthorization(header: string | undefined): KeyPair | undefined {
  if (!header || header.length > MAX_BASIC_HEADER_CHARS) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header.trim());
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return undefined;
  const pair = { publicKey: decoded.slice(0, colon), privateKey: decoded.slice(colon + 1) };
  if (!PUBLIC_KEY_SHAPE.test(pair.publicKey) || pair.privateKey.length > MAX_PRIVATE_KEY_CHARS) return undefined;
  return pair;
}

/** User tokens are 64 hex digits; a value of another shape is refused without a lookup. */
export function plausibleUserToken(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_PRIVATE_KEY_CHARS;
}
