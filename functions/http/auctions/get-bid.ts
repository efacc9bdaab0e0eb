import { getBid } from '#domain/auctions/reads.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext, withParticipation } from '#runtime/contexts.ts';

/** GET /api/2.5/auctions/{auctionId}/bids/{bidId}: with the bid token while bids are hidden. */
export const handler = httpHandler(async (req) => ({
  data: await getBid(await withParticipation(auctionsReadContext(req)), req.params.auctionId, req.params.bidId),
}));
