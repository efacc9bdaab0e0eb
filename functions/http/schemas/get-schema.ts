import { NotFoundError } from '#domain/kernel/errors.ts';
import { schemaDocument } from '#domain/schemas/documents.ts';
import { findSchema } from '#domain/schemas/registry.ts';
import { httpHandler } from '#http-kit/http-handler.ts';

/**
 * GET /api/schemas/{code}[?version=001|latest]: the JSON Schema (draft-04) of the most specific family whose code
 * prefixes `code` (a classification id such as `06110000-6`, or a bare code such as `0611`). None: 404.
 */
export const handler = httpHandler(async (req) => {
  const family = findSchema(req.params.code);
  if (!family) throw new NotFoundError('code');
  const entry = findSchema(req.params.code, req.query.version);
  if (!entry) throw new NotFoundError('version', 'querystring');
  return { data: schemaDocument(entry) };
});
