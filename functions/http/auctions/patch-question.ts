import { answerQuestion } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** PATCH /api/2.5/auctions/{auctionId}/questions/{questionId}: the owner answers. */
export const handler = httpHandler(async (req) => ({
  data: await answerQuestion(auctionsContext(req), req.params.auctionId, req.params.questionId, req.data),
}));
