import { documentScope } from '#domain/auctions/auction.ts';
import { assertBidDocumentsReadable, BID } from '#domain/auctions/bids.ts';
import { loadAuction } from '#domain/auctions/commands.ts';
import { definitionOf } from '#domain/auctions/registry.ts';
import { documentRead } from '#domain/documents/documents.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from './context.ts';

/**
 * GET /api/2.5/auctions/{auctionId}/bids/{bidId}/documents/{documentId}: seen by whoever may see the bid (its token
 * while bids are hidden); `?download=` redirects to the file.
 */
export const handler = httpHandler(async (req) => {
  const auction = await loadAuction(auctionsContext(req), req.params.auctionId);
  assertBidDocumentsReadable(
    auction,
    req.params.bidId,
    req.principal,
    definitionOf(auction.root).statuses.bidsHidden,
    'document',
  );
  return documentRead(
    auction.children,
    req.params.documentId,
    req.query,
    req.files,
    documentScope(BID, req.params.bidId),
  );
});
