import { assetView, readAsset } from '#domain/assets/reads.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { revisionHeaders } from '#http-kit/revision-headers.ts';
import { assetsReadContext } from './read-context.ts';

/** GET /api/2.4/assets/{assetId}, /api/0.1/assets/{assetId}: one Query for the asset and its documents. */
export const handler = httpHandler(async (req) => {
  const asset = await readAsset(assetsReadContext(req), req.params.assetId);
  return { data: assetView(asset), headers: revisionHeaders(asset.history) };
});
