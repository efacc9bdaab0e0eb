import { updateContractProlongation } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { periodsContext } from '#runtime/contexts.ts';

/** PATCH /api/2.3/auctions/{auctionId}/contracts/{contractId}/prolongations/{prolongationId}: edit a draft, or apply it (the contract's signing period moves). */
export const handler = httpHandler(async (req) => ({
  data: await updateContractProlongation(
    await periodsContext(req),
    req.params.auctionId,
    req.params.contractId,
    req.params.prolongationId,
    req.data,
  ),
}));
