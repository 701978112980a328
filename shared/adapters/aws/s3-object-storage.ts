import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { ObjectStoragePort } from '../../ports/object-storage.js';

/** Objects in one S3 bucket, encrypted at rest with the bucket's S3-managed key. */
export class S3ObjectStorage implements ObjectStoragePort {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async put(object: { key: string; body: string; contentType: string }): Promise<{ location: string }> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: object.key, Body: object.body, ContentType: object.contentType, ServerSideEncryption: 'AES256' }),
    );
    return { location: `s3://${this.bucket}/${object.key}` };
  }
}
