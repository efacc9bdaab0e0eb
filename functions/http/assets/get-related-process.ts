import { getRelatedProcess } from '#domain/assets/reads.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { assetsReadContext } from './read-context.ts';

/** GET /api/2.4/assets/{assetId}/related_processes/{relatedProcessId} */
export const handler = httpHandler(async (req) => ({
  data: await getRelatedProcess(assetsReadContext(req), req.params.assetId, req.params.relatedProcessId),
}));
