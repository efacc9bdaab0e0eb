import { addBid } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { auctionsContext, withParticipation } from '#runtime/contexts.ts';

/**
 * POST /api/2.5/auctions/{auctionId}/bids: a broker registers a bid and gets its own token once; a dgfInsider bid
 * created active carries its participation link at once (keyed with the participation secret).
 */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const { bid, token } = await addBid(
      await withParticipation(auctionsContext(req, id)),
      req.params.auctionId,
      req.data,
    );
    return { status: 201, data: bid, access: { token }, location: `${req.path}/${bid.id}` };
  }),
);
