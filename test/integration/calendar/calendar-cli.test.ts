import { execFile } from 'node:child_process';
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

function calendar(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const env = { ...process.env, TABLE_NAME: process.env.TABLE_NAME, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT };
  return new Promise((done) => {
    execFile(TSX, [join(ROOT, 'bin/calendar.ts'), ...args], { cwd: ROOT, env, timeout: 60_000 }, (error, out, err) =>
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}
const coverageTo = async () => (await api.get('/api/calendar', { as: undefined })).body.data.coverage.to;

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
    expect(JSON.parse(shown.out).coverage.to).toBe(end);

    const bad = await calendar('add', 'holidays', addCalendarDays(end, -1)); // 2028-12-30, a Saturday
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/refused, nothing changed: holidays: 2028-12-30 is a Saturday or Sunday/);
    expect(await coverageTo()).toBe(end);

    const to = addCalendarDays(end, 365);
    const extended = await calendar('extend', to, '--source', 'extended by the operator');
    expect(extended.code, extended.err).toBe(0);
    expect(extended.out).toMatch(new RegExp(`coverage 2024-01-01\\.\\.${to}`));
    const log = await api.get('/api/calendar/revisions', { as: undefined });
    expect(log.body.data.at(-1).author).toEqual({ role: 'admin', name: 'npm run calendar' });
    // GET /api/calendar reads the table each time (the periods' calendar is what is kept, for up to 5 minutes).
    expect(await coverageTo()).toBe(to);
  });
});
