import { addCancellationDocument } from '#domain/auctions/document-commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** POST /api/2.x/auctions/{auctionId}/cancellations/{cancellationId}/documents: the auction owner adds e.g. its decision. */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const document = await addCancellationDocument(
      auctionsContext(req, id),
      req.params.auctionId,
      req.params.cancellationId,
      req.data,
    );
    return { status: 201, data: document, location: `${req.path}/${document.id}` };
  }),
);
