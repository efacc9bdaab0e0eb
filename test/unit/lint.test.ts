import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

// CI runs only `npm test`: this is where the format and lint rules of biome.jsonc are enforced.
it('passes `npm run lint` (Biome: formatted, no lint error or warning)', () => {
  const script = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.lint as string;
  const [bin, ...args] = script.split(' ');
  expect(bin).toBe('biome');
  // The local binary (a platform package of @biomejs/biome), with the script's own arguments.
  const run = spawnSync(join(ROOT, 'node_modules/.bin/biome'), [...args, '--colors=off', '--max-diagnostics=50'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 60_000,
  });
  const report = `${run.stdout}\n${run.stderr}\n(fix with \`npm run format\`, then by hand for what remains)`;
  expect(run.error, report).toBeUndefined();
  expect(run.status, report).toBe(0);
  expect(report, report).toMatch(/Checked \d+ files/);
}, 90_000);
