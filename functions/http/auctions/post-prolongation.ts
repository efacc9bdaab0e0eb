import { addContractProlongation } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from './context.ts';

/** POST /api/2.3/auctions/{auctionId}/contracts/{contractId}/prolongations: the auction owner records a prolongation decision (`draft`). */
export const handler = httpHandler(async (req) => {
  const prolongation = await addContractProlongation(
    auctionsContext(req),
    req.params.auctionId,
    req.params.contractId,
    req.data,
  );
  return { status: 201, data: prolongation, location: `${req.path}/${prolongation.id}` };
});
