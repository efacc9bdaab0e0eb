import { addBidDocument } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from './context.ts';

/** POST /api/2.5/auctions/{auctionId}/bids/{bidId}/documents: the bid owner adds e.g. `eligibilityDocuments`. */
export const handler = httpHandler(async (req) => {
  const document = await addBidDocument(auctionsContext(req), req.params.auctionId, req.params.bidId, req.data);
  return { status: 201, data: document, location: `${req.path}/${document.id}` };
});
