import { MIGRATION_STEPS } from '../functions/store/migration-steps.ts';
import { migrate } from '../functions/store/migrations.ts';
import { tableDescription, tableFailure, tableOptions, useTable } from './local-service.ts';
import { answerHelp } from '../lib/cli-help.ts';

/**
 * `npm run migrate`: brings every stored item to the current model (functions/store/migration-steps.ts), in a table
 * named as for `npm run keys` (the running `npm start`'s by default; --table or --stack for a deployed one).
 *
 *   npm run migrate -- --dry-run     counts what a run would change, writes nothing
 *   npm run migrate                  runs (or resumes) the migration; again after a crash or a timeout
 *   npm run migrate -- --again       scans again although a run to this model finished
 *
 * Exit codes: 0 done (or nothing to do), 1 failed or stopped before the end (run it again: it resumes), 2 wrong
 * arguments.
 */
const USAGE = 'usage: npm run migrate -- [--dry-run] [--again] [--segments <n>] [--table <name> | --stack <stack>]';
answerHelp(
  'Brings every stored item to the current data model (functions/store/migration-steps.ts); resumable. Exit codes: 0 done, 1 failed or stopped (run it again), 2 wrong arguments.',
  USAGE,
);
const wrong = (message: string): never => {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
};

const { args, table, stack, problem } = tableOptions(process.argv.slice(2));
if (problem) wrong(problem);
const flags = new Set<string>(args.filter((a) => a === '--dry-run' || a === '--again'));
const segmentsAt = args.indexOf('--segments');
const segments = segmentsAt >= 0 ? Number(args[segmentsAt + 1]) : undefined;
if (segments !== undefined && !(Number.isInteger(segments) && segments >= 1 && segments <= 1000))
  wrong('--segments: a whole number of Scan segments, 1 to 1000');
const rest = args.filter((a, i) => !flags.has(a) && (segmentsAt < 0 || (i !== segmentsAt && i !== segmentsAt + 1)));
if (rest.length) wrong(`unknown argument ${JSON.stringify(rest[0])}`);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const noTable = await useTable({ table, stack });
if (noTable) {
  console.error(noTable);
  process.exit(1);
}
const where = tableDescription();
const dryRun = flags.has('--dry-run');

try {
  const report = await migrate({ dryRun, again: flags.has('--again'), segments });
  if (report.alreadyDone) {
    console.log(
      `${where} is at model ${report.model} (migrated ${report.alreadyDone}): nothing to do (--again scans anyway)`,
    );
  } else {
    const steps = MIGRATION_STEPS.map((s) => `${s.version} ${s.name}: ${report.steps[s.name]}`).join(', ');
    console.log(
      `${dryRun ? 'dry run: would upgrade' : 'upgraded'} ${report.upgraded} of ${report.scanned} items in ${where} to model ${report.model}${report.resumed ? ' (resumed)' : ''} (${steps}${report.retried ? `; ${report.retried} writes redone after a concurrent change` : ''})`,
    );
  }
} catch (error) {
  console.error(`migration stopped: ${tableFailure(error)}; run it again: it resumes where it stopped`);
  process.exit(1);
}
