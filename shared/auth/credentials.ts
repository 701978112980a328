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

/** Splits `Authorization: Basic base64(public:private)`; undefined when malformed. */
export function parseBasicAuthorization(header: string | undefined): KeyPair | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header.trim());
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return undefined;
  return { publicKey: decoded.slice(0, colon), privateKey: decoded.slice(colon + 1) };
}
