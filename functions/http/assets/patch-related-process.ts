import { patchRelatedProcess } from '#domain/assets/related-processes.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { assetsContext } from './context.ts';

/** PATCH /api/2.4/assets/{assetId}/related_processes/{relatedProcessId} (concierge) */
export const handler = httpHandler(async (req) => ({
  data: await patchRelatedProcess(assetsContext(req), req.params.assetId, req.params.relatedProcessId, req.data),
}));
