import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { config } from '#runtime/config.ts';
import type { FileStore } from './file-store.ts';

/** Local folder adapter: `<dir>/<key>`; nothing expires locally. */
export function folderStore(dir: string): FileStore {
  const path = (key: string) => join(dir, key);
  return {
    async put(key, bytes) {
      await mkdir(dir, { recursive: true });
      const temporary = `${path(key)}.${process.pid}.part`;
      await writeFile(temporary, bytes);
      await rename(temporary, path(key));
    },
    downloadUrl: async () => undefined,
    async read(key) {
      try {
        return await readFile(path(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    exists: (key) =>
      stat(path(key)).then(
        () => true,
        () => false,
      ),
    directUpload: async () => undefined,
    markAttached: async () => {},
  };
}

let store: FileStore | undefined;

export function fileStore(): FileStore {
  if (!store) {
    const { filesBucket: bucket, filesDir } = config();
    store = bucket ? lazyS3(bucket) : folderStore(resolve(filesDir));
  }
  return store;
}

/** The S3 adapter and its SDK load at first use only, so functions that never touch a file never import them. */
function lazyS3(bucket: string): FileStore {
  const s3 = import('./files-s3.ts').then((m) => m.s3Store(bucket));
  return {
    put: async (...a) => (await s3).put(...a),
    downloadUrl: async (...a) => (await s3).downloadUrl(...a),
    read: async (...a) => (await s3).read(...a),
    exists: async (...a) => (await s3).exists(...a),
    directUpload: async (...a) => (await s3).directUpload(...a),
    markAttached: async (...a) => (await s3).markAttached(...a),
  };
}
