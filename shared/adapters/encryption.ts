import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { traced } from '../observability/tracer.js';
import type { EncryptionPort } from '../ports/encryption.js';
import { KmsEncryption } from './aws/kms-encryption.js';
import { localAdapters } from './local-registry.js';

/**
 * ENCRYPTION_ADAPTER: `kms` (default; SECRETS_KEY_ARN, the stack's key) or `local`
 * (LOCAL_ENCRYPTION_KEY: 32 bytes in base64; else ENCRYPTION_KEY_FILE, a file holding that, made
 * with a random key, readable by its owner only, when missing). In a module of its own, the KMS
 * client made on first use, so no other function loads it.
 */
export function createEncryptionPort(env: NodeJS.ProcessEnv = process.env): EncryptionPort {
  const adapter = env.ENCRYPTION_ADAPTER || 'kms';
  if (adapter === 'local') return new (localAdapters('ENCRYPTION_ADAPTER').LocalEncryption)(localKey(env));
  if (adapter === 'kms') {
    const keyId = env.SECRETS_KEY_ARN;
    if (!keyId) throw new Error('SECRETS_KEY_ARN must be set for the KMS encryption adapter');
    let made: Promise<KmsEncryption> | undefined;
    const kms = () => (made ??= import('@aws-sdk/client-kms').then(({ KMSClient }) => new KmsEncryption(traced(new KMSClient({})), keyId)));
    return {
      encrypt: async (plaintext, context) => (await kms()).encrypt(plaintext, context),
      decrypt: async (ciphertext, context) => (await kms()).decrypt(ciphertext, context),
    };
  }
  throw new Error(`Unknown ENCRYPTION_ADAPTER ${adapter}`);
}

function localKey(env: NodeJS.ProcessEnv): Buffer {
  if (env.LOCAL_ENCRYPTION_KEY) return Buffer.from(env.LOCAL_ENCRYPTION_KEY, 'base64');
  const file = env.ENCRYPTION_KEY_FILE;
  if (!file) throw new Error('LOCAL_ENCRYPTION_KEY or ENCRYPTION_KEY_FILE must be set for the local encryption adapter');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

let encryption: EncryptionPort | undefined;

/** The encryption port of this process (made on first use). */
export function encryptionPort(): EncryptionPort {
  encryption ??= createEncryptionPort();
  return encryption;
}
