import { loadContractDocuments } from '#domain/auctions/reads.ts';
import { documentList } from '#domain/documents/documents.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/** GET /api/2.5/auctions/{auctionId}/contracts/{contractId}/documents: the current version of each contract document (`?all=1`: every version). */
export const handler = httpHandler(async (req) => {
  const { children, scope } = await loadContractDocuments(
    auctionsReadContext(req),
    req.params.auctionId,
    req.params.contractId,
  );
  return { data: documentList(children, req.query, scope) };
});
