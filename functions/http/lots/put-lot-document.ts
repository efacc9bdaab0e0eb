import { replaceLotDocument } from '#domain/lots/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { lotsContext } from './context.ts';

/** PUT /api/0.1/lots/{lotId}/documents/{documentId}: a new version (same id and datePublished). */
export const handler = httpHandler(async (req) => ({
  data: await replaceLotDocument(lotsContext(req), req.params.lotId, req.params.documentId, req.data),
}));
