import { postAuctionResults } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { periodsContext, withParticipation } from '#runtime/contexts.ts';

/**
 * POST /api/2.5/auctions/{auctionId}/auction: the auction system reports the bids' final values; the answer shows
 * the active bids with their participation links, as the auction module's read does.
 */
export const handler = httpHandler(async (req) => ({
  data: await postAuctionResults(await withParticipation(await periodsContext(req)), req.params.auctionId, req.data),
}));
