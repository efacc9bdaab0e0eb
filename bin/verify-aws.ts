import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * `npm run verify:aws`: what is proven for AWS before a deploy, per function, in one report (docs/operations.md
 * "Proven before a deploy"). Each row provider checks one thing about each Lambda; `npm test` runs the same checks as
 * tests (test/aws/), this prints them.
 *
 *   npm run verify:aws                  runs the integration projects once, recording every AWS call, then reports
 *   npm run verify:aws -- --calls DIR   reports on recordings kept from a run (AGORA_AWS_CALLS=DIR AGORA_AWS_CALLS_KEEP=1)
 *                                       [--tests FILE: that run's vitest JSON report, its files checked too]
 *
 * It proves nothing about what a run did not do: a test file that failed or skipped tests, or a Lambda with table
 * access that no call reached, fails it (test/support/aws/proof.ts), named in the last lines.
 */
export interface ReportRow {
  /** The Lambda: `<stack>/<logical id>`, or a caller when no function of the templates serves it. */
  fn: string;
  ok: boolean;
  detail: string;
}
interface RowProvider {
  /** What the rows check (the report's column). */
  name: string;
  rows(): ReportRow[] | Promise<ReportRow[]>;
}

const ROOT = resolve(import.meta.dirname, '..');
/** How long a whole run took (the integration projects, then the report), measured, and where. */
const MEASURED = `10 min 29 s in all, measured on a 2-core machine while another test run shared it (2026-12-07):
the integration projects (132 test files) 10 min 20 s, then the report 9 s; more on a busier machine`;
const HELP = `Usage: npm run verify:aws [-- --calls <folder> [--tests <report.json>]]
Prints, per Lambda, what is proven for AWS before a deploy: every AWS call the integration tests recorded for it,
allowed or denied by its role in the synthesized templates (a real IAM policy evaluator; each denial with its
condition keys, a repeated one counted), and the grants its role holds that no call used (each removed, or justified
beside its statement in the stack). Exit 1 when any part of the proof fails, each named in the last lines: a row
fails, a test file of the run failed or skipped tests (the calls it would have made are missing), or a Lambda with
table access has no recorded call. While the tests run, vitest prints a line per finished test file (on stderr; the
report is on stdout).
  --calls <folder>  use recordings kept from a test run instead of running the integration projects
                    (AGORA_AWS_CALLS=<folder> AGORA_AWS_CALLS_KEEP=1 npx vitest run --project integration --project bundled)
  --tests <file>    with --calls: that run's JSON report (add --reporter=json --outputFile=<file>), its test files
                    checked as a run of this command's own are
Time: ${MEASURED}.`;

/** The IAM rows: a function's calls (allowed or denied, each denial named) and its role's unused grants. */
async function iamRows(folder: string): Promise<{ rows: ReportRow[]; unseen: string[] }> {
  const { readRecordings } = await import('../test/support/aws/calls.ts');
  const { IamModel, synthesizedTemplates } = await import('../test/support/aws/iam-check.ts');
  const { denialLines, unseenFunctions } = await import('../test/support/aws/proof.ts');
  const { reports, unknown } = await new IamModel(synthesizedTemplates()).check(readRecordings(folder));
  const unseen = unseenFunctions(reports);
  const rows: ReportRow[] = [];
  for (const report of reports) {
    const denied = report.verdicts.filter((v) => !v.allowed);
    rows.push({
      fn: report.fn,
      ok: denied.length === 0 && !unseen.includes(report.fn),
      detail: unseen.includes(report.fn)
        ? 'no recorded call: its role may use the table, so the integration tests should have reached it'
        : `${report.verdicts.length} calls recorded (${report.caller}), ${report.verdicts.length - denied.length} allowed, ${denied.length} denied${denialLines(
            denied,
          )
            .map((line) => `\n    ${line}`)
            .join('')}`,
    });
    const unjustified = report.unused.filter((g) => !g.justified);
    rows.push({
      fn: report.fn,
      ok: unjustified.length === 0,
      detail: `${report.unused.length} unused grants of its role, ${unjustified.length} unjustified${report.unused
        .map((g) => `\n    ${g.justified ? 'justified' : 'UNJUSTIFIED'}: ${g.action} on ${g.resource}`)
        .join('')}`,
    });
  }
  for (const call of unknown)
    rows.push({ fn: call.caller, ok: false, detail: `no function of the templates serves it: ${call.action}` });
  return { rows, unseen };
}

const minutes = (ms: number) => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

/**
 * Runs the integration projects, recording every AWS call into `folder`, vitest's own reporter showing each test file
 * as it ends; answers what the run proves nothing about (its failed or skipped test files), from its JSON report.
 */
async function runIntegration(folder: string, scratch: string): Promise<string[]> {
  const reportFile = join(scratch, 'vitest-report.json');
  console.error('Running the integration projects, recording every AWS call (a line per finished test file)...');
  const started = Date.now();
  const run = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      'integration',
      '--project',
      'bundled',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${reportFile}`,
    ],
    {
      cwd: ROOT,
      // vitest's lines on stderr: stdout is the report.
      stdio: ['ignore', 2, 2],
      env: { ...process.env, AGORA_AWS_CALLS: folder, AGORA_AWS_CALLS_KEEP: '1' },
    },
  );
  console.error(`The integration projects took ${minutes(Date.now() - started)}.`);
  return reportProblems(reportFile, run.status ?? run.signal ?? 'not started');
}

/** The problems of a run by its JSON report (and the way it ended, when known). */
async function reportProblems(reportFile: string, ended?: number | string): Promise<string[]> {
  const { testFileProblems } = await import('../test/support/aws/proof.ts');
  if (!existsSync(reportFile))
    return [`the test run ended (${ended ?? 'no report'}) without its JSON report: nothing says which files ran`];
  const problems = testFileProblems(JSON.parse(readFileSync(reportFile, 'utf8')), ROOT);
  if (!problems.length && ended !== undefined && ended !== 0) problems.push(`the test run ended with ${ended}`);
  return problems;
}

async function main(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(HELP);
    return 0;
  }
  const given = args.indexOf('--calls');
  let folder = given >= 0 ? resolve(args[given + 1] ?? '') : undefined;
  if (given >= 0 && (!folder || !existsSync(folder))) {
    console.error(`--calls: no folder ${args[given + 1] ?? ''}\n\n${HELP}`);
    return 2;
  }
  const tests = args.indexOf('--tests');
  const testsFile = tests >= 0 ? resolve(args[tests + 1] ?? '') : undefined;
  if (tests >= 0 && (given < 0 || !existsSync(testsFile!))) {
    console.error(`--tests: ${given < 0 ? 'only with --calls' : `no file ${args[tests + 1] ?? ''}`}\n\n${HELP}`);
    return 2;
  }
  const recorded = !folder;
  const scratch = mkdtempSync(join(tmpdir(), 'agora-verify-'));
  try {
    let runNotes: string[];
    if (!folder) {
      folder = join(scratch, 'calls');
      runNotes = await runIntegration(folder, scratch);
    } else runNotes = testsFile ? await reportProblems(testsFile) : [];
    // Each check per function a provider of rows, the same shape: calls against roles, settings, event fixtures.
    // Loaded here, not at the top: they synthesize the CDK app, 6 s of CPU that `--help` has no need of.
    let unseen: string[] = [];
    const calls = folder;
    const providers: RowProvider[] = [
      {
        name: 'IAM',
        rows: async () => {
          const iam = await iamRows(calls);
          unseen = iam.unseen;
          return iam.rows;
        },
      },
      { name: 'Settings', rows: async () => (await import('../test/support/aws/settings.ts')).settingsReport() },
      { name: 'Events', rows: async () => (await import('../test/support/aws/events.ts')).eventsReport() },
    ];
    let failed = 0;
    for (const provider of providers) {
      const rows = (await provider.rows()).sort((a, b) => a.fn.localeCompare(b.fn));
      console.log(`\n== ${provider.name}`);
      let last = '';
      for (const row of rows) {
        if (row.fn !== last) console.log(`\n${row.fn}`);
        last = row.fn;
        console.log(`  ${row.ok ? 'ok  ' : 'FAIL'} ${row.detail}`);
        if (!row.ok) failed++;
      }
    }
    // Why it fails, last: what a reader of the end of the output needs, the one-line verdict at the very end.
    const rowFailures = failed - unseen.length;
    const parts: string[] = [];
    if (runNotes.length) {
      parts.push(`${runNotes.length} test files failed or skipped tests`);
      console.log('\nTest files that failed or skipped tests (the calls they would have made are not in the report):');
      for (const note of runNotes) console.log(`  ${note}`);
    }
    if (unseen.length) {
      parts.push(`${unseen.length} Lambdas with table access have no recorded call`);
      console.log('\nLambdas with table access and no recorded call (their tests did not run, or failed first):');
      for (const fn of unseen) console.log(`  ${fn}`);
    }
    if (rowFailures > 0) parts.push(`${rowFailures} checks failed (FAIL above)`);
    if (!recorded && !testsFile)
      console.log(`\nThe run that recorded ${folder} is not checked: give its JSON report with --tests <file>.`);
    if (!parts.length) {
      console.log(
        recorded || testsFile
          ? '\nEvery check passed, over a run whose test files all passed.'
          : "\nEvery check passed (the run's test files not checked).",
      );
      return 0;
    }
    console.log(`\nNot proven: ${parts.join('; ')}.`);
    return 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

process.exitCode = await main(process.argv.slice(2));
