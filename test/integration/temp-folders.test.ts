import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';

/**
 * `npm test` leaves nothing in the OS temp folder: vitest is run on files whose tests write there (a CDK synthesis
 * makes `cdk.out*`, DynamoDB Local unpacks its native library, the walkthrough-style `mktemp -d`) with a fresh, empty
 * folder as its TMPDIR, and that folder is empty again when vitest is done (test/support/scratch-temp.ts).
 */
const ROOT = resolve(import.meta.dirname, '../..');
const systemTemp = mkdtempSync(join(tmpdir(), 'agora-system-temp-'));
afterAll(() => rmSync(systemTemp, { recursive: true, force: true }));

it('a test run (infra: a synthesis; integration: DynamoDB Local, a service) leaves its TMPDIR as it found it', async () => {
  const files = ['test/infra/webhooks.test.ts', 'test/integration/health-cors.test.ts'];
  const run = await new Promise<{ code: number; out: string }>((done) =>
    execFile(
      process.execPath,
      [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'infra', '--project', 'integration', ...files],
      {
        cwd: ROOT,
        env: { ...process.env, TMPDIR: systemTemp, AGORA_AWS_CALLS: '' },
        timeout: 540_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, out, err) => done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: out + err }),
    ),
  );
  expect(run.code, run.out).toBe(0);
  expect(run.out).toMatch(/Test Files\s+.*2 passed/);
  expect(readdirSync(systemTemp), 'left in the temp folder').toEqual([]);
}, 600_000);
