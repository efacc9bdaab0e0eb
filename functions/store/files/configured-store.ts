import { resolve } from 'node:path';
import { config } from '#platform/config.ts';
import type { FileStore } from './file-store.ts';
import { folderStore } from './folder-store.ts';

let store: FileStore | undefined;

/** The document service's file store this deployment is configured with: S3 (`FILES_BUCKET`), else a folder. */
export function fileStore(): FileStore {
  if (!store) {
    const { filesBucket: bucket, filesDir } = config();
    store = bucket ? lazyS3(bucket) : folderStore(resolve(filesDir));
  }
  return store;
}

/** The S3 adapter and its SDK load at first use only, so functions that never touch a file never import them. */
function lazyS3(bucket: string): FileStore {
  const s3 = import('./s3-store.ts').then((m) => m.s3Store(bucket));
  return {
    put: async (...a) => (await s3).put(...a),
    downloadUrl: async (...a) => (await s3).downloadUrl(...a),
    read: async (...a) => (await s3).read(...a),
    exists: async (...a) => (await s3).exists(...a),
    directUpload: async (...a) => (await s3).directUpload(...a),
    markAttached: async (...a) => (await s3).markAttached(...a),
  };
}
