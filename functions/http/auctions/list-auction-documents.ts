import { loadAuction } from '#domain/auctions/reads.ts';
import { documentList } from '#domain/documents/documents.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/** GET /api/2.5/auctions/{auctionId}/documents: the current version of each auction document (`?all=1`: every version). */
export const handler = httpHandler(async (req) => ({
  data: documentList((await loadAuction(auctionsReadContext(req), req.params.auctionId)).children, req.query),
}));
