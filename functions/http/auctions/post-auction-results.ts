import { postAuctionResults } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { periodsContext } from './context.ts';

/** POST /api/2.5/auctions/{auctionId}/auction: the auction system reports the bids' final values. */
export const handler = httpHandler(async (req) => ({
  data: await postAuctionResults(periodsContext(req), req.params.auctionId, req.data),
}));
