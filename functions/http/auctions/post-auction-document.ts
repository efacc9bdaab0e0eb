import { addAuctionDocument } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from './context.ts';

/** POST /api/2.5/auctions/{auctionId}/documents: the owner adds a document (`documentOf: auction`). */
export const handler = httpHandler(async (req) => {
  const document = await addAuctionDocument(auctionsContext(req), req.params.auctionId, req.data);
  return { status: 201, data: document, location: `${req.path}/${document.id}` };
});
