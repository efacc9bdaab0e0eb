import { addCancellation } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { periodsContext } from '#runtime/contexts.ts';

/** POST /api/2.x/auctions/{auctionId}/cancellations: the auction owner asks to cancel, with a `reason`. */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const cancellation = await addCancellation(await periodsContext(req, id), req.params.auctionId, req.data);
    return { status: 201, data: cancellation, location: `${req.path}/${cancellation.id}` };
  }),
);
