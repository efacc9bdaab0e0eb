import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AwsCall, observeCall } from '../aws-calls.ts';
import type { FileStore } from './file-store.ts';

/**
 * What the S3 adapter (s3-store.ts) sends for the same operation, told to the tests' call observer (aws-calls.ts): the
 * folder stands in for the bucket, and the tests check those calls against each Lambda's role
 * (test/unit/store/s3-store-calls.test.ts shows the adapter sends exactly these).
 */
const asS3 = (command: string, key: string, input: Record<string, unknown> = {}) =>
  observeCall({ service: 'S3', command, input: { Key: `files/${key}`, ...input } } satisfies AwsCall);
const UNATTACHED_TAG = 'agora-attached=no';

/** Local folder adapter: `<dir>/<key>`; nothing expires locally. */
export function folderStore(dir: string): FileStore {
  const path = (key: string) => join(dir, key);
  return {
    async put(key, bytes) {
      asS3('PutObjectCommand', key, { Tagging: UNATTACHED_TAG });
      await mkdir(dir, { recursive: true });
      const temporary = `${path(key)}.${process.pid}.part`;
      await writeFile(temporary, bytes);
      await rename(temporary, path(key));
    },
    downloadUrl: async (key) => {
      asS3('GetObjectCommand', key);
      return undefined;
    },
    async read(key) {
      try {
        return await readFile(path(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    exists: (key) => {
      asS3('HeadObjectCommand', key);
      return stat(path(key)).then(
        () => true,
        () => false,
      );
    },
    directUpload: async (key) => {
      asS3('PutObjectCommand', key, { Tagging: UNATTACHED_TAG });
      return undefined;
    },
    markAttached: async (keys) => {
      for (const key of keys) asS3('PutObjectTaggingCommand', key);
    },
  };
}
