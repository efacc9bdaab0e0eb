import { assertNotEmpty, checkUpload, requireFiles, fileUrl, md5Hex } from '#domain/documents/docservice.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { fileStore } from '#store/files/configured-store.ts';

/** PUT /api/docservice/upload/{key}?hash&KeyID&Signature (raw bytes): the bytes of a registered file, md5 checked. */
export const handler = httpHandler(async (req) => {
  assertNotEmpty(req.bytes);
  const { keyring, docservice } = requireFiles(req.files);
  const hash = checkUpload(keyring, req.params.key, req.query, req.bytes);
  await fileStore().put(req.params.key, req.bytes, md5Hex(req.bytes));
  return { data: { key: req.params.key, hash, url: fileUrl(keyring, docservice, req.params.key, hash) } };
});
