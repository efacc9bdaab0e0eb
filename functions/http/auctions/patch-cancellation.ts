import { updateCancellation } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { periodsContext } from '#runtime/contexts.ts';

/** PATCH /api/2.x/auctions/{auctionId}/cancellations/{cancellationId}: the owner activates it; the auction is cancelled. */
export const handler = httpHandler(async (req) => ({
  data: await updateCancellation(await periodsContext(req), req.params.auctionId, req.params.cancellationId, req.data),
}));
