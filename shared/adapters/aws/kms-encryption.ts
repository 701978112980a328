import type { KMSClient } from '@aws-sdk/client-kms';
import { MAX_ENCRYPTED_VALUE_BYTES, type EncryptionContext, type EncryptionPort } from '../../ports/encryption.js';

const SCHEME = 'kms1:';

/**
 * Direct KMS Encrypt/Decrypt with one symmetric key (no envelope: values are at most 4 KB, which
 * KMS encrypts itself). The encryption context is KMS's own: Decrypt with another context fails
 * in KMS (InvalidCiphertextException), and CloudTrail logs it with each call.
 */
export class KmsEncryption implements EncryptionPort {
  constructor(
    private readonly client: KMSClient,
    private readonly keyId: string,
  ) {}

  async encrypt(plaintext: string, context: EncryptionContext): Promise<string> {
    const bytes = Buffer.from(plaintext, 'utf8');
    if (bytes.length > MAX_ENCRYPTED_VALUE_BYTES) throw new Error(`A value to encrypt is at most ${MAX_ENCRYPTED_VALUE_BYTES} bytes`);
    // Imported here, like the SES client's commands: loaded on first use, not at the function's init.
    const { EncryptCommand } = await import('@aws-sdk/client-kms');
    const result = await this.client.send(new EncryptCommand({ KeyId: this.keyId, Plaintext: bytes, EncryptionContext: { ...context } }));
    if (!result.CiphertextBlob) throw new Error('KMS Encrypt returned no ciphertext');
    return SCHEME + Buffer.from(result.CiphertextBlob).toString('base64');
  }

  async decrypt(ciphertext: string, context: EncryptionContext): Promise<string> {
    if (!ciphertext.startsWith(SCHEME)) throw new Error('Not a KMS ciphertext of this service');
    const { DecryptCommand } = await import('@aws-sdk/client-kms');
    const result = await this.client.send(
      new DecryptCommand({ KeyId: this.keyId, CiphertextBlob: Buffer.from(ciphertext.slice(SCHEME.length), 'base64'), EncryptionContext: { ...context } }),
    );
    if (!result.Plaintext) throw new Error('KMS Decrypt returned no plaintext');
    return Buffer.from(result.Plaintext).toString('utf8');
  }
}
