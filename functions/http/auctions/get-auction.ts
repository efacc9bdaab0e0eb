import { readAuction } from '#domain/auctions/reads.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { revisionHeaders } from '#http-kit/revision-headers.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/** GET /api/2.5/auctions/{auctionId}: the auction with its children, one Query (bids hidden while it runs); its log's head. */
export const handler = httpHandler(async (req) => {
  const { view, head } = await readAuction(auctionsReadContext(req), req.params.auctionId);
  return { data: view, headers: revisionHeaders(head) };
});
