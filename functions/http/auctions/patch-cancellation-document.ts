import { patchCancellationDocument } from '#domain/auctions/document-commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** PATCH /api/2.x/auctions/{auctionId}/cancellations/{cancellationId}/documents/{documentId}: the current version changes in place (auction owner). */
export const handler = httpHandler(async (req) => ({
  data: await patchCancellationDocument(
    auctionsContext(req),
    req.params.auctionId,
    req.params.cancellationId,
    req.params.documentId,
    req.data,
  ),
}));
