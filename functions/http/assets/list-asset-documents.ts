import { readAsset } from '#domain/assets/reads.ts';
import { documentList } from '#domain/documents/documents.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { assetsReadContext } from './read-context.ts';

/** GET /api/2.4/assets/{assetId}/documents: the current version of each document (`?all=1`: every version, as upstream). */
export const handler = httpHandler(async (req) => ({
  data: documentList((await readAsset(assetsReadContext(req), req.params.assetId)).children, req.query),
}));
