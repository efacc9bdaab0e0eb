import { requireFiles, registerFile } from '#domain/documents/docservice.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { fileStore } from '#store/files/configured-store.ts';

/**
 * POST /api/docservice/register `{data:{hash}}`: a key for a file of that md5, its signed `url` (what the APIs
 * accept) and its `upload_url`; in AWS also `direct_upload`, a presigned S3 PUT for files past the API's body limit.
 */
export const handler = httpHandler(async (req) => {
  const { keyring, docservice } = requireFiles(req.files);
  const file = registerFile(keyring, docservice, req.data);
  const direct = await fileStore().directUpload(file.key, file.hash.slice(4), 3600);
  return { status: 201, data: { ...file, ...(direct && { direct_upload: direct }) } };
});
