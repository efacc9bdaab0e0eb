import { deleteRelatedProcess } from '#domain/assets/related-processes.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { assetsContext } from './context.ts';

/** DELETE /api/2.4/assets/{assetId}/related_processes/{relatedProcessId} (concierge): answers `{"data": null}`, as upstream. */
export const handler = httpHandler(async (req) => {
  await deleteRelatedProcess(assetsContext(req), req.params.assetId, req.params.relatedProcessId);
  return { data: null };
});
