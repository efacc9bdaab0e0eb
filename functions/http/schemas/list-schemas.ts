import { schemaDocument } from '#domain/schemas/documents.ts';
import { listSchemas } from '#domain/schemas/registry.ts';
import { httpHandler } from '#http-kit/http-handler.ts';

/** GET /api/schemas: the item schemas served read-only, one entry per family code and version. */
export const handler = httpHandler(async () => ({
  data: listSchemas().map((entry) => ({ ...entry, title: schemaDocument(entry).title })),
}));
