import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { httpHandler } from '#http-kit/http-handler.ts';

/**
 * GET /api/openapi.json (public): the OpenAPI 3.1 document, generated from routes.ts and the body schemas.
 * In a Lambda it is the file lib/build.ts wrote beside the bundle (`openapi.json`, built from the same sources), so
 * the bundle carries neither the route table nor the schemas; run from the sources, it is generated at the first
 * request. Either way once per container.
 */
const SHIPPED = new URL('./openapi.json', import.meta.url);
let document: Promise<Buffer> | undefined;

async function load(): Promise<Buffer> {
  if (existsSync(SHIPPED)) return readFile(SHIPPED);
  const { openApiDocument } = await import('../../openapi/document.ts');
  return Buffer.from(JSON.stringify(openApiDocument()));
}

export const handler = httpHandler(async () => {
  document ??= load().catch((error) => {
    document = undefined;
    throw error;
  });
  return { file: { bytes: await document, contentType: 'application/json' } };
});
