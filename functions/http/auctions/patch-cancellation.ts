import { updateCancellation } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from './context.ts';

/** PATCH /api/2.x/auctions/{auctionId}/cancellations/{cancellationId}: the owner activates it; the auction is cancelled. */
export const handler = httpHandler(async (req) => ({
  data: await updateCancellation(auctionsContext(req), req.params.auctionId, req.params.cancellationId, req.data),
}));
