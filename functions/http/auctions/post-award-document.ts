import { addAwardDocument } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from './context.ts';

/** POST /api/2.5/auctions/{auctionId}/awards/{awardId}/documents: the owner loads the auction protocol. */
export const handler = httpHandler(async (req) => {
  const document = await addAwardDocument(auctionsContext(req), req.params.auctionId, req.params.awardId, req.data);
  return { status: 201, data: document, location: `${req.path}/${document.id}` };
});
