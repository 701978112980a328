/**
 * Stores objects: the object_storage_upload schedule action's lead JSON, sound files' audio, admin
 * table exports and contact imports' uploaded CSV files.
 * AWS: S3 in OBJECT_STORAGE_BUCKET; local and tests: files under OBJECT_STORAGE_DIR (default
 * DATA_DIR/objects). A put of the same key replaces the object, so a repeated upload is harmless.
 */
export interface ObjectStoragePort {
  /**
   * Whether an object put under `imports/` reaches the background work by itself: S3 does (the
   * stack's EventBridge rule sends the bucket's Object Created events there to the lead runner's
   * queue); local files do not, so whoever stores a contact import's file queues its step.
   */
  readonly announcesImports: boolean;
  put(object: { key: string; body: string | Uint8Array; contentType: string }): Promise<{ location: string }>;
  /** The object's bytes, or undefined when there is none under the key. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Removes the object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /**
   * A URL anyone holding it can GET the object with until it expires (S3: a presigned GetObject),
   * or undefined when the store has no URLs of its own (local files: the service serves them).
   */
  presignedGetUrl(key: string, expiresInSeconds: number): Promise<string | undefined>;
  /**
   * A URL anyone holding it can PUT exactly `bytes` bytes to under the key until it expires (S3: a
   * presigned PutObject with the length signed, so any other length is refused), or undefined
   * when the store has no URLs of its own (local files: the service takes the upload itself).
   */
  presignedPutUrl(key: string, options: { expiresInSeconds: number; bytes: number }): Promise<string | undefined>;
  /**
   * The object's size and, when it is at most `maxBytes`, its bytes (a larger one is not read);
   * undefined when there is none under the key.
   */
  readUpTo(key: string, maxBytes: number): Promise<{ size: number; bytes?: Uint8Array } | undefined>;
}
