import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../lib/local/dynamodb-local.ts';
import { isAlive, portFree } from '../../lib/local/preflight.ts';
import { aLot } from '../support/builders.ts';

/**
 * `npm start` as a process manager, CI or a container runs it: SIGTERM or SIGINT to npm, to the server (bin/serve.ts)
 * or to the whole process group stops npm, the server and DynamoDB Local's JVM within 5 s, frees the port and removes
 * the lock. Each case runs the real `npm start` (package.json's script) in a folder of its own, so its `.agora` is
 * its own: the package.json is copied, node_modules and bin are links to this checkout.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const STOP_WITHIN_MS = 5_000;

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agora-signals-'));
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  symlinkSync(join(ROOT, 'bin'), join(dir, 'bin'));
  return dir;
}

/** Every descendant of pid, with its command line (from `ps`). */
function descendants(pid: number): { pid: number; command: string }[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m) => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), command: m[3] }));
  const found: { pid: number; command: string }[] = [];
  const walk = (parent: number) => {
    for (const row of rows.filter((r) => r.ppid === parent)) {
      found.push({ pid: row.pid, command: row.command });
      walk(row.pid);
    }
  };
  walk(pid);
  return found;
}

/** This run's environment without the test table's settings: the server starts its own DynamoDB Local. */
function environment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.DYNAMODB_ENDPOINT;
  delete env.TABLE_NAME;
  return env;
}

async function start(dir: string, port: number, onDisk = false): Promise<ChildProcess & { output: () => string }> {
  const npm = spawn('npm', ['start'], {
    cwd: dir,
    detached: true, // its own process group, as a terminal or a process manager gives it
    env: {
      ...environment(),
      PORT: String(port),
      AGORA_IN_MEMORY: onDisk ? undefined : '1',
      BOTS_INTERVAL_MS: '60000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((ready, failed) => {
    const timer = setTimeout(() => failed(new Error(`npm start did not serve within 60 s:\n${output}`)), 60_000);
    const watch = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`Agora is serving on http://127.0.0.1:${port}`)) {
        clearTimeout(timer);
        ready();
      }
    };
    npm.stdout?.on('data', watch);
    npm.stderr?.on('data', watch);
    npm.once('exit', (code) => failed(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  return Object.assign(npm, { output: () => output });
}

/** The DynamoDB Local JVMs running on a data folder. */
const jvmsOn = (dir: string) =>
  execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => /java .*DynamoDBLocal\.jar/.test(line) && line.includes(`-dbPath .agora/dynamodb`))
    .map((line) => Number(line.trim().split(' ')[0]))
    .filter((pid) => {
      try {
        return execFileSync('readlink', [`/proc/${pid}/cwd`], { encoding: 'utf8' }).trim() === dir;
      } catch {
        return false;
      }
    });

async function waitUntil(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

let leftovers: number[] = [];
let dirs: string[] = [];
afterEach(() => {
  for (const pid of leftovers) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  leftovers = [];
  dirs = [];
});

describe('npm start stops on a signal', () => {
  const targets = ['npm', 'server', 'group'] as const;
  const cases = (['SIGTERM', 'SIGINT'] as const).flatMap((signal) => targets.map((target) => ({ signal, target })));

  it.each(cases)(
    '$signal to the $target stops npm, the server and the JVM',
    async ({ signal, target }) => {
      const dir = folder();
      dirs.push(dir);
      const port = await freePort();
      const npm = await start(dir, port);
      const children = descendants(npm.pid!);
      const server = children.find((c) => c.command.includes('bin/serve.ts'));
      expect(server, JSON.stringify(children)).toBeDefined();
      expect(children.some((c) => /^java .*DynamoDBLocal\.jar/.test(c.command))).toBe(true);
      const all = [npm.pid!, ...children.map((c) => c.pid)];
      leftovers = all;
      expect(existsSync(join(dir, '.agora/lock'))).toBe(true);

      if (target === 'npm') process.kill(npm.pid!, signal);
      if (target === 'server') process.kill(server!.pid, signal);
      if (target === 'group') process.kill(-npm.pid!, signal);

      const stopped = await waitUntil(() => all.every((pid) => !isAlive(pid)), STOP_WITHIN_MS);
      expect(stopped, `still running: ${all.filter(isAlive).join(', ')}`).toBe(true);
      expect(await portFree(port)).toBe(true);
      expect(existsSync(join(dir, '.agora/lock'))).toBe(false);
      expect(existsSync(join(dir, '.agora/local.json'))).toBe(false);
    },
    90_000,
  );
});

describe('npm start after the server was killed (SIGKILL)', () => {
  it('stops the JVM the killed server left, takes its lock over and serves the same data with one JVM', async () => {
    const dir = folder();
    dirs.push(dir);
    const port = await freePort();
    const first = await start(dir, port, true);
    const server = descendants(first.pid!).find((c) => c.command.includes('bin/serve.ts'))!;
    const [orphan] = jvmsOn(dir);
    expect(orphan).toBeGreaterThan(0);
    leftovers = [first.pid!, server.pid, orphan];
    const made = await fetch(`http://127.0.0.1:${port}/api/0.1/lots`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa('broker:')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: aLot({ title: 'Kept across a SIGKILL' }) }),
    });
    expect(made.status).toBe(201);
    const created = ((await made.json()) as { data: { id: string } }).data.id;

    process.kill(server.pid, 'SIGKILL'); // no handler runs: the JVM and the lock stay behind
    expect(await waitUntil(() => !isAlive(server.pid), 5_000)).toBe(true);
    expect(isAlive(orphan)).toBe(true);
    expect(existsSync(join(dir, '.agora/lock'))).toBe(true);
    if (isAlive(first.pid!)) process.kill(first.pid!, 'SIGKILL');

    const again = await start(dir, port, true);
    leftovers.push(again.pid!, ...descendants(again.pid!).map((c) => c.pid));
    expect(again.output()).toContain(`Stopped DynamoDB Local (pid ${orphan}) left by an npm start that was killed`);
    expect(isAlive(orphan)).toBe(false);
    const jvms = jvmsOn(dir);
    expect(jvms).toHaveLength(1);
    expect(jvms[0]).not.toBe(orphan);
    const lock = Number(readFileSync(join(dir, '.agora/lock'), 'utf8'));
    expect(descendants(again.pid!).map((c) => c.pid)).toContain(lock); // the lock is the new server's
    const read = await fetch(`http://127.0.0.1:${port}/api/0.1/lots/${created}`, {
      headers: { authorization: `Basic ${btoa('broker:')}` },
    });
    expect(read.status).toBe(200); // the same data folder, read by the one new JVM
    process.kill(-again.pid!, 'SIGTERM');
    expect(await waitUntil(() => jvmsOn(dir).length === 0, STOP_WITHIN_MS)).toBe(true);
  }, 120_000);
});
