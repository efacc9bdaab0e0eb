import { loadAuction } from '#domain/auctions/reads.ts';
import { questionsOf } from '#domain/auctions/questions.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** GET /api/2.5/auctions/{auctionId}/questions. */
export const handler = httpHandler(async (req) => ({
  data: questionsOf(await loadAuction(auctionsContext(req), req.params.auctionId)),
}));
