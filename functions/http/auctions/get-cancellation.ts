import { cancellationView } from '#domain/auctions/cancellations.ts';
import { loadAuction } from '#domain/auctions/reads.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/** GET /api/2.x/auctions/{auctionId}/cancellations/{cancellationId}: with its documents. */
export const handler = httpHandler(async (req) => ({
  data: cancellationView(await loadAuction(auctionsReadContext(req), req.params.auctionId), req.params.cancellationId),
}));
