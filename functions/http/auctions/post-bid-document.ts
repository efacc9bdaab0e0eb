import { addBidDocument } from '#domain/auctions/document-commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** POST /api/2.5/auctions/{auctionId}/bids/{bidId}/documents: the bid owner adds e.g. `eligibilityDocuments`. */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const document = await addBidDocument(auctionsContext(req, id), req.params.auctionId, req.params.bidId, req.data);
    return { status: 201, data: document, location: `${req.path}/${document.id}` };
  }),
);
