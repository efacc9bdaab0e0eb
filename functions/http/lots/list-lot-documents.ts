import { NotFoundError } from '#domain/kernel/errors.ts';
import { documentList } from '#domain/documents/documents.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { lotsReader } from './read-context.ts';

/** GET /api/0.1/lots/{lotId}/documents: the current version of each document (`?all=1`: every version, as upstream). */
export const handler = httpHandler(async (req) => {
  const lot = await lotsReader(req).get(req.params.lotId);
  if (!lot) throw new NotFoundError('lot_id');
  return { data: documentList(lot.children, req.query) };
});
