import { getBid } from '#domain/auctions/reads.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { participationSecret } from '#store/participation-secret.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** GET /api/2.5/auctions/{auctionId}/bids/{bidId}: with the bid token while bids are hidden. */
export const handler = httpHandler(async (req) => ({
  data: await getBid(
    { ...auctionsContext(req), participationSecret: await participationSecret() },
    req.params.auctionId,
    req.params.bidId,
  ),
}));
