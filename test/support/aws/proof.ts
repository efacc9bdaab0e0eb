import type { CallVerdict, FunctionReport } from './iam-check.ts';

/**
 * Whether `npm run verify:aws` holds its whole proof (bin/verify-aws.ts): its rows are only as good as the run that
 * recorded the calls. A test file that failed or skipped tests made fewer calls than the code makes, so the report
 * would pass with a part of its proof missing; so would a Lambda with table access that no recorded call reached.
 * Each problem is one line, said last by the report.
 */

/** What vitest's `json` reporter writes (`--reporter=json --outputFile=<file>`), the fields read here. */
export interface VitestJsonReport {
  success: boolean;
  testResults: {
    name: string;
    status: 'passed' | 'failed';
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
}

/** The first line of a message, at most 160 characters. */
const firstLine = (text: string | undefined) => {
  const line = (text ?? '').split('\n').find((l) => l.trim()) ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line.trim();
};

/**
 * One line per test file that failed, skipped a test or ran none, named relative to `root`: a file whose tests did
 * not all pass did not make the calls the report counts on.
 */
export function testFileProblems(report: VitestJsonReport, root: string): string[] {
  const problems: string[] = [];
  for (const file of [...report.testResults].sort((a, b) => a.name.localeCompare(b.name))) {
    const name = file.name.startsWith(`${root}/`) ? file.name.slice(root.length + 1) : file.name;
    const tests = file.assertionResults;
    const failed = tests.filter((t) => t.status === 'failed');
    const notRun = tests.filter((t) => t.status !== 'passed' && t.status !== 'failed');
    if (file.status === 'failed' || failed.length) {
      const why = firstLine(file.message || failed[0]?.failureMessages?.[0]);
      const counted = failed.length ? `${failed.length} of ${tests.length} tests failed` : 'failed';
      problems.push(`${name}: ${counted}${why ? `: ${why}` : ''}`);
    } else if (!tests.length) problems.push(`${name}: ran no test`);
    else if (notRun.length)
      problems.push(
        `${name}: ${notRun.length} of ${tests.length} tests skipped (${notRun[0]!.status}: ${notRun[0]!.fullName})`,
      );
  }
  if (!report.success && !problems.length)
    problems.push('the test run did not succeed (vitest says so, no file named)');
  return problems;
}

/**
 * The Lambdas with table access (their role grants a DynamoDB action) that no recorded call reached: each serves a
 * route, a bot or a room message the integration tests exercise, so a run that recorded none of their calls missed them.
 */
export function unseenFunctions(reports: FunctionReport[]): string[] {
  return reports
    .filter((r) => r.verdicts.length === 0 && r.actions.some((a) => a.startsWith('dynamodb:')))
    .map((r) => r.fn);
}

/**
 * The denied calls, one line per distinct denial with the condition keys that tell them apart (the recorded
 * `dynamodb:LeadingKeys`...) and the evaluator's answer; a denial seen more than once says how many times.
 */
export function denialLines(verdicts: CallVerdict[]): string[] {
  const counts = new Map<string, number>();
  for (const v of verdicts.filter((v) => !v.allowed)) {
    const context = v.call.context && Object.keys(v.call.context).length ? ` ${JSON.stringify(v.call.context)}` : '';
    const line = `denied: ${v.call.action} on ${v.arn}${context}${v.why ? `: ${v.why}` : ''}`;
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  return [...counts].map(([line, n]) => (n > 1 ? `${line} (×${n})` : line));
}
