import { cancellationsOf } from '#domain/auctions/cancellations.ts';
import { loadAuction } from '#domain/auctions/reads.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/** GET /api/2.x/auctions/{auctionId}/cancellations. */
export const handler = httpHandler(async (req) => ({
  data: cancellationsOf(await loadAuction(auctionsReadContext(req), req.params.auctionId)),
}));
