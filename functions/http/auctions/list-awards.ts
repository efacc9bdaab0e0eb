import { awardsOf } from '#domain/auctions/awarding.ts';
import { loadAuction } from '#domain/auctions/reads.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/** GET /api/2.5/auctions/{auctionId}/awards. */
export const handler = httpHandler(async (req) => ({
  data: awardsOf(await loadAuction(auctionsReadContext(req), req.params.auctionId)),
}));
