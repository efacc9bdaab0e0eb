import { addAuctionDocument } from '#domain/auctions/document-commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** POST /api/2.5/auctions/{auctionId}/documents: the owner adds a document (`documentOf: auction`). */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const document = await addAuctionDocument(auctionsContext(req, id), req.params.auctionId, req.data);
    return { status: 201, data: document, location: `${req.path}/${document.id}` };
  }),
);
