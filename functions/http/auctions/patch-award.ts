import { updateAward } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { periodsContext } from '#runtime/contexts.ts';

/** PATCH /api/2.5/auctions/{auctionId}/awards/{awardId}: the owner activates the award after the protocol. */
export const handler = httpHandler(async (req) => ({
  data: await updateAward(await periodsContext(req), req.params.auctionId, req.params.awardId, req.data),
}));
