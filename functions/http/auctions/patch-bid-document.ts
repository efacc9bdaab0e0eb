import { patchBidDocument } from '#domain/auctions/document-commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** PATCH /api/2.3/auctions/{auctionId}/bids/{bidId}/documents/{documentId}: the current version changes in place (bid owner). */
export const handler = httpHandler(async (req) => ({
  data: await patchBidDocument(
    auctionsContext(req),
    req.params.auctionId,
    req.params.bidId,
    req.params.documentId,
    req.data,
  ),
}));
