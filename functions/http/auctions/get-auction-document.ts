import { loadAuction } from '#domain/auctions/commands.ts';
import { documentWithHistory } from '#domain/documents/documents.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from './context.ts';

/** GET /api/2.5/auctions/{auctionId}/documents/{documentId}: the current version with `previousVersions`. */
export const handler = httpHandler(async (req) => ({
  data: documentWithHistory((await loadAuction(auctionsContext(req), req.params.auctionId)).children, req.params.documentId),
}));
