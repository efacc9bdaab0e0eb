import { addAssetDocument } from '#domain/assets/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { assetsContext } from './context.ts';

/** POST /api/2.4/assets/{assetId}/documents (token in `X-Access-Token` or `acc_token`): the owner adds a document. */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const document = await addAssetDocument(assetsContext(req, id), req.params.assetId, req.data);
    return { status: 201, data: document, location: `${req.path}/${document.id}` };
  }),
);
