/**
 * What a ciphertext is bound to: decrypting it needs the same context, so a ciphertext copied into
 * another company's record (or another record, or another field) does not decrypt. Values are
 * plain strings, as KMS's encryption context takes them.
 */
export type EncryptionContext = Readonly<Record<string, string>>;

/**
 * Encrypts values stored at rest (secret items, OAuth tokens). AWS: KMS Encrypt/Decrypt with the
 * stack's key; local and tests: AES-256-GCM with a key from a file or the environment. Ciphertexts
 * are opaque strings tagged with their adapter's scheme.
 */
export interface EncryptionPort {
  encrypt(plaintext: string, context: EncryptionContext): Promise<string>;
  /** Fails (throws) when the context differs from the one the value was encrypted with. */
  decrypt(ciphertext: string, context: EncryptionContext): Promise<string>;
}

/** KMS Encrypt takes at most 4,096 bytes of plaintext: every encrypted value is bounded by it, in every mode. */
export const MAX_ENCRYPTED_VALUE_BYTES = 4096;
