import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
