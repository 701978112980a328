import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { S3ObjectStorage } from '../../shared/adapters/aws/s3-object-storage.js';
import { FileObjectStorage } from '../../shared/adapters/local/file-object-storage.js';
import { objectStorageMissingSetting } from '../../shared/adapters/object-storage-settings.js';
import { refusal } from '../../shared/leads/schedule-action-behaviour.js';

describe('S3 object storage', () => {
  it('puts exactly one object into the bucket, encrypted, with its type', async () => {
    const s3 = mockClient(S3Client);
    s3.on(PutObjectCommand).resolves({ ETag: '"e"' });
    const stored = await new S3ObjectStorage(new S3Client({ region: 'us-east-1' }), 'lead-exports').put({ key: 'leads/1/u/2-3.json', body: '{"id":1}', contentType: 'application/json' });
    expect(stored).toEqual({ location: 's3://lead-exports/leads/1/u/2-3.json' });
    const calls = s3.commandCalls(PutObjectCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({ Bucket: 'lead-exports', Key: 'leads/1/u/2-3.json', Body: '{"id":1}', ContentType: 'application/json', ServerSideEncryption: 'AES256' });
    s3.restore();
  });

  it('lets a failure through to the caller', async () => {
    const s3 = mockClient(S3Client);
    s3.on(PutObjectCommand).rejects(new Error('AccessDenied'));
    await expect(new S3ObjectStorage(new S3Client({ region: 'us-east-1' }), 'b').put({ key: 'k', body: '{}', contentType: 'application/json' })).rejects.toThrow('AccessDenied');
    s3.restore();
  });
});

describe('local object storage', () => {
  it('writes the object under its folder and refuses a key that leaves it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'objects-'));
    const storage = new FileObjectStorage(folder);
    await storage.put({ key: 'a/b.json', body: '{"x":1}', contentType: 'application/json' });
    expect(readFileSync(join(folder, 'a', 'b.json'), 'utf8')).toBe('{"x":1}');
    await expect(storage.put({ key: '../escape.json', body: '{}', contentType: 'application/json' })).rejects.toThrow('leaves the storage folder');
  });
});

describe('which action kinds this deployment refuses', () => {
  it('names the missing bucket setting for object storage in S3 mode, and none in local mode', () => {
    expect(objectStorageMissingSetting({})).toBe('OBJECT_STORAGE_BUCKET');
    expect(objectStorageMissingSetting({ OBJECT_STORAGE_BUCKET: 'b' })).toBeUndefined();
    expect(objectStorageMissingSetting({ OBJECT_STORAGE_ADAPTER: 'local' })).toBeUndefined();
    expect(refusal('object_storage_upload', {})).toBe('is not available: this deployment has no object storage (set OBJECT_STORAGE_BUCKET)');
    // Kinds that need an outside system are created and skipped when run (schedule-steps.ts).
    expect(refusal('crm_two', {})).toBeUndefined();
    expect(refusal('dial', {})).toBeUndefined();
  });
});
