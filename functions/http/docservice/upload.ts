import { assertNotEmpty, requireFiles, fileUrl, md5Hex, newFileKey } from '#domain/documents/docservice.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { fileStore } from '#store/files/configured-store.ts';

/** POST /api/docservice/upload (raw bytes): stores a file not registered before; answers its key, hash and `url`. */
export const handler = httpHandler(async (req) => {
  assertNotEmpty(req.bytes);
  const { keyring, docservice } = requireFiles(req.files);
  const key = newFileKey();
  const md5 = md5Hex(req.bytes);
  await fileStore().put(key, req.bytes, md5);
  const hash = `md5:${md5}`;
  return { data: { key, hash, url: fileUrl(keyring, docservice, key, hash) } };
});
