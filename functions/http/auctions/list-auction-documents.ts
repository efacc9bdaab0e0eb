import { loadAuction } from '#domain/auctions/commands.ts';
import { currentDocuments } from '#domain/documents/documents.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from './context.ts';

/** GET /api/2.5/auctions/{auctionId}/documents: the current version of each auction document. */
export const handler = httpHandler(async (req) => ({
  data: currentDocuments((await loadAuction(auctionsContext(req), req.params.auctionId)).children),
}));
