import { addRelatedProcess } from '#domain/assets/related-processes.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { assetsContext } from './context.ts';

/** POST /api/2.4/assets/{assetId}/related_processes (concierge): links the asset to a lot. */
export const handler = httpHandler(async (req) => {
  const process = await addRelatedProcess(assetsContext(req), req.params.assetId, req.data);
  return { status: 201, data: process, location: `${req.path}/${process.id}` };
});
