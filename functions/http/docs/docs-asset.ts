import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { NotFoundError } from '#domain/kernel/errors.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { SWAGGER_UI_FILES } from '../../swagger-ui-files.ts';

/**
 * GET /api/docs/{file} (public): a file of swagger-ui-dist (only those of SWAGGER_UI_FILES), read from the package.
 * Locally it is resolved in node_modules; in Lambda the same resolution finds the copies the bundling put next to the
 * bundle (`node_modules/swagger-ui-dist/...`, lib/app-function.ts `files`). Read once per container.
 */
const packages = createRequire(import.meta.url);
const TYPES: Record<string, string> = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8' };
const cache = new Map<string, Promise<Buffer>>();

export const handler = httpHandler(async (req) => {
  const name = req.params.file;
  const file = SWAGGER_UI_FILES.find((f) => f === `swagger-ui-dist/${name}`);
  if (!file) throw new NotFoundError('file');
  if (!cache.has(file))
    cache.set(
      file,
      readFile(packages.resolve(file)).catch((error) => {
        cache.delete(file);
        throw error;
      }),
    );
  const bytes = await cache.get(file)!;
  return { file: { bytes, contentType: TYPES[name.slice(name.lastIndexOf('.') + 1)] } };
});
