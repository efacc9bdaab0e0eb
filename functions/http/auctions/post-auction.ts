import { createAuction } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { periodsContext } from '#runtime/contexts.ts';

/** POST /api/2.5/auctions: a broker creates an auction in `draft`; owner and transfer tokens are returned once. */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const { auction, token, transfer } = await createAuction(await periodsContext(req), req.data, id);
    return {
      status: 201,
      data: auction,
      access: { token, ...(transfer && { transfer }) },
      location: `${req.path}/${auction.id}`,
    };
  }),
);
