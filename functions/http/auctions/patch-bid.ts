import { patchBid } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from './context.ts';

/** PATCH /api/2.5/auctions/{auctionId}/bids/{bidId}: the bid owner moves it to `pending`, then `active`. */
export const handler = httpHandler(async (req) => ({
  data: await patchBid(auctionsContext(req), req.params.auctionId, req.params.bidId, req.data),
}));
