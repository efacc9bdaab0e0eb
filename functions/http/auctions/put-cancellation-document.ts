import { replaceCancellationDocument } from '#domain/auctions/document-commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** PUT /api/2.x/auctions/{auctionId}/cancellations/{cancellationId}/documents/{documentId}: a new version (same id and datePublished). */
export const handler = httpHandler(async (req) => ({
  data: await replaceCancellationDocument(
    auctionsContext(req),
    req.params.auctionId,
    req.params.cancellationId,
    req.params.documentId,
    req.data,
  ),
}));
