import { listRevisions } from '#domain/history/revisions.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { revisionReader } from '#store/revisions.ts';

/**
 * GET .../auctions/{auctionId}/revisions: the auction's change log, oldest first, paged (`offset`, `limit`); one Query,
 * two when the page alone cannot tell whether it may be shown (domain/history/revisions.ts).
 */
export const handler = httpHandler(async (req) => ({
  extra: await listRevisions(revisionReader, {
    kind: 'AUCTION',
    notFound: 'auction_id',
    id: req.params.auctionId,
    type: req.type,
    query: req.query,
    principal: req.principal,
    path: req.path,
    baseUrl: req.baseUrl,
  }),
}));
