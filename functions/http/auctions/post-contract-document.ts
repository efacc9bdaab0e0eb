import { addContractDocument } from '#domain/auctions/document-commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** POST /api/2.5/auctions/{auctionId}/contracts/{contractId}/documents: the auction owner adds e.g. the signed contract. */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const document = await addContractDocument(
      auctionsContext(req, id),
      req.params.auctionId,
      req.params.contractId,
      req.data,
    );
    return { status: 201, data: document, location: `${req.path}/${document.id}` };
  }),
);
