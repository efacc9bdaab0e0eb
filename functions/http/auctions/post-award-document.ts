import { addAwardDocument } from '#domain/auctions/document-commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { auctionsContext } from '#runtime/contexts.ts';

/** POST /api/2.5/auctions/{auctionId}/awards/{awardId}/documents: the owner loads the auction protocol. */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const document = await addAwardDocument(
      auctionsContext(req, id),
      req.params.auctionId,
      req.params.awardId,
      req.data,
    );
    return { status: 201, data: document, location: `${req.path}/${document.id}` };
  }),
);
