import { addRelatedProcess } from '#domain/assets/related-processes.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { assetsContext } from './context.ts';

/** POST /api/2.4/assets/{assetId}/related_processes (concierge): links the asset to a lot. */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const process = await addRelatedProcess(assetsContext(req, id), req.params.assetId, req.data);
    return { status: 201, data: process, location: `${req.path}/${process.id}` };
  }),
);
