import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * `npm run verify:aws`: what is proven for AWS before a deploy, per function, in one report (docs/operations.md
 * "Proven before a deploy"). Each row provider checks one thing about each Lambda; `npm test` runs the same checks as
 * tests (test/aws/), this prints them.
 *
 *   npm run verify:aws                  runs the integration projects once, recording every AWS call, then reports
 *   npm run verify:aws -- --calls DIR   reports on recordings kept from a run (AGORA_AWS_CALLS=DIR AGORA_AWS_CALLS_KEEP=1)
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
const HELP = `Usage: npm run verify:aws [-- --calls <folder>]
Prints, per Lambda, what is proven for AWS before a deploy: every AWS call the integration tests recorded for it,
allowed or denied by its role in the synthesized templates (a real IAM policy evaluator), and the grants its role
holds that no call used (each removed, or justified beside its statement in the stack). Exit 1 when a row fails.
  --calls <folder>  use recordings kept from a test run instead of running the integration projects (about 7 minutes)`;

/** The IAM rows: a function's calls (allowed or denied, each denial named) and its role's unused grants. */
async function iamRows(folder: string): Promise<ReportRow[]> {
  const { readRecordings } = await import('../test/support/aws/calls.ts');
  const { IamModel, synthesizedTemplates } = await import('../test/support/aws/iam-check.ts');
  const { reports, unknown } = await new IamModel(synthesizedTemplates()).check(readRecordings(folder));
  const rows: ReportRow[] = [];
  for (const report of reports) {
    const denied = report.verdicts.filter((v) => !v.allowed);
    rows.push({
      fn: report.fn,
      ok: denied.length === 0,
      detail: `${report.verdicts.length} calls recorded (${report.caller}), ${report.verdicts.length - denied.length} allowed, ${denied.length} denied${denied.map((v) => `\n    denied: ${v.call.action} on ${v.arn}`).join('')}`,
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
  return rows;
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
  const recorded = !folder;
  if (!folder) {
    folder = mkdtempSync(join(tmpdir(), 'agora-aws-calls-'));
    console.error('Running the integration projects, recording every AWS call...');
    try {
      execFileSync('npx', ['vitest', 'run', '--project', 'integration', '--project', 'bundled', '--reporter=dot'], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, AGORA_AWS_CALLS: folder, AGORA_AWS_CALLS_KEEP: '1' },
      });
    } catch {
      console.error('Some integration tests failed: the report covers the calls they made.');
    }
  }
  try {
    // Each check per function a provider of rows, the same shape: calls against roles, settings, event fixtures.
    // Loaded here, not at the top: they synthesize the CDK app, 6 s of CPU that `--help` has no need of.
    const providers: RowProvider[] = [
      { name: 'IAM', rows: () => iamRows(folder) },
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
    console.log(failed ? `\n${failed} checks failed` : '\nEvery check passed');
    return failed ? 1 : 0;
  } finally {
    if (recorded) rmSync(folder, { recursive: true, force: true });
  }
}

process.exitCode = await main(process.argv.slice(2));
