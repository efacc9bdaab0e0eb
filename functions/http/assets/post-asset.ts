import { createAsset } from '#domain/assets/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { assetsContext } from './context.ts';

/** POST /api/2.4/assets, /api/0.1/assets: a broker creates an asset in `draft` and receives its owner and transfer tokens once. */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const { asset, token, transfer } = await createAsset(assetsContext(req), req.data, id);
    return { status: 201, data: asset, access: { token, transfer }, location: `${req.path}/${asset.id}` };
  }),
);
