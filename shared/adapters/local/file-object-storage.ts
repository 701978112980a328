import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { ObjectStoragePort } from '../../ports/object-storage.js';

/** Local object storage: one file per key under a folder (nothing leaves the machine). */
export class FileObjectStorage implements ObjectStoragePort {
  private readonly root: string;

  constructor(folder: string) {
    this.root = resolve(folder);
  }

  async put(object: { key: string; body: string; contentType: string }): Promise<{ location: string }> {
    const path = resolve(join(this.root, object.key));
    // Keys are built by the service, but a `..` in a prefix must still not leave the folder.
    if (!path.startsWith(this.root + sep)) throw new Error(`object key ${object.key} leaves the storage folder`);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, object.body);
    return { location: path };
  }
}
