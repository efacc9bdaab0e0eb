import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every script of package.json, read from it (a new script without `--help` fails here), answers `--help` and `-h`
 * with its usage and does nothing else: exit 0 at once, and no file of the repository made or touched (`npm run build
 * -- --help` once built 125 Lambdas into ./--help; `npm start`, `bench` ran; `generate` rewrote its files). Scripts that
 * are a tool's command line (vitest, tsc, biome, cdk) answer with the tool's own help.
 *
 * Each script line runs as `npm run` runs it (sh -c, the flag appended, node_modules/.bin first on PATH), not through
 * npm itself: npm's own start is half a second of CPU each, 47 times. The last test checks once through npm that both
 * give the same answer.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;

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

/** `command args` in its own process group, killed whole if it has not exited within 60 s. */
function run(command: string, args: string[]): Promise<{ code: number | string; out: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      detached: true,
      env: {
        ...process.env,
        // As npm run: the project's own binaries (tsx, vitest, cdk...) first.
        PATH: [join(ROOT, 'node_modules', '.bin'), process.env.PATH].join(delimiter),
        // Were --help ignored: no port, data or lock of a developer's npm start is touched.
        PORT: '0',
        AGORA_IN_MEMORY: '1',
      },
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

/** `npm run <script> -- <flag>` without npm: its line in sh with the flag appended, as npm runs it. */
const runScript = (script: string, flag: string) => run('sh', ['-c', `${scripts[script]} "$@"`, 'sh', flag]);

// Concurrent: each test's own before and after bracket its own script, so a write is still caught by its test.
describe.concurrent('npm run <script> -- --help | -h', () => {
  it('covers the scripts of package.json', () => {
    expect(Object.keys(scripts).length).toBeGreaterThan(20);
  });

  it.each(Object.keys(scripts).flatMap((script) => ['--help', '-h'].map((flag) => [script, flag])))(
    'npm run %s -- %s: its usage, exit 0, nothing written',
    async (script, flag) => {
      const before = files();
      const r = await runScript(script!, flag!);
      expect(r.code, r.out).toBe(0);
      expect(r.out, 'a usage').toMatch(/usage|options/i);
      const after = files();
      const changed = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f));
      expect(changed, 'files made or changed').toEqual([]);
    },
    90_000,
  );

  it('npm run gives a script the flag as the line above does (npm run -s bot -- --help, the same usage)', async () => {
    const [viaNpm, direct] = await Promise.all([
      run('npm', ['run', '-s', 'bot', '--', '--help']),
      runScript('bot', '--help'),
    ]);
    expect(viaNpm.code, viaNpm.out).toBe(0);
    expect(viaNpm.out).toMatch(/usage/i);
    expect(viaNpm.out).toBe(direct.out);
  }, 90_000);
});
