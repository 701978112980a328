import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it, vi } from 'vitest';
import { S3_CLIENT_OPTIONS, S3ObjectStorage } from '../../shared/adapters/aws/s3-object-storage.js';
import { SqsBackgroundWork } from '../../shared/adapters/aws/sqs-background-work.js';
import { FileObjectStorage } from '../../shared/adapters/local/file-object-storage.js';
import { importObjectKey, importOfKey, importWorkOf } from '../../shared/contact-imports/import-keys.js';

/** Contact import uploads' adapters (the exact S3 and SQS commands) and the pure naming of their keys and messages. */
/** Made as the adapter factory makes it (S3_CLIENT_OPTIONS), with fixed credentials to sign with. */
const s3Client = () => new S3Client({ ...S3_CLIENT_OPTIONS, region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'example-secret' } });

describe('S3 upload URLs and bounded reads', () => {
  it('presigns a PutObject of the key with its Content-Length signed, locally (no request is sent)', async () => {
    const s3 = mockClient(S3Client);
    const url = new URL(await new S3ObjectStorage(s3Client(), 'uploads-bucket').presignedPutUrl('imports/7/42.csv', { expiresInSeconds: 900, bytes: 1234 }));
    expect(url.origin).toBe('https://uploads-bucket.s3.us-east-1.amazonaws.com');
    expect(url.pathname).toBe('/imports/7/42.csv');
    expect(url.searchParams.get('x-id')).toBe('PutObject');
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDEXAMPLE\/\d{8}\/us-east-1\/s3\/aws4_request$/);
    // The length is a signed header (S3 refuses any other), not a query parameter a client could drop.
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;host');
    expect(url.searchParams.has('Content-Length')).toBe(false);
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    // No checksum of an empty body in the signed query (S3 would refuse the real file as a bad digest).
    expect([...url.searchParams.keys()].sort()).toEqual(['X-Amz-Algorithm', 'X-Amz-Content-Sha256', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-Signature', 'X-Amz-SignedHeaders', 'x-id']);
    expect(s3.calls()).toHaveLength(0);
    s3.restore();
  });

  it('reads an object within the bound with one GetObject of exactly that key', async () => {
    const s3 = mockClient(S3Client);
    const body = 'phone\n+16155500001\n';
    s3.on(GetObjectCommand).resolves({ ContentLength: body.length, Body: { transformToByteArray: async () => new Uint8Array(Buffer.from(body)) } as never });
    const read = await new S3ObjectStorage(s3Client(), 'uploads-bucket').readUpTo('imports/7/42.csv', 1000);
    expect(read).toEqual({ size: body.length, bytes: new Uint8Array(Buffer.from(body)) });
    expect(s3.commandCalls(GetObjectCommand).map((call) => call.args[0].input)).toEqual([{ Bucket: 'uploads-bucket', Key: 'imports/7/42.csv' }]);
    s3.restore();
  });

  it('does not read a body whose ContentLength is over the bound, and answers undefined for a missing key', async () => {
    const s3 = mockClient(S3Client);
    const transformToByteArray = vi.fn();
    const destroy = vi.fn();
    s3.on(GetObjectCommand, { Key: 'imports/7/big.csv' }).resolves({ ContentLength: 10_000_001, Body: { transformToByteArray, destroy } as never });
    s3.on(GetObjectCommand, { Key: 'imports/7/gone.csv' }).rejects(new NoSuchKey({ message: 'gone', $metadata: {} }));
    const storage = new S3ObjectStorage(s3Client(), 'uploads-bucket');
    expect(await storage.readUpTo('imports/7/big.csv', 10_000_000)).toEqual({ size: 10_000_001 });
    expect(transformToByteArray).not.toHaveBeenCalled();
    expect(destroy).toHaveBeenCalledOnce();
    expect(await storage.readUpTo('imports/7/gone.csv', 10_000_000)).toBeUndefined();
    s3.restore();
  });

  it('local files: the same bounded read, and no URLs of their own', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'imports-'));
    mkdirSync(join(folder, 'imports', '7'), { recursive: true });
    writeFileSync(join(folder, 'imports', '7', '42.csv'), 'phone\n1\n');
    const storage = new FileObjectStorage(folder);
    expect(await storage.readUpTo('imports/7/42.csv', 100)).toEqual({ size: 8, bytes: new Uint8Array(Buffer.from('phone\n1\n')) });
    expect(await storage.readUpTo('imports/7/42.csv', 7)).toEqual({ size: 8 });
    expect(await storage.readUpTo('imports/7/none.csv', 7)).toBeUndefined();
    expect(await storage.presignedPutUrl()).toBeUndefined();
  });
});

describe('background work', () => {
  it('in AWS is one SendMessage to the steps queue, with a delay when asked', async () => {
    const sqs = mockClient(SQSClient);
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm' });
    const work = new SqsBackgroundWork(new SQSClient({ region: 'us-east-1' }), 'https://sqs.us-east-1.amazonaws.com/1/steps');
    await work.enqueue({ kind: 'contact_import', companyId: 3, importId: 9 });
    await work.enqueue({ kind: 'contact_import', companyId: 3, importId: 9 }, 5000);
    expect(sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: 'https://sqs.us-east-1.amazonaws.com/1/steps', MessageBody: '{"kind":"contact_import","companyId":3,"importId":9}' },
      { QueueUrl: 'https://sqs.us-east-1.amazonaws.com/1/steps', MessageBody: '{"kind":"contact_import","companyId":3,"importId":9}', DelaySeconds: 900 },
    ]);
    sqs.restore();
  });
});

describe('import keys and messages', () => {
  it('names an import’s file by company and import, and reads only such keys back', () => {
    expect(importObjectKey({ companyId: 7, importId: 42 })).toBe('imports/7/42.csv');
    expect(importOfKey('imports/7/42.csv')).toEqual({ companyId: 7, importId: 42 });
    for (const key of ['imports/7/42.json', 'imports/0/1.csv', 'imports/7/x.csv', 'exports/7/42.csv', 'imports/7/42.csv/../1.csv', 'imports/12345678901234567/1.csv']) expect(importOfKey(key), key).toBeUndefined();
  });

  it('knows a queued step and an EventBridge S3 "Object Created" event under imports/, and nothing else', () => {
    expect(importWorkOf({ kind: 'contact_import', companyId: 3, importId: 9 })).toEqual({ companyId: 3, importId: 9 });
    const created = (key: string) => ({ version: '0', source: 'aws.s3', 'detail-type': 'Object Created', detail: { bucket: { name: 'b' }, object: { key } } });
    expect(importWorkOf(created('imports/3/9.csv'))).toEqual({ companyId: 3, importId: 9 });
    expect(importWorkOf(created('sounds/3/9.wav'))).toBeUndefined();
    expect(importWorkOf({ ...created('imports/3/9.csv'), 'detail-type': 'Object Deleted' })).toBeUndefined();
    expect(importWorkOf({ kind: 'contact_import', companyId: 3, importId: '9' })).toBeUndefined();
    expect(importWorkOf({ companyId: 3, leadId: 9, version: 1 })).toBeUndefined();
    expect(importWorkOf({ Service: 'Amazon S3', Event: 's3:TestEvent' })).toBeUndefined();
    expect(importWorkOf(null)).toBeUndefined();
  });
});
