import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { FILES } from '../../../functions/room-page/asset.ts';

const ASSETS = resolve(import.meta.dirname, '../../../functions/room-page/assets');

it('serves every file of the room page’s folder, each module the script imports among them', () => {
  expect(Object.keys(FILES).sort()).toEqual(readdirSync(ASSETS).sort());
  const imported = readdirSync(ASSETS)
    .filter((f) => f.endsWith('.js'))
    .flatMap((f) => [...readFileSync(join(ASSETS, f), 'utf8').matchAll(/from '\.\/([\w-]+\.js)'/g)].map(([, m]) => m));
  expect(imported.length).toBeGreaterThan(0);
  for (const module of imported) expect(FILES[module], module).toBe('text/javascript; charset=utf-8');
});
