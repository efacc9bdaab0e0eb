import { replaceAuctionDocument } from '#domain/auctions/document-commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** PUT /api/2.5/auctions/{auctionId}/documents/{documentId}: a new version (same id and datePublished). */
export const handler = httpHandler(async (req) => ({
  data: await replaceAuctionDocument(auctionsContext(req), req.params.auctionId, req.params.documentId, req.data),
}));
