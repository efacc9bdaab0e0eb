import { listProlongations } from '#domain/auctions/reads.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/** GET /api/2.3/auctions/{auctionId}/contracts/{contractId}/prolongations: the prolongations of a contract, as made. */
export const handler = httpHandler(async (req) => ({
  data: await listProlongations(auctionsReadContext(req), req.params.auctionId, req.params.contractId),
}));
