import { addQuestion } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from './context.ts';

/** POST /api/2.5/auctions/{auctionId}/questions: any broker asks while questions are open. */
export const handler = httpHandler(async (req) => {
  const question = await addQuestion(auctionsContext(req), req.params.auctionId, req.data);
  return { status: 201, data: question, location: `${req.path}/${question.id}` };
});
