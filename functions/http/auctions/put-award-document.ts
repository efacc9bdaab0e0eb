import { replaceAwardDocument } from '#domain/auctions/document-commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** PUT /api/2.5/auctions/{auctionId}/awards/{awardId}/documents/{documentId}: a new version, by the document's author. */
export const handler = httpHandler(async (req) => ({
  data: await replaceAwardDocument(
    auctionsContext(req),
    req.params.auctionId,
    req.params.awardId,
    req.params.documentId,
    req.data,
  ),
}));
