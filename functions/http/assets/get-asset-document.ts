import { readAsset } from '#domain/assets/reads.ts';
import { documentRead } from '#domain/documents/documents.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { assetsReadContext } from './read-context.ts';

/** GET /api/2.4/assets/{assetId}/documents/{documentId}: the current version with `previousVersions`; `?download=` redirects. */
export const handler = httpHandler(async (req) => {
  const asset = await readAsset(assetsReadContext(req), req.params.assetId);
  return documentRead(asset.children, req.params.documentId, req.query, req.files);
});
