import { loadBidDocuments } from '#domain/auctions/reads.ts';
import { documentRead } from '#domain/documents/documents.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/**
 * GET /api/2.5/auctions/{auctionId}/bids/{bidId}/documents/{documentId}: seen by whoever may see the bid (its token
 * while bids are hidden); `?download=` redirects to the file.
 */
export const handler = httpHandler(async (req) => {
  const { children, scope } = await loadBidDocuments(auctionsReadContext(req), req.params.auctionId, req.params.bidId);
  return documentRead(children, req.params.documentId, req.query, req.files, scope);
});
