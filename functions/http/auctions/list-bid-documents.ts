import { listBidDocuments } from '#domain/auctions/reads.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/**
 * GET /api/2.3/auctions/{auctionId}/bids/{bidId}/documents: the current version of each bid document (`?all=1`:
 * every version), to the bid's owner (bid token), or to anyone once bids are disclosed.
 */
export const handler = httpHandler(async (req) => ({
  data: await listBidDocuments(auctionsReadContext(req), req.params.auctionId, req.params.bidId, req.query),
}));
