import { join, resolve } from 'node:path';
import type { ObjectStoragePort } from '../ports/object-storage.js';
import { traced } from '../observability/tracer.js';
import { S3_CLIENT_OPTIONS, S3ObjectStorage } from './aws/s3-object-storage.js';
import { localAdapters } from './local-registry.js';
import { OBJECT_STORAGE_BUCKET_SETTING, objectStorageMissingSetting } from './object-storage-settings.js';

/**
 * OBJECT_STORAGE_ADAPTER: `s3` (default; OBJECT_STORAGE_BUCKET) or `local` (files under
 * OBJECT_STORAGE_DIR, default DATA_DIR/objects). In a module of its own so only what stores or
 * plays objects loads the S3 client: the lead runner, sound files' behaviour, and sounds.ts on
 * first use (the API checks the settings through object-storage-settings.ts).
 */
export function createObjectStorage(env: NodeJS.ProcessEnv = process.env): ObjectStoragePort {
  const missing = objectStorageMissingSetting(env);
  if (missing) throw new Error(`${missing} must be set (s3 or local) for object storage uploads`);
  if ((env.OBJECT_STORAGE_ADAPTER || 's3') === 'local') {
    return new (localAdapters('OBJECT_STORAGE_ADAPTER').FileObjectStorage)(env.OBJECT_STORAGE_DIR || join(resolve(env.DATA_DIR ?? '.data'), 'objects'));
  }
  // The client is made on first use (S3ObjectStorage says why).
  let client: Promise<import('@aws-sdk/client-s3').S3Client> | undefined;
  const s3 = () => (client ??= import('@aws-sdk/client-s3').then(({ S3Client }) => traced(new S3Client({ ...S3_CLIENT_OPTIONS }))));
  return new S3ObjectStorage(s3, env[OBJECT_STORAGE_BUCKET_SETTING]!);
}

let storage: ObjectStoragePort | undefined;

export function objectStorage(): ObjectStoragePort {
  storage ??= createObjectStorage();
  return storage;
}

/** Replaces the object storage (tests); no argument goes back to the configured one. */
export function setObjectStorage(replacement?: ObjectStoragePort): void {
  storage = replacement;
}
