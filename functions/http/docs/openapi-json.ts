import { httpHandler } from '#http-kit/http-handler.ts';
import { openApiDocument } from '../../openapi/document.ts';

/** GET /api/openapi.json (public): the OpenAPI 3.1 document, generated from routes.ts and the body schemas. */
export const handler = httpHandler(async () => ({
  file: { bytes: Buffer.from(JSON.stringify(openApiDocument())), contentType: 'application/json' },
}));
