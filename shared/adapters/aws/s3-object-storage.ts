import type { S3Client } from '@aws-sdk/client-s3';
import type { ObjectStoragePort } from '../../ports/object-storage.js';

/**
 * How the S3 client is made (shared/adapters/object-storage.ts): checksums only where S3 requires
 * them. The SDK's default would put the CRC32 of an empty body into a presigned PutObject's signed
 * query, and S3 would refuse every real upload to that URL as a bad digest.
 */
export const S3_CLIENT_OPTIONS = { requestChecksumCalculation: 'WHEN_REQUIRED' } as const;

/**
 * Objects in one S3 bucket, encrypted at rest with the bucket's S3-managed key. The SDK's S3
 * modules are imported on first use, not at init (with the SDK taken from the runtime a static
 * import loads the client at every cold start): `client` may be a function making it.
 */
export class S3ObjectStorage implements ObjectStoragePort {
  readonly announcesImports = true;

  constructor(
    private readonly s3: S3Client | (() => Promise<S3Client>),
    private readonly bucket: string,
  ) {}

  private async client(): Promise<S3Client> {
    return typeof this.s3 === 'function' ? this.s3() : this.s3;
  }

  async put(object: { key: string; body: string | Uint8Array; contentType: string }): Promise<{ location: string }> {
    const { PutObjectCommand } = await import('@aws-sdk/client-s3');
    await (await this.client()).send(
      new PutObjectCommand({ Bucket: this.bucket, Key: object.key, Body: object.body, ContentType: object.contentType, ServerSideEncryption: 'AES256' }),
    );
    return { location: `s3://${this.bucket}/${object.key}` };
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const { GetObjectCommand, NoSuchKey } = await import('@aws-sdk/client-s3');
    const client = await this.client();
    try {
      const result = await client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return result.Body ? await result.Body.transformToByteArray() : undefined;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const { DeleteObjectCommand } = await import('@aws-sdk/client-s3');
    await (await this.client()).send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** Signed with the function's own role: the URL can do what the role can, for this one GetObject. */
  async presignedGetUrl(key: string, expiresInSeconds: number): Promise<string> {
    const [{ GetObjectCommand }, { getSignedUrl }] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]);
    return getSignedUrl(await this.client(), new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: expiresInSeconds });
  }

  /**
   * A presigned PutObject with Content-Length among the signed headers: S3 refuses an upload of
   * any other length (a presigned PUT cannot carry a size range, only an exact length). The
   * bucket's default encryption applies; nothing else is signed, so a plain `curl -T` works.
   */
  async presignedPutUrl(key: string, options: { expiresInSeconds: number; bytes: number }): Promise<string> {
    const [{ PutObjectCommand }, { getSignedUrl }] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]);
    return getSignedUrl(await this.client(), new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentLength: options.bytes }), {
      expiresIn: options.expiresInSeconds,
      signableHeaders: new Set(['content-length']),
    });
  }

  /** One GetObject; the body is read only when ContentLength is within `maxBytes`, else the stream is dropped unread. */
  async readUpTo(key: string, maxBytes: number): Promise<{ size: number; bytes?: Uint8Array } | undefined> {
    const { GetObjectCommand, NoSuchKey } = await import('@aws-sdk/client-s3');
    const client = await this.client();
    let result;
    try {
      result = await client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
    const size = Number(result.ContentLength ?? 0);
    if (size > maxBytes) {
      (result.Body as { destroy?: () => void } | undefined)?.destroy?.();
      return { size };
    }
    const bytes = result.Body ? await result.Body.transformToByteArray() : new Uint8Array();
    // The header is checked before reading; the bytes again, should a length be missing or wrong.
    return bytes.length > maxBytes ? { size: bytes.length } : { size: bytes.length, bytes };
  }
}
