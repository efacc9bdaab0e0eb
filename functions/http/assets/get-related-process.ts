import { getRelatedProcess } from '#domain/assets/related-processes.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { assetsContext } from './context.ts';

/** GET /api/2.4/assets/{assetId}/related_processes/{relatedProcessId} */
export const handler = httpHandler(async (req) => ({
  data: await getRelatedProcess(assetsContext(req), req.params.assetId, req.params.relatedProcessId),
}));
