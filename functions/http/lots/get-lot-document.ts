import { NotFoundError } from '#domain/kernel/errors.ts';
import { documentRead } from '#domain/documents/documents.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { lotsReader } from './read-context.ts';

/** GET /api/0.1/lots/{lotId}/documents/{documentId}: the current version with `previousVersions`; `?download=` redirects. */
export const handler = httpHandler(async (req) => {
  const lot = await lotsReader(req).get(req.params.lotId);
  if (!lot) throw new NotFoundError('lot_id');
  return documentRead(lot.children, req.params.documentId, req.query, req.files);
});
