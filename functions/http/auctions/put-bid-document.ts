import { replaceBidDocument } from '#domain/auctions/document-commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** PUT /api/2.3/auctions/{auctionId}/bids/{bidId}/documents/{documentId}: the bid owner uploads a new version. */
export const handler = httpHandler(async (req) => ({
  data: await replaceBidDocument(
    auctionsContext(req),
    req.params.auctionId,
    req.params.bidId,
    req.params.documentId,
    req.data,
  ),
}));
