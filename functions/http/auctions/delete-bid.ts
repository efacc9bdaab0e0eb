import { deleteBid } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** DELETE /api/2.5/auctions/{auctionId}/bids/{bidId}: the bid owner withdraws; the answer shows the bid. */
export const handler = httpHandler(async (req) => ({
  data: await deleteBid(auctionsContext(req), req.params.auctionId, req.params.bidId),
}));
