import { listRelatedProcesses } from '#domain/assets/related-processes.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { assetsContext } from './context.ts';

/** GET /api/2.4/assets/{assetId}/related_processes */
export const handler = httpHandler(async (req) => ({
  data: await listRelatedProcesses(assetsContext(req), req.params.assetId),
}));
