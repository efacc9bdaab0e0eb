import { getProlongation } from '#domain/auctions/reads.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/** GET /api/2.3/auctions/{auctionId}/contracts/{contractId}/prolongations/{prolongationId}: with its documents. */
export const handler = httpHandler(async (req) => ({
  data: await getProlongation(
    auctionsReadContext(req),
    req.params.auctionId,
    req.params.contractId,
    req.params.prolongationId,
  ),
}));
