import { loadAwardDocuments } from '#domain/auctions/reads.ts';
import { documentRead } from '#domain/documents/documents.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/** GET /api/2.5/auctions/{auctionId}/awards/{awardId}/documents/{documentId}: with `previousVersions`; `?download=` redirects. */
export const handler = httpHandler(async (req) => {
  const { children, scope } = await loadAwardDocuments(
    auctionsReadContext(req),
    req.params.auctionId,
    req.params.awardId,
  );
  return documentRead(children, req.params.documentId, req.query, req.files, scope);
});
