import { addAssetDecision } from '#domain/assets/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { assetsContext } from './context.ts';

/** POST /api/2.4/assets/{assetId}/decisions (owner's token): adds a decision; returns it with its Location. */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const decision = await addAssetDecision(assetsContext(req, id), req.params.assetId, req.data);
    return { status: 201, data: decision, location: `${req.path}/${decision.id}` };
  }),
);
