import { loadCancellationDocuments } from '#domain/auctions/reads.ts';
import { documentList } from '#domain/documents/documents.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/** GET /api/2.x/auctions/{auctionId}/cancellations/{cancellationId}/documents: the current version of each (`?all=1`: every version). */
export const handler = httpHandler(async (req) => {
  const { children, scope } = await loadCancellationDocuments(
    auctionsReadContext(req),
    req.params.auctionId,
    req.params.cancellationId,
  );
  return { data: documentList(children, req.query, scope) };
});
