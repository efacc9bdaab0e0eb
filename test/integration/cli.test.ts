import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../lib/local/dynamodb-local.ts';
import { useService } from '../support/service.ts';

/** The operator CLIs and `npm start`'s checks, run as a person runs them: exit codes and the lines they print. */
const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const service = useService();

interface Run {
  code: number;
  out: string;
  err: string;
}
function run(script: string, args: string[], env: Record<string, string | undefined> = {}, cwd = ROOT): Promise<Run> {
  const base: Record<string, string | undefined> = {
    ...process.env,
    TABLE_NAME: process.env.TABLE_NAME,
    DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
    ...env,
  };
  for (const [k, v] of Object.entries(base)) if (v === undefined) delete base[k];
  return new Promise((done) => {
    execFile(
      TSX,
      [join(ROOT, script), ...args],
      { cwd, env: base as NodeJS.ProcessEnv, timeout: 60_000 },
      (error, out, err) => done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}
const keys = (...args: string[]) => run('bin/keys.ts', args);
const organizations = (...args: string[]) => run('bin/organizations.ts', args);

describe('npm run keys', () => {
  it('issues a key once per name, lists with a header, revokes by name', async () => {
    const added = await keys('add', 'acme-broker', 'broker', '1234');
    expect(added.code, added.err).toBe(0);
    expect(added.out).toMatch(/key for acme-broker \(broker, levels 1234\) in local table .*: [0-9a-f]{48}/);
    const again = await keys('add', 'acme-broker', 'broker');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/a key named acme-broker exists .*names are unique/);
    const list = await keys('list');
    expect(list.code).toBe(0);
    expect(list.out.split('\n')[0]).toBe('id\tname\trole\tlevels\tcreated');
    expect(list.out.split('\n').filter((l) => l.includes('\tacme-broker\t'))).toHaveLength(1);
    // Created in Kyiv time, as the logs and the data say it.
    expect(list.out).toMatch(/\tacme-broker\tbroker\t1234\t\d{4}-\d\d-\d\dT[\d:.]+\+0[23]:00\n/);
    const revoked = await keys('revoke', 'acme-broker');
    expect(revoked.code).toBe(0);
    expect(revoked.out).toMatch(/^revoked [0-9a-f]{12} acme-broker \(broker\)/);
    const gone = await keys('revoke', 'acme-broker');
    expect(gone.code).toBe(1);
    expect(gone.err).toMatch(/no key named or with id acme-broker/);
  }, 120_000);

  it('says what is wrong with the arguments (exit 2)', async () => {
    const cases: [string[], RegExp][] = [
      [[], /no command/],
      [['add', 'ops'], /the role of ops is missing: one of broker, .*admin/],
      [['add', 'ops', 'root'], /unknown role "root": one of/],
      [['add', 'ops', 'admin', 'x1'], /levels "x1": accreditation levels as digits/],
      [['add', 'no spaces', 'admin'], /name "no spaces"/],
      [['revoke'], /revoke: which key/],
      [['drop', 'x'], /unknown command "drop"/],
    ];
    const runs = await Promise.all(cases.map(([args]) => keys(...args)));
    runs.forEach((r, i) => {
      expect(r.code, cases[i][0].join(' ')).toBe(2);
      expect(r.err).toMatch(cases[i][1]);
      expect(r.err).toMatch(/^usage: npm run keys/m);
    });
  }, 120_000);
});

describe('npm run organizations', () => {
  it('adds the example file, shows, removes; a missing entry is exit 1 for show and remove alike', async () => {
    const added = await organizations('add', join(ROOT, 'examples/org.json'));
    expect(added.code, added.err).toBe(0);
    expect(added.out).toMatch(/stored UA-EDR 00032945: Фонд державного майна України/);
    const shown = await organizations('show', 'UA-EDR', '00032945');
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.out).identifier.id).toBe('00032945');
    expect((await organizations('remove', 'UA-EDR', '00032945')).code).toBe(0);
    const [show, remove] = await Promise.all([
      organizations('show', 'UA-EDR', '00032945'),
      organizations('remove', 'UA-EDR', '00032945'),
    ]);
    expect([show.code, remove.code]).toEqual([1, 1]);
    expect(remove.err).toMatch(/UA-EDR 00032945 was not in the directory/);
  }, 120_000);

  it('answers one line, never a stack, for a missing file, bad JSON, a bad entry, a wrong table, no table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agora-cli-'));
    writeFileSync(join(dir, 'bad.json'), '{"name": ');
    writeFileSync(join(dir, 'partial.json'), JSON.stringify({ identifier: { scheme: 'UA-EDR', id: '1' } }));
    const [missing, bad, partial, table, none, usage] = await Promise.all([
      organizations('add', join(dir, 'nope.json')),
      organizations('add', join(dir, 'bad.json')),
      organizations('add', join(dir, 'partial.json')),
      run('bin/organizations.ts', ['show', 'UA-EDR', '1'], { TABLE_NAME: 'no_such_table' }),
      run(
        'bin/organizations.ts',
        ['show', 'UA-EDR', '1'],
        { TABLE_NAME: undefined, DYNAMODB_ENDPOINT: undefined },
        dir,
      ),
      organizations('show', 'UA-EDR'),
    ]);
    expect(missing).toMatchObject({ code: 1, err: expect.stringMatching(/nope.json: cannot read it \(ENOENT\)/) });
    expect(bad).toMatchObject({ code: 1, err: expect.stringMatching(/bad.json: not JSON/) });
    expect(partial).toMatchObject({ code: 1, err: expect.stringMatching(/refused .*name/) });
    expect(table).toMatchObject({ code: 1, err: expect.stringMatching(/no_such_table.*no such table/) });
    expect(none).toMatchObject({ code: 1, err: expect.stringMatching(/No table: start `npm start` first/) });
    expect(usage).toMatchObject({ code: 2, err: expect.stringMatching(/scheme and id/) });
    for (const r of [missing, bad, partial, table, none]) expect(r.err).not.toMatch(/\n\s+at /);
  }, 120_000);
});

describe('npm run bot', () => {
  it('runs a bot of the service named by AGORA_URL; an unknown name gets the valid ones', async () => {
    const [ok, unknown] = await Promise.all([
      run('bin/bot.ts', ['convoy'], { AGORA_URL: service.url }),
      run('bin/bot.ts', ['nosuch'], { AGORA_URL: service.url }),
    ]);
    expect(ok.code, ok.err).toBe(0);
    expect(JSON.parse(ok.out).data).toMatchObject({ bot: 'convoy' });
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(
      /unknown bot "nosuch": one of .*concierge.*convoy|unknown bot "nosuch": one of .*convoy.*concierge/,
    );
  }, 120_000);
});

describe('npm start on a broken data folder', () => {
  it('says in one line what broke and how to reset it, and leaves no lock nor local.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agora-start-'));
    mkdirSync(join(dir, '.agora/dynamodb'), { recursive: true });
    writeFileSync(join(dir, '.agora/dynamodb/shared-local-instance.db'), randomBytes(8192));
    const r = await run(
      'bin/serve.ts',
      [],
      { PORT: String(await freePort()), TABLE_NAME: undefined, DYNAMODB_ENDPOINT: undefined },
      dir,
    );
    expect(r.code).toBe(1);
    expect(r.err.trim()).toMatch(
      /^The local data in \.agora\/dynamodb cannot be read \(.*\): reset it with `npm run reset`, or run without it: AGORA_IN_MEMORY=1 npm start\.$/,
    );
    expect(readdirSync(join(dir, '.agora')).sort()).toEqual(['dynamodb']);
  }, 90_000);
});

describe('npm start refuses to start twice', () => {
  let server: Server;
  afterAll(() => server?.close());

  it('names the holder of a busy port and changes nothing', async () => {
    server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    const dir = mkdtempSync(join(tmpdir(), 'agora-start-'));
    const r = await run(
      'bin/serve.ts',
      [],
      { PORT: String(port), AGORA_IN_MEMORY: '1', TABLE_NAME: undefined, DYNAMODB_ENDPOINT: undefined },
      dir,
    );
    expect(r.code).toBe(1);
    expect(r.err.trim()).toMatch(
      new RegExp(`^Port ${port} is in use by node \\(pid ${process.pid}\\): .*Nothing was changed\\.$`),
    );
    expect(() => mkdirSync(join(dir, '.agora'))).not.toThrow(); // no .agora was made
  }, 60_000);

  it('reads its settings from .env (PORT here)', async () => {
    const { port } = server.address() as { port: number };
    const dir = mkdtempSync(join(tmpdir(), 'agora-start-'));
    writeFileSync(join(dir, '.env'), `PORT=${port}\nAGORA_IN_MEMORY=1\n`);
    const r = await run(
      'bin/serve.ts',
      [],
      { PORT: undefined, TABLE_NAME: undefined, DYNAMODB_ENDPOINT: undefined },
      dir,
    );
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`^Port ${port} is in use`));
  }, 60_000);

  it('refuses while another npm start holds the folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agora-start-'));
    mkdirSync(join(dir, '.agora'));
    writeFileSync(join(dir, '.agora/lock'), String(process.pid)); // a live process
    const r = await run(
      'bin/serve.ts',
      [],
      { PORT: String(await freePort()), AGORA_IN_MEMORY: '1', TABLE_NAME: undefined, DYNAMODB_ENDPOINT: undefined },
      dir,
    );
    expect(r.code).toBe(1);
    expect(r.err.trim()).toMatch(
      new RegExp(`^Agora already runs from this folder \\(npm start, pid ${process.pid}\\): stop it first`),
    );
  }, 60_000);
});
