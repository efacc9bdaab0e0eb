import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedCalendar } from '../../../functions/domain/calendar/calendar-changes.ts';
import { addCalendarDays } from '../../../functions/domain/calendar/working-days.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';

/** `npm run calendar`, run as an operator runs it against this file's table: exit codes, what it prints and changes. */
const ROOT = resolve(import.meta.dirname, '../../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const service = useService();
const api = client(() => service.url);

/**
 * The command line as docs/operations.md gives it, run where `npm start` runs: a folder whose `.agora/local.json` names
 * the service, its DynamoDB Local and its table (what `npm start` writes; here this file's), and no TABLE_NAME or
 * DYNAMODB_ENDPOINT, which the docs never ask for.
 */
function calendar(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'agora-calendar-'));
  mkdirSync(join(cwd, '.agora'));
  const local = {
    url: service.url,
    endpoint: process.env.DYNAMODB_ENDPOINT,
    table: process.env.TABLE_NAME,
    pid: process.pid,
  };
  writeFileSync(join(cwd, '.agora/local.json'), JSON.stringify(local));
  const { TABLE_NAME: _, DYNAMODB_ENDPOINT: __, ...env } = process.env;
  return new Promise((done) => {
    execFile(TSX, [join(ROOT, 'bin/calendar.ts'), ...args], { cwd, env, timeout: 60_000 }, (error, out, err) =>
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}
const coverageTo = async () => (await api.get('/api/calendar', { as: undefined })).body.data.coverage.to;

/** docs/api.md's calendar snippet, run as written (bash, curl, jq) against this file's service. */
function docsSnippet(): Promise<{ code: number; out: string; err: string }> {
  const doc = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## The working-day calendar'));
  const script = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return new Promise((done) => {
    execFile(
      'bash',
      ['-euo', 'pipefail', '-c', script],
      { env: { ...process.env, BASE: service.url } },
      (e, out, err) => done({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}

describe("docs/api.md's calendar snippet", () => {
  it('reads the calendar without a key, extends it with the admin key, and lists the change log', async () => {
    const r = await docsSnippet();
    expect(r.code, r.err).toBe(0);
    expect(r.out.split('\n').filter(Boolean)).toEqual([
      `{"coverage":{"from":"2024-01-01","to":"${seedCalendar().coverage.to}"},"mode":"martial-law"}`,
      '{"from":"2024-01-01","to":"2029-12-31"}',
      expect.stringContaining('"author":{"name":"ukraine-calendar.json","role":"system"}}'),
      expect.stringContaining('"author":{"name":"admin","role":"admin"}}'),
    ]);
  });
});

describe('npm run calendar', () => {
  const end = seedCalendar().coverage.to;

  it('answers --help with its usage, exit 0, and refuses wrong arguments with exit 2', async () => {
    const help = await calendar('--help');
    expect(help.code, help.err).toBe(0);
    expect(help.out).toMatch(/usage: npm run calendar -- show/);
    expect((await calendar('shrink')).code).toBe(2);
    expect((await calendar('extend')).code).toBe(2);
  });

  it('shows the calendar, refuses a bad change with exit 1 (nothing changed), extends it and records who did', async () => {
    const shown = await calendar('show');
    expect(shown.code, shown.err).toBe(0);
    const was = JSON.parse(shown.out).coverage.to; // the docs' snippet above extended it
    expect(was).toBe(await coverageTo());

    const bad = await calendar('add', 'holidays', addCalendarDays(end, -1)); // 2028-12-30, a Saturday
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/refused, nothing changed: holidays: 2028-12-30 is a Saturday or Sunday/);
    expect(await coverageTo()).toBe(was);

    const to = addCalendarDays(was, 365);
    const extended = await calendar('extend', to, '--source', 'extended by the operator');
    expect(extended.code, extended.err).toBe(0);
    expect(extended.out).toMatch(new RegExp(`coverage 2024-01-01\\.\\.${to}`));
    const log = await api.get('/api/calendar/revisions', { as: undefined });
    expect(log.body.data.at(-1).author).toEqual({ role: 'admin', name: 'npm run calendar' });
    // GET /api/calendar reads the table each time (the periods' calendar is what is kept, for up to 5 minutes).
    expect(await coverageTo()).toBe(to);
  });
});
