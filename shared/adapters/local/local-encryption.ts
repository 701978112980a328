import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { MAX_ENCRYPTED_VALUE_BYTES, type EncryptionContext, type EncryptionPort } from '../../ports/encryption.js';

const SCHEME = 'local1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The context as authenticated data: keys sorted, so the same context always gives the same bytes. */
export function contextBytes(context: EncryptionContext): Buffer {
  return Buffer.from(JSON.stringify(Object.keys(context).sort().map((key) => [key, context[key]])), 'utf8');
}

/**
 * AES-256-GCM with one 32-byte key, the context as additional authenticated data: the same
 * semantics as KMS (another context fails to decrypt), for `npm start` and the tests.
 * Ciphertext: `local1:` + base64(iv | tag | encrypted bytes).
 */
export class LocalEncryption implements EncryptionPort {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The local encryption key is 32 bytes (AES-256)');
  }

  async encrypt(plaintext: string, context: EncryptionContext): Promise<string> {
    const bytes = Buffer.from(plaintext, 'utf8');
    if (bytes.length > MAX_ENCRYPTED_VALUE_BYTES) throw new Error(`A value to encrypt is at most ${MAX_ENCRYPTED_VALUE_BYTES} bytes`);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(contextBytes(context));
    const encrypted = Buffer.concat([cipher.update(bytes), cipher.final()]);
    return SCHEME + Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64');
  }

  async decrypt(ciphertext: string, context: EncryptionContext): Promise<string> {
    if (!ciphertext.startsWith(SCHEME)) throw new Error('Not a local ciphertext of this service');
    const raw = Buffer.from(ciphertext.slice(SCHEME.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    decipher.setAAD(contextBytes(context));
    // final() throws when the tag does not match: another key, another context, or altered bytes.
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
