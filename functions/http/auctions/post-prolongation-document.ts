import { addProlongationDocument } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from './context.ts';

/** POST /api/2.3/auctions/{auctionId}/contracts/{contractId}/prolongations/{prolongationId}/documents: the prolongation's protocol (auction owner). */
export const handler = httpHandler(async (req) => {
  const document = await addProlongationDocument(
    auctionsContext(req),
    req.params.auctionId,
    req.params.contractId,
    req.params.prolongationId,
    req.data,
  );
  return { status: 201, data: document, location: `${req.path}/${document.id}` };
});
