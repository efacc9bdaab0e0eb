import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useService } from '../support/service.ts';

/** The local runtime's own tools: the clock a walkthrough moved, the reset of the data, and every CLI's --help. */
const ROOT = resolve(import.meta.dirname, '../..');
const service = useService();

function cli(
  script: string,
  args: string[],
  cwd = ROOT,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) =>
    execFile(
      join(ROOT, 'node_modules/.bin/tsx'),
      [join(ROOT, script), ...args],
      { cwd, env, timeout: 60_000 },
      (e, out, err) => done({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out, err }),
    ),
  );
}

describe('GET /_local/clock', () => {
  const clock = async (init?: RequestInit) => {
    const res = await fetch(`${service.url}/_local/clock`, init);
    return { status: res.status, body: (await res.json()) as { data: { offsetMs: number; now: string } } };
  };
  afterAll(() => service.setClockOffset(0));

  it('answers the offset a walkthrough left and the time the service reads, and PUT answers the same', async () => {
    const still = await clock();
    expect(still.status).toBe(200);
    expect(still.body.data.offsetMs).toBe(0);
    expect(Math.abs(Date.parse(still.body.data.now) - Date.now())).toBeLessThan(5_000);
    const day = 86_400_000;
    const moved = await clock({
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ offsetMs: 14 * day }),
    });
    expect(moved.body.data.offsetMs).toBe(14 * day);
    const read = await clock();
    expect(read.body.data.offsetMs).toBe(14 * day);
    expect(Date.parse(read.body.data.now) - Date.now()).toBeGreaterThan(14 * day - 5_000);
  });
});

describe('npm run reset', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'agora-reset-'));
    dirs.push(dir);
    mkdirSync(join(dir, '.agora/dynamodb'), { recursive: true });
    writeFileSync(join(dir, '.agora/dynamodb/shared-local-instance.db'), 'data');
    return dir;
  };

  it('deletes the local data, a stale lock and local.json', async () => {
    const dir = folder();
    writeFileSync(join(dir, '.agora/lock'), '999999999'); // the pid of a server long gone
    writeFileSync(join(dir, '.agora/local.json'), '{}');
    const r = await cli('bin/reset.ts', [], dir);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^Deleted \.agora\/dynamodb: the next npm start begins empty/);
    for (const left of ['.agora/dynamodb', '.agora/lock', '.agora/local.json'])
      expect(existsSync(join(dir, left)), left).toBe(false);
  });

  it('refuses while an npm start holds the folder, and changes nothing', async () => {
    const dir = folder();
    writeFileSync(join(dir, '.agora/lock'), String(process.pid)); // a live holder: this test's process
    const r = await cli('bin/reset.ts', [], dir);
    expect(r.code).toBe(1);
    expect(r.err.trim()).toBe(
      `npm start (pid ${process.pid}) runs from this folder: stop it first (Ctrl-C). Nothing was changed.`,
    );
    expect(existsSync(join(dir, '.agora/dynamodb/shared-local-instance.db'))).toBe(true);
    expect((await cli('bin/reset.ts', ['--everything'], dir)).code).toBe(2);
  });
});

describe('--help', () => {
  it.each(['keys', 'organizations', 'migrate', 'bot', 'room', 'reset', 'webhooks', 'smoke'])(
    'npm run %s -- --help says what it does and its usage, exit 0',
    async (name) => {
      const r = await cli(`bin/${name}.ts`, ['--help']);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/\w.*\n(.|\n)*usage: npm run (-s )?\w+/);
      expect(r.err).toBe('');
    },
  );
});

describe('npm run diff and deploy without AWS settings', () => {
  /** No profile, no keys, no region, no ~/.aws, no instance role. */
  const bare = (extra: NodeJS.ProcessEnv = {}) => {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: mkdtempSync(join(tmpdir(), 'agora-home-')) };
    for (const name of Object.keys(env)) if (name.startsWith('AWS_')) delete env[name];
    return { ...env, AWS_EC2_METADATA_DISABLED: 'true', ...extra };
  };

  it('says in one line what to set before anything is bundled: the region, then the credentials', async () => {
    const noRegion = await cli('bin/aws-preflight.ts', [], ROOT, bare());
    expect(noRegion.code).toBe(1);
    expect(noRegion.err.trim().split('\n')).toHaveLength(1);
    expect(noRegion.err).toMatch(/^No AWS region: set AWS_REGION/);
    const noCredentials = await cli('bin/aws-preflight.ts', [], ROOT, bare({ AWS_REGION: 'eu-central-1' }));
    expect(noCredentials.code).toBe(1);
    expect(noCredentials.err.trim().split('\n')).toHaveLength(1);
    expect(noCredentials.err).toMatch(/^No AWS credentials .*: set AWS_PROFILE/);
    const ready = await cli(
      'bin/aws-preflight.ts',
      [],
      ROOT,
      bare({ AWS_REGION: 'eu-central-1', AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'example' }),
    );
    expect(ready.code, ready.err).toBe(0);
    // Then it runs the script's command (cdk diff|deploy and the arguments given), its exit code the script's.
    const runs = await cli(
      'bin/aws-preflight.ts',
      ['sh', '-c', 'echo "$@"; exit 3', 'sh', '-c', 'stage=prod'],
      ROOT,
      bare({ AWS_REGION: 'eu-central-1', AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'example' }),
    );
    expect(runs.code, runs.err).toBe(3);
    expect(runs.out.trim()).toBe('-c stage=prod');
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
    for (const name of ['diff', 'deploy']) expect(scripts[name]).toMatch(/^tsx bin\/aws-preflight\.ts cdk /);
  });
});
