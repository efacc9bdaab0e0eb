import { patchProlongationDocument } from '#domain/auctions/document-commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** PATCH /api/2.3/auctions/{auctionId}/contracts/{contractId}/prolongations/{prolongationId}/documents/{documentId}: the current version changes in place (auction owner). */
export const handler = httpHandler(async (req) => ({
  data: await patchProlongationDocument(
    auctionsContext(req),
    req.params.auctionId,
    req.params.contractId,
    req.params.prolongationId,
    req.params.documentId,
    req.data,
  ),
}));
