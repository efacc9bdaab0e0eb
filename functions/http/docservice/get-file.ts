import { checkDownload, requireFiles, TEMPORARY_LINK_SECONDS } from '#domain/documents/docservice.ts';
import { NotFoundError } from '#domain/kernel/errors.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { fileStore } from '#store/files/configured-store.ts';

/**
 * GET /api/docservice/get/{key}?KeyID&Signature&Expires (public: the signature is the credential): 302 to a
 * short-lived presigned S3 GET in AWS; the bytes themselves locally.
 */
export const handler = httpHandler(async (req) => {
  const { keyring, nowSeconds } = requireFiles(req.files);
  const key = req.params.key;
  checkDownload(keyring, key, req.query, nowSeconds);
  const files = fileStore();
  const redirect = await files.downloadUrl(key, TEMPORARY_LINK_SECONDS);
  if (redirect) return { redirect };
  const bytes = await files.read(key);
  if (!bytes) throw new NotFoundError('key');
  return { file: { bytes, contentType: 'application/octet-stream' } };
});
