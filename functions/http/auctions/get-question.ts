import { loadAuction } from '#domain/auctions/reads.ts';
import { findQuestion, publicQuestion } from '#domain/auctions/questions.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** GET /api/2.5/auctions/{auctionId}/questions/{questionId}. */
export const handler = httpHandler(async (req) => ({
  data: publicQuestion(
    findQuestion(await loadAuction(auctionsContext(req), req.params.auctionId), req.params.questionId).data,
  ),
}));
