import { patchLot } from '#domain/lots/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { lotsContext } from './context.ts';

/** PATCH /api/0.1/lots/{lotId}: owner (token), concierge, convoy or admin, by the lot status machine. */
export const handler = httpHandler(async (req) => ({
  data: await patchLot(lotsContext(req), req.params.lotId, req.data),
}));
