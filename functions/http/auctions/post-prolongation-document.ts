import { addProlongationDocument } from '#domain/auctions/document-commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** POST /api/2.3/auctions/{auctionId}/contracts/{contractId}/prolongations/{prolongationId}/documents: the prolongation's protocol (auction owner). */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const document = await addProlongationDocument(
      auctionsContext(req, id),
      req.params.auctionId,
      req.params.contractId,
      req.params.prolongationId,
      req.data,
    );
    return { status: 201, data: document, location: `${req.path}/${document.id}` };
  }),
);
