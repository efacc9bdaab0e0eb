import { loadCancellationDocuments } from '#domain/auctions/reads.ts';
import { documentRead } from '#domain/documents/documents.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/** GET /api/2.x/auctions/{auctionId}/cancellations/{cancellationId}/documents/{documentId}: with `previousVersions`; `?download=` redirects. */
export const handler = httpHandler(async (req) => {
  const { children, scope } = await loadCancellationDocuments(
    auctionsReadContext(req),
    req.params.auctionId,
    req.params.cancellationId,
  );
  return documentRead(children, req.params.documentId, req.query, req.files, scope);
});
