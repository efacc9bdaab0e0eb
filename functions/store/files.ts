import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { config } from '#runtime/config.ts';

/**
 * The blob store of the document service: files by key. Two adapters: S3 in AWS (`FILES_BUCKET` set,
 * files-s3.ts), a folder locally (`AGORA_FILES_DIR`, default the git-ignored `.agora/files`).
 */
export interface FileStore {
  /** Stores the bytes of a file; `md5` (hex) is checked again by the store where it can (S3 Content-MD5). */
  put(key: string, bytes: Uint8Array, md5: string): Promise<void>;
  /** Where to send a client for the bytes: a presigned GET (S3), or undefined when the service answers them itself. */
  downloadUrl(key: string, seconds: number): Promise<string | undefined>;
  /** The bytes, when the service answers them itself (local); undefined for an unknown key. */
  read(key: string): Promise<Uint8Array | undefined>;
  exists(key: string): Promise<boolean>;
  /** A direct upload the client may use instead of the API route (S3 presigned PUT), when the store has one. */
  directUpload(
    key: string,
    md5: string,
    seconds: number,
  ): Promise<{ url: string; method: 'PUT'; headers: Record<string, string> } | undefined>;
  /** Keeps files that documents took: the bucket expires files nobody attached. */
  markAttached(keys: string[]): Promise<void>;
}

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
