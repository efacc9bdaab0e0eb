import { NotFoundError } from '#domain/kernel/errors.ts';
import { lotView } from '#domain/lots/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { revisionHeaders } from '#http-kit/revision-headers.ts';
import { lotsReader } from './read-context.ts';

/** GET /api/0.1/lots/{lotId}: one Query for the lot and its documents; its log's head in the headers. */
export const handler = httpHandler(async (req) => {
  const lot = await lotsReader(req).get(req.params.lotId);
  if (!lot) throw new NotFoundError('lot_id');
  return { data: lotView(lot), headers: revisionHeaders(lot.history) };
});
