import { replaceContractDocument } from '#domain/auctions/document-commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** PUT /api/2.5/auctions/{auctionId}/contracts/{contractId}/documents/{documentId}: a new version (same id and datePublished). */
export const handler = httpHandler(async (req) => ({
  data: await replaceContractDocument(
    auctionsContext(req),
    req.params.auctionId,
    req.params.contractId,
    req.params.documentId,
    req.data,
  ),
}));
