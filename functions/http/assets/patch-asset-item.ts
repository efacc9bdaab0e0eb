import { patchAssetItem } from '#domain/assets/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { assetsContext } from './context.ts';

/** PATCH /api/2.4/assets/{assetId}/items/{itemId} (token in `X-Access-Token` or `acc_token`): returns the item. */
export const handler = httpHandler(async (req) => ({
  data: await patchAssetItem(assetsContext(req), req.params.assetId, req.params.itemId, req.data),
}));
