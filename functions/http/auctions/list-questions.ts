import { loadAuction } from '#domain/auctions/reads.ts';
import { questionsOf } from '#domain/auctions/questions.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/** GET /api/2.5/auctions/{auctionId}/questions. */
export const handler = httpHandler(async (req) => ({
  data: questionsOf(await loadAuction(auctionsReadContext(req), req.params.auctionId)),
}));
