import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every script of package.json, read from it (a new script without `--help` fails here), answers `--help` and `-h`
 * with its usage and does nothing else: exit 0 at once, and no file of the repository made or touched (`npm run build
 * -- --help` once built 125 Lambdas into ./--help; `npm start`, `bench` ran; `generate` rewrote its files). Scripts that
 * are a tool's command line (vitest, tsc, biome, cdk) answer with the tool's own help.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const scripts = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as object);

/** Every file of the repository (not node_modules, not .git) and when it last changed. */
function files(dir = ROOT, out = new Map<string, number>()): Map<string, number> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (dir === ROOT && (entry.name === 'node_modules' || entry.name === '.git')) continue;
    // The AWS calls the other test files of this run record as they go (test/support/aws/calls.ts).
    if (entry.name.startsWith('aws-calls-')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files(path, out);
    else out.set(path, statSync(path).mtimeMs);
  }
  return out;
}

/** `npm run -s <script> -- <flag>` in its own process group, killed whole if it has not exited within 60 s. */
function npmRun(script: string, flag: string): Promise<{ code: number | string; out: string }> {
  return new Promise((done) => {
    const child = spawn('npm', ['run', '-s', script, '--', flag], {
      cwd: ROOT,
      detached: true,
      // Were --help ignored: no port, data or lock of a developer's npm start is touched.
      env: { ...process.env, PORT: '0', AGORA_IN_MEMORY: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 60_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code: code ?? `killed (${signal}): it did not stop`, out });
    });
  });
}

describe('npm run <script> -- --help | -h', () => {
  it('covers the scripts of package.json', () => {
    expect(scripts.length).toBeGreaterThan(20);
  });

  it.each(scripts.flatMap((script) => ['--help', '-h'].map((flag) => [script, flag])))(
    'npm run %s -- %s: its usage, exit 0, nothing written',
    async (script, flag) => {
      const before = files();
      const r = await npmRun(script!, flag!);
      expect(r.code, r.out).toBe(0);
      expect(r.out, 'a usage').toMatch(/usage|options/i);
      const after = files();
      const changed = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f));
      expect(changed, 'files made or changed').toEqual([]);
    },
    90_000,
  );
});
