import { addQuestion } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** POST /api/2.5/auctions/{auctionId}/questions: any broker asks while questions are open. */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const question = await addQuestion(auctionsContext(req, id), req.params.auctionId, req.data);
    return { status: 201, data: question, location: `${req.path}/${question.id}` };
  }),
);
