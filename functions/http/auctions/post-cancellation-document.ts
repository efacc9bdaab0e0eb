import { addCancellationDocument } from '#domain/auctions/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsContext } from './context.ts';

/** POST /api/2.x/auctions/{auctionId}/cancellations/{cancellationId}/documents: the auction owner adds e.g. its decision. */
export const handler = httpHandler(async (req) => {
  const document = await addCancellationDocument(
    auctionsContext(req),
    req.params.auctionId,
    req.params.cancellationId,
    req.data,
  );
  return { status: 201, data: document, location: `${req.path}/${document.id}` };
});
