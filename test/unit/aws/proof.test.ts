import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CallVerdict, FunctionReport } from '../../support/aws/iam-check.ts';
import { denialLines, testFileProblems, unseenFunctions, type VitestJsonReport } from '../../support/aws/proof.ts';

// What `npm run verify:aws` reads of the run its report stands on (test/support/aws/proof.ts): a run with a test file
// that failed (Chromium missing), one flaky and one that skipped a test is no proof, whatever the rows say.
const report = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../support/aws/proof-fixtures/vitest-report.json'), 'utf8'),
) as VitestJsonReport;

describe('testFileProblems', () => {
  it('names each test file that failed or skipped tests, with why, and none that passed', () => {
    expect(testFileProblems(report, '/repo')).toEqual([
      'test/integration/health-cors.test.ts: 1 of 2 tests failed: AssertionError: expected 200 to be 429 // Object.is equality',
      "test/integration/room-page/room-page.test.ts: failed: browserType.launch: Executable doesn't exist at /root/.cache/ms-playwright/chromium_headless_shell-1200/chrome-linux/headless_shell",
      'test/integration/webhooks/deliveries.test.ts: 1 of 2 tests skipped (skipped: webhooks retries)',
    ]);
  });

  it('finds nothing in a run whose files all passed, and says so of a failed run that names no file', () => {
    const passed = { ...report, success: true, testResults: report.testResults.slice(0, 1) };
    expect(testFileProblems(passed, '/repo')).toEqual([]);
    expect(testFileProblems({ success: false, testResults: [] }, '/repo')).toEqual([
      'the test run did not succeed (vitest says so, no file named)',
    ]);
  });
});

describe('unseenFunctions', () => {
  const fn = (name: string, actions: string[], calls: number): FunctionReport => ({
    caller: calls ? `route:GET /${name}` : '(no recorded call)',
    fn: `Agora-dev-Api/${name}`,
    role: `arn:aws:iam::123456789012:role/${name}`,
    verdicts: Array.from({ length: calls }, () => ({}) as CallVerdict),
    unused: [],
    actions,
  });

  it('names a Lambda with table access and no recorded call, not one that makes no AWS call', () => {
    const reports = [
      fn('GetLot', ['dynamodb:GetItem', 'xray:PutTraceSegments'], 0),
      fn('ListLots', ['dynamodb:Query'], 3),
      fn('Docs', ['xray:PutTraceSegments'], 0),
    ];
    expect(unseenFunctions(reports)).toEqual(['Agora-dev-Api/GetLot']);
  });
});

describe('denialLines', () => {
  const denied = (key: string): CallVerdict => ({
    call: {
      caller: 'authorizer',
      action: 'dynamodb:UpdateItem',
      resource: { kind: 'table' },
      context: { 'dynamodb:LeadingKeys': [key] },
    },
    arn: 'arn:aws:dynamodb:eu-central-1:123456789012:table/agora',
    allowed: false,
    why: 'ImplicitlyDenied',
  });

  it('tells denials apart by their condition keys and counts the same one seen again', () => {
    expect(denialLines([denied('RATE#<id>'), denied('KEY#<id>'), denied('RATE#<id>')])).toEqual([
      'denied: dynamodb:UpdateItem on arn:aws:dynamodb:eu-central-1:123456789012:table/agora {"dynamodb:LeadingKeys":["RATE#<id>"]}: ImplicitlyDenied (×2)',
      'denied: dynamodb:UpdateItem on arn:aws:dynamodb:eu-central-1:123456789012:table/agora {"dynamodb:LeadingKeys":["KEY#<id>"]}: ImplicitlyDenied',
    ]);
  });
});
