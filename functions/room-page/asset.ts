import { pageHandler } from '#http-kit/http-handler.ts';
import { readFile } from 'node:fs/promises';
import { notFound, type Event, type Result } from './http.ts';

/**
 * GET /room-page/{file} (public): the room page's own script, the modules it imports, its stylesheet and icon (assets/),
 * nothing from elsewhere. Read once per container; the names are a fixed list, so a path never reaches the file system.
 */
export const FILES: Record<string, string> = {
  'room.js': 'text/javascript; charset=utf-8',
  'words.js': 'text/javascript; charset=utf-8',
  'amounts.js': 'text/javascript; charset=utf-8',
  'stages.js': 'text/javascript; charset=utf-8',
  'texts.js': 'text/javascript; charset=utf-8',
  'broadcast.js': 'text/javascript; charset=utf-8',
  'room.css': 'text/css; charset=utf-8',
  'icon.svg': 'image/svg+xml',
};
const cache = new Map<string, Promise<Buffer>>();

export const handler = pageHandler(async (event: Event): Promise<Result> => {
  const name = event.pathParameters?.file ?? '';
  const type = FILES[name];
  if (!type) return notFound();
  if (!cache.has(name))
    cache.set(
      name,
      readFile(new URL(`./assets/${name}`, import.meta.url)).catch((error) => {
        cache.delete(name);
        throw error;
      }),
    );
  const bytes = await cache.get(name)!;
  return {
    statusCode: 200,
    headers: { 'content-type': type, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' },
    body: bytes.toString('base64'),
    isBase64Encoded: true,
  };
});
