import { addContractProlongation } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** POST /api/2.3/auctions/{auctionId}/contracts/{contractId}/prolongations: the auction owner records a prolongation decision (`draft`). */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const prolongation = await addContractProlongation(
      auctionsContext(req, id),
      req.params.auctionId,
      req.params.contractId,
      req.data,
    );
    return { status: 201, data: prolongation, location: `${req.path}/${prolongation.id}` };
  }),
);
