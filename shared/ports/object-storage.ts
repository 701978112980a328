/**
 * Stores objects (the object_storage_upload schedule action's lead JSON). AWS: S3 PutObject into
 * OBJECT_STORAGE_BUCKET; local and tests: files under OBJECT_STORAGE_DIR (default DATA_DIR/objects).
 * A put of the same key replaces the object, so a repeated upload is harmless.
 */
export interface ObjectStoragePort {
  put(object: { key: string; body: string; contentType: string }): Promise<{ location: string }>;
}
