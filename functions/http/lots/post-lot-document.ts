import { addLotDocument } from '#domain/lots/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { lotsContext } from './context.ts';

/** POST /api/0.1/lots/{lotId}/documents: the owner adds a document while the lot is `pending`. */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const document = await addLotDocument(lotsContext(req, id), req.params.lotId, req.data);
    return { status: 201, data: document, location: `/api/0.1/lots/${req.params.lotId}/documents/${document.id}` };
  }),
);
