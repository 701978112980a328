import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { DecryptCommand, EncryptCommand, InvalidCiphertextException, KMSClient } from '@aws-sdk/client-kms';
import { KmsEncryption } from '../../shared/adapters/aws/kms-encryption.js';
import { createEncryptionPort } from '../../shared/adapters/encryption.js';
import { LocalEncryption } from '../../shared/adapters/local/local-encryption.js';
import { storedValueContext } from '../../shared/secrets/encrypted-fields.js';

const KEY_ARN = 'arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const kms = mockClient(KMSClient);
const context = storedValueContext(7, 'secret_items', '5b0c9a52-6a43-4c1e-9b1f-3c6d2f0e8a11', 'value');

afterEach(() => kms.reset());

describe('KMS encryption adapter', () => {
  const adapter = () => new KmsEncryption(new KMSClient({ region: 'us-east-1' }), KEY_ARN);

  it('encrypts with the key and the encryption context, and keeps the ciphertext blob tagged', async () => {
    kms.on(EncryptCommand).resolves({ CiphertextBlob: Uint8Array.from([1, 2, 3]), KeyId: KEY_ARN });
    const ciphertext = await adapter().encrypt('s3cret', context);
    expect(ciphertext).toBe(`kms1:${Buffer.from([1, 2, 3]).toString('base64')}`);
    const calls = kms.commandCalls(EncryptCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      KeyId: KEY_ARN,
      Plaintext: Buffer.from('s3cret', 'utf8'),
      EncryptionContext: { company_id: '7', resource: 'secret_items', record_uuid: '5b0c9a52-6a43-4c1e-9b1f-3c6d2f0e8a11', field: 'value' },
    });
  });

  it('decrypts with the key and the same context; KMS refusing another context is an error', async () => {
    kms.on(DecryptCommand).resolves({ Plaintext: Buffer.from('s3cret', 'utf8'), KeyId: KEY_ARN });
    await expect(adapter().decrypt(`kms1:${Buffer.from([9, 8]).toString('base64')}`, context)).resolves.toBe('s3cret');
    expect(kms.commandCalls(DecryptCommand)[0]!.args[0].input).toEqual({ KeyId: KEY_ARN, CiphertextBlob: Buffer.from([9, 8]), EncryptionContext: { ...context } });
    kms.on(DecryptCommand).rejects(new InvalidCiphertextException({ message: 'invalid', $metadata: {} }));
    await expect(adapter().decrypt('kms1:AQI=', { ...context, company_id: '8' })).rejects.toThrow(InvalidCiphertextException);
  });

  it('refuses values over 4 KB and ciphertexts of another scheme without calling KMS', async () => {
    await expect(adapter().encrypt('x'.repeat(4097), context)).rejects.toThrow(/4096 bytes/);
    await expect(adapter().decrypt('local1:AAAA', context)).rejects.toThrow(/Not a KMS ciphertext/);
    expect(kms.calls()).toHaveLength(0);
  });
});

describe('local encryption adapter', () => {
  const adapter = new LocalEncryption(Buffer.alloc(32, 3));

  it('decrypts with the same context only, and with the same key only', async () => {
    const ciphertext = await adapter.encrypt('s3cret ünïcode', context);
    expect(ciphertext).toMatch(/^local1:/);
    expect(ciphertext).not.toContain('s3cret');
    // A fresh IV each time: the same value does not give the same ciphertext.
    expect(await adapter.encrypt('s3cret ünïcode', context)).not.toBe(ciphertext);
    await expect(adapter.decrypt(ciphertext, { ...context })).resolves.toBe('s3cret ünïcode');
    await expect(adapter.decrypt(ciphertext, { ...context, company_id: '8' })).rejects.toThrow();
    await expect(adapter.decrypt(ciphertext, { ...context, field: 'access_token' })).rejects.toThrow();
    await expect(new LocalEncryption(Buffer.alloc(32, 4)).decrypt(ciphertext, context)).rejects.toThrow();
  });

  it('keys are 32 bytes; values at most 4 KB, like KMS', async () => {
    expect(() => new LocalEncryption(Buffer.alloc(16))).toThrow(/32 bytes/);
    await expect(adapter.encrypt('x'.repeat(4097), context)).rejects.toThrow(/4096 bytes/);
    await expect(adapter.encrypt('x'.repeat(4096), context)).resolves.toMatch(/^local1:/);
  });
});

describe('encryption port wiring', () => {
  it('ENCRYPTION_ADAPTER=kms needs the key ARN; local takes a key from the environment or makes one in its file', async () => {
    expect(() => createEncryptionPort({ ENCRYPTION_ADAPTER: 'kms' })).toThrow(/SECRETS_KEY_ARN/);
    expect(() => createEncryptionPort({})).toThrow(/SECRETS_KEY_ARN/);
    expect(createEncryptionPort({ ENCRYPTION_ADAPTER: 'kms', SECRETS_KEY_ARN: KEY_ARN })).toBeDefined();
    expect(() => createEncryptionPort({ ENCRYPTION_ADAPTER: 'local' })).toThrow(/LOCAL_ENCRYPTION_KEY or ENCRYPTION_KEY_FILE/);
    expect(() => createEncryptionPort({ ENCRYPTION_ADAPTER: 'other' })).toThrow(/Unknown ENCRYPTION_ADAPTER/);

    const file = join(mkdtempSync(join(tmpdir(), 'encryption-key-')), 'encryption.key');
    const made = createEncryptionPort({ ENCRYPTION_ADAPTER: 'local', ENCRYPTION_KEY_FILE: file });
    expect(Buffer.from(readFileSync(file, 'utf8'), 'base64')).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const ciphertext = await made.encrypt('kept', context);
    // A later process reads the same key back.
    await expect(createEncryptionPort({ ENCRYPTION_ADAPTER: 'local', ENCRYPTION_KEY_FILE: file }).decrypt(ciphertext, context)).resolves.toBe('kept');
    const fromEnv = createEncryptionPort({ ENCRYPTION_ADAPTER: 'local', LOCAL_ENCRYPTION_KEY: readFileSync(file, 'utf8') });
    await expect(fromEnv.decrypt(ciphertext, context)).resolves.toBe('kept');
  });
});
