import { authorOf } from '#domain/kernel/principal.ts';
import { auctionOwnership } from '#domain/auctions/ownership.ts';
import { auctionView } from '#domain/auctions/view.ts';
import { draftFoundBy, readOwnershipData } from '#domain/transfers/transfer.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { AUCTION_KIND } from '#store/auction-repository.ts';
import { changeOwnership } from '#store/ownership.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** POST /api/2.5/auctions/{auctionId}/ownership: a broker takes the auction over with a transfer. */
export const handler = httpHandler(async (req) => {
  const data = readOwnershipData(req.data);
  return {
    data: auctionView(
      await changeOwnership(AUCTION_KIND, req.params.auctionId, data.id, auctionOwnership(auctionsContext(req), data), {
        at: req.now,
        by: authorOf(req.principal),
        found: draftFoundBy(req.principal, data, 'auction_id'),
      }),
    ),
  };
});
