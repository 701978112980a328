import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { ObjectStoragePort } from '../../ports/object-storage.js';

/** Local object storage: one file per key under a folder (nothing leaves the machine). */
export class FileObjectStorage implements ObjectStoragePort {
  readonly announcesImports = false;
  private readonly root: string;

  constructor(folder: string) {
    this.root = resolve(folder);
  }

  /** Keys are built by the service, but a `..` in a prefix must still not leave the folder. */
  private pathOf(key: string): string {
    const path = resolve(join(this.root, key));
    if (!path.startsWith(this.root + sep)) throw new Error(`object key ${key} leaves the storage folder`);
    return path;
  }

  async put(object: { key: string; body: string | Uint8Array; contentType: string }): Promise<{ location: string }> {
    const path = this.pathOf(object.key);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, object.body);
    return { location: path };
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(this.pathOf(key)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /** Files have no URL of their own: the service serves them (shared/call-config/sounds.ts). */
  async presignedGetUrl(): Promise<undefined> {
    return undefined;
  }

  /** No URLs either: the service takes uploads itself (shared/contact-imports/upload.ts). */
  async presignedPutUrl(): Promise<undefined> {
    return undefined;
  }

  async readUpTo(key: string, maxBytes: number): Promise<{ size: number; bytes?: Uint8Array } | undefined> {
    let size: number;
    try {
      size = (await stat(this.pathOf(key))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    if (size > maxBytes) return { size };
    const bytes = await this.get(key);
    if (!bytes) return undefined;
    return bytes.length > maxBytes ? { size: bytes.length } : { size: bytes.length, bytes };
  }
}
