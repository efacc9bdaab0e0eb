import { loadAuction } from '#domain/auctions/reads.ts';
import { documentRead } from '#domain/documents/documents.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/** GET /api/2.5/auctions/{auctionId}/documents/{documentId}: the current version with `previousVersions`; `?download=` redirects. */
export const handler = httpHandler(async (req) =>
  documentRead(
    (await loadAuction(auctionsReadContext(req), req.params.auctionId)).children,
    req.params.documentId,
    req.query,
    req.files,
  ),
);
