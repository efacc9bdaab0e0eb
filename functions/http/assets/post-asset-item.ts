import { addAssetItem } from '#domain/assets/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { assetsContext } from './context.ts';

/** POST /api/2.4/assets/{assetId}/items (owner's token): adds an item; returns it with its Location. */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const item = await addAssetItem(assetsContext(req, id), req.params.assetId, req.data);
    return { status: 201, data: item, location: `${req.path}/${item.id}` };
  }),
);
