import { getAuction } from '#domain/auctions/reads.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/** GET /api/2.5/auctions/{auctionId}: the auction with its children, one Query; bids hidden while it runs. */
export const handler = httpHandler(async (req) => ({
  data: await getAuction(auctionsReadContext(req), req.params.auctionId),
}));
