import { updateContract } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** PATCH /api/2.5/auctions/{auctionId}/contracts/{contractId}: `dateSigned`, then `status: active` completes. */
export const handler = httpHandler(async (req) => ({
  data: await updateContract(auctionsContext(req), req.params.auctionId, req.params.contractId, req.data),
}));
