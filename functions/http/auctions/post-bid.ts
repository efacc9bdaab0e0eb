import { addBid } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from './context.ts';

/** POST /api/2.5/auctions/{auctionId}/bids: a broker registers a bid in `draft` and gets its own token once. */
export const handler = httpHandler(async (req) => {
  const { bid, token } = await addBid(auctionsContext(req), req.params.auctionId, req.data);
  return { status: 201, data: bid, access: { token }, location: `${req.path}/${bid.id}` };
});
