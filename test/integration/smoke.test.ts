import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useService } from '../support/service.ts';
import { startReceiver } from '../support/webhooks.ts';

/**
 * `npm run smoke` (bin/smoke.ts), the first deploy's step 7 (docs/operations.md), run against the local service the
 * way an operator runs it against AWS: the URL and a broker key, nothing local (no `/_local/*` route, no bot run by
 * hand, no moved clock). The listings read the journal, so the service runs its pipe (`journal: true`) as AWS runs its.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const service = useService({ journal: true });

function smoke(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) =>
    execFile(
      join(ROOT, 'node_modules/.bin/tsx'),
      [join(ROOT, 'bin/smoke.ts'), ...args],
      { cwd: ROOT, timeout: 60_000 },
      (e, out, err) => done({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out, err }),
    ),
  );
}

describe('npm run smoke -- --url <API URL> --key <broker key>', () => {
  it('passes against the service, a line per step, and leaves its lot deleted', async () => {
    const r = await smoke(['--url', service.url, '--key', 'broker']);
    expect(r.code, `${r.out}${r.err}`).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toBe(`Smoke test of ${service.url}`);
    expect(lines.slice(1, -2).map((line) => line.replace(/:.*/, ''))).toEqual([
      'ok    health',
      'ok    asset created with the key',
      'ok    asset published',
      'ok    lot created over it',
      'ok    lot published',
      'ok    lot read',
      'ok    lot listed',
      'ok    room page',
      'ok    lot deleted',
    ]);
    expect(lines.at(-2)).toBe('--    webhook ping: not tried (give --hook <your receiver URL>)');
    expect(lines.at(-1)).toBe(`Smoke test passed: 9 steps against ${service.url}.`);
    const lot = /^ok {4}lot created over it: ([0-9a-f]{32})/m.exec(r.out)![1];
    const read = await fetch(`${service.url}/api/0.1/lots/${lot}`, {
      headers: { authorization: `Basic ${Buffer.from('broker:').toString('base64')}` },
    });
    expect(((await read.json()) as { data: { status: string; mode: string } }).data).toMatchObject({
      status: 'deleted',
      mode: 'test',
    });
  }, 90_000);

  it("with --hook, pings the operator's receiver through a subscription it deletes after", async () => {
    const receiver = await startReceiver();
    try {
      const r = await smoke(['--url', service.url, '--key', 'broker', '--hook', receiver.url]);
      expect(r.code, `${r.out}${r.err}`).toBe(0);
      expect(r.out).toMatch(
        /^ok {4}webhook ping: http:\/\/127\.0\.0\.1:\d+\/hook answered 204 to a signed webhook\.ping/m,
      );
      expect(r.out.trimEnd().split('\n').at(-1)).toBe(`Smoke test passed: 10 steps against ${service.url}.`);
      expect(receiver.received.map((w) => w.body.type)).toContain('webhook.ping');
    } finally {
      await receiver.close();
    }
  }, 90_000);

  it("exits 1 with one clear last line when the key is not one of the deployment, or not a broker's", async () => {
    const r = await smoke(['--url', service.url, '--key', 'not-a-key']);
    expect(r.code).toBe(1);
    const last = r.out.trimEnd().split('\n').at(-1);
    expect(last).toMatch(
      /^Smoke test failed at "asset created with the key" \(1 of 9 steps passed\): the API refused the key \(401 No valid credential\): --key is not a key of this deployment/,
    );
    const convoy = await smoke(['--url', service.url, '--key', 'convoy']);
    expect(convoy.code).toBe(1);
    expect(convoy.out.trimEnd().split('\n').at(-1)).toMatch(
      /^Smoke test failed at "asset created with the key" \(1 of 9 steps passed\): the key's role may not do this \(POST \/api\/0\.1\/assets: 403\): --key must be a broker key/,
    );
  }, 90_000);

  it('exits 2 with its usage when an argument is missing', async () => {
    const r = await smoke(['--url', service.url]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^--key is required\nusage: npm run smoke -- --url <API URL> --key <broker key>/);
  });
});
