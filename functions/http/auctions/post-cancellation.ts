import { addCancellation } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { periodsContext } from './context.ts';

/** POST /api/2.x/auctions/{auctionId}/cancellations: the auction owner asks to cancel, with a `reason`. */
export const handler = httpHandler(async (req) => {
  const cancellation = await addCancellation(periodsContext(req), req.params.auctionId, req.data);
  return { status: 201, data: cancellation, location: `${req.path}/${cancellation.id}` };
});
