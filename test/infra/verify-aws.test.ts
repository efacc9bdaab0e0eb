import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `npm run verify:aws` over a run that is no proof (bin/verify-aws.ts): recordings of a few calls and the run's vitest
 * JSON report, in which a test file failed for want of Chromium, one failed a test and one skipped one. It must exit 1
 * and say why in its last lines, not "Every check passed". The same reading of the report serves its own run of the
 * integration projects, which is not repeated here (test/unit/aws/proof.test.ts reads the report alone).
 */
const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'test/support/aws/proof-fixtures');

function verify(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) =>
    execFile(
      join(ROOT, 'node_modules/.bin/tsx'),
      [join(ROOT, 'bin/verify-aws.ts'), ...args],
      { cwd: ROOT, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
      (e, out, err) => done({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out, err }),
    ),
  );
}

describe('npm run verify:aws -- --calls <folder> --tests <report>', () => {
  it('exits 1 over a run with failed and skipped test files, and says why in its last lines', async () => {
    const r = await verify([
      '--calls',
      join(FIXTURES, 'recorded-calls'),
      '--tests',
      join(FIXTURES, 'vitest-report.json'),
    ]);
    expect(r.code, r.err).toBe(1);
    const lines = r.out.trimEnd().split('\n');
    const last = lines.at(-1)!;
    expect(last).toMatch(/^Not proven: 3 test files failed or skipped tests; \d+ Lambdas with table access have no/);
    expect(r.out).not.toContain('Every check passed');
    const files = lines.indexOf(
      'Test files that failed or skipped tests (the calls they would have made are not in the report):',
    );
    expect(lines.slice(files + 1, files + 4)).toEqual([
      '  /repo/test/integration/health-cors.test.ts: 1 of 2 tests failed: AssertionError: expected 200 to be 429 // Object.is equality',
      "  /repo/test/integration/room-page/room-page.test.ts: failed: browserType.launch: Executable doesn't exist at /root/.cache/ms-playwright/chromium_headless_shell-1200/chrome-linux/headless_shell",
      '  /repo/test/integration/webhooks/deliveries.test.ts: 1 of 2 tests skipped (skipped: webhooks retries)',
    ]);
    // A Lambda with table access that the recordings never reached is named; one they reached is not.
    const unseen = lines.slice(
      lines.indexOf('Lambdas with table access and no recorded call (their tests did not run, or failed first):'),
    );
    expect(unseen.some((line) => /^ {2}Agora-dev-Bots\/ConciergeBot/.test(line))).toBe(true);
    expect(unseen.some((line) => /Authorizer/.test(line))).toBe(false);
    // Denials tell their calls apart by the condition keys.
    expect(r.out).toMatch(/denied: dynamodb:DeleteItem on \S+ \{"dynamodb:LeadingKeys":\["ASSET#<id>"\]\}/);
    expect(r.out).toMatch(/denied: dynamodb:DeleteItem on \S+ \{"dynamodb:LeadingKeys":\["LOT#<id>"\]\}/);
  }, 180_000);
});
