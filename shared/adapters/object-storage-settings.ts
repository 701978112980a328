/**
 * Whether this deployment can store objects, without loading the S3 client: the schedules API
 * checks it when an object_storage_upload action is created (shared/adapters/object-storage.ts).
 */
export const OBJECT_STORAGE_BUCKET_SETTING = 'OBJECT_STORAGE_BUCKET';

/** Why this deployment cannot store objects (the setting that is missing), or undefined when it can. */
export function objectStorageMissingSetting(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const adapter = env.OBJECT_STORAGE_ADAPTER || 's3';
  if (adapter === 'local') return undefined;
  if (adapter === 's3') return env[OBJECT_STORAGE_BUCKET_SETTING] ? undefined : OBJECT_STORAGE_BUCKET_SETTING;
  return 'OBJECT_STORAGE_ADAPTER';
}
