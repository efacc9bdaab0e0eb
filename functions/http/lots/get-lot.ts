import { NotFoundError } from '#domain/kernel/errors.ts';
import { assertReadable } from '#domain/kernel/principal.ts';
import { lotView } from '#domain/lots/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { lotReader } from '#store/lot-repository.ts';

/** GET /api/0.1/lots/{lotId}: one Query for the lot and its documents. */
export const handler = httpHandler(async (req) => {
  const lot = await lotReader.get(req.params.lotId);
  if (!lot) throw new NotFoundError('lot_id');
  assertReadable(req.principal, lot.root, 'lot_id');
  return { data: lotView(lot) };
});
