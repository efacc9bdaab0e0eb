import { getAuctionForModule } from '#domain/auctions/reads.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext, withParticipation } from '#runtime/contexts.ts';

/** GET /api/2.5/auctions/{auctionId}/auction: the auction system reads the procedure and its active bids. */
export const handler = httpHandler(async (req) => ({
  data: await getAuctionForModule(await withParticipation(auctionsReadContext(req)), req.params.auctionId),
}));
