import { patchBid } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext, withParticipation } from '#runtime/contexts.ts';

/**
 * PATCH /api/2.5/auctions/{auctionId}/bids/{bidId}: the bid owner moves it to `pending`, then `active`; a dgfInsider
 * bid made active gets its participation link at once.
 */
export const handler = httpHandler(async (req) => ({
  data: await patchBid(await withParticipation(auctionsContext(req)), req.params.auctionId, req.params.bidId, req.data),
}));
