import { patchAuction } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { periodsContext } from '#runtime/contexts.ts';

/** PATCH /api/2.5/auctions/{auctionId}: the owner commits the draft or edits during rectification. */
export const handler = httpHandler(async (req) => ({
  data: await patchAuction(await periodsContext(req), req.params.auctionId, req.data),
}));
