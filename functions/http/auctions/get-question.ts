import { loadAuction } from '#domain/auctions/reads.ts';
import { findQuestion, publicQuestion } from '#domain/auctions/questions.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/** GET /api/2.5/auctions/{auctionId}/questions/{questionId}. */
export const handler = httpHandler(async (req) => ({
  data: publicQuestion(
    findQuestion(await loadAuction(auctionsReadContext(req), req.params.auctionId), req.params.questionId).data,
  ),
}));
