import { patchAsset } from '#domain/assets/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { assetsContext } from './context.ts';

/** PATCH /api/2.4/assets/{assetId}, /api/0.1/assets/{assetId}: owner (token), concierge or admin, by the status machine. */
export const handler = httpHandler(async (req) => ({
  data: await patchAsset(assetsContext(req), req.params.assetId, req.data),
}));
