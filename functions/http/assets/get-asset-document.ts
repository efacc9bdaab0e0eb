import { readAsset } from '#domain/assets/commands.ts';
import { documentRead } from '#domain/documents/documents.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { assetsContext } from './context.ts';

/** GET /api/2.4/assets/{assetId}/documents/{documentId}: the current version with `previousVersions`; `?download=` redirects. */
export const handler = httpHandler(async (req) => {
  const asset = await readAsset(assetsContext(req), req.params.assetId);
  return documentRead(asset.children, req.params.documentId, req.query, req.files);
});
