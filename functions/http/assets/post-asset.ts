import { createAsset } from '#domain/assets/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { assetsContext } from './context.ts';

/** POST /api/2.4/assets, /api/0.1/assets: a broker creates an asset in `draft` and receives its owner token once. */
export const handler = httpHandler(async (req) => {
  const { asset, token } = await createAsset(assetsContext(req), req.data);
  return { status: 201, data: asset, access: { token }, location: `${req.path}/${asset.id}` };
});
