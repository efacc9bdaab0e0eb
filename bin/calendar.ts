import { readFileSync } from 'node:fs';
import { DomainError } from '../functions/domain/kernel/errors.ts';
import { systemClock } from '../functions/domain/kernel/time.ts';
import { loadValidators } from '../functions/domain/kernel/validation.ts';
import { calendarView, changeServiceCalendar } from '../functions/runtime/calendar.ts';
import { answerHelp } from '../lib/cli-help.ts';
import { tableDescription, tableFailure, tableOptions, useTable } from './local-service.ts';

/**
 * The working-day calendar of a table (that of the running `npm start` by default; `--table`/`--stack` for a
 * deployed one, as `npm run keys`): shown, extended, days added or removed, each change checked whole and recorded
 * in the calendar's change log (GET /api/calendar/revisions), as PATCH /api/calendar does for an admin key.
 *
 *   npm run calendar -- show
 *   npm run calendar -- extend <to>                           coverage.to, e.g. 2029-12-31
 *   npm run calendar -- add <list> <date>...                  list: holidays, workingWeekends, peacetimeHolidays,
 *   npm run calendar -- remove <list> <date>...                     peacetimeWorkingWeekends
 *   npm run calendar -- apply <change.json>                   a PATCH body's data: {coverage, add, remove, source}
 *   ... --source "<what the change rests on>"                 replaces the calendar's `source`
 *
 * Exit codes: 0 done, 1 refused or failed (nothing changed), 2 wrong arguments.
 */
const USAGE =
  'usage: npm run calendar -- show | extend <to> | add <list> <date>... | remove <list> <date>... | apply <change.json>  [--source <text>] [--table <name> | --stack <stack>]\n' +
  '  list: holidays | workingWeekends (martial law) | peacetimeHolidays | peacetimeWorkingWeekends';
answerHelp(
  'Shows or changes the working-day calendar (coverage, holidays, working weekends); every change is checked whole and recorded in its change log. Exit codes: 0 done, 1 refused or failed, 2 wrong arguments.',
  USAGE,
);
const wrong = (message: string): never => {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
};
const refuse = (message: string): never => {
  console.error(message);
  process.exit(1);
};

const parsed = tableOptions(process.argv.slice(2));
if (parsed.problem) wrong(parsed.problem);
const argv = [...parsed.args];
let source: string | undefined;
const at = argv.indexOf('--source');
if (at >= 0) {
  source = argv[at + 1];
  if (!source) wrong('--source: the text');
  argv.splice(at, 2);
}
const [command, ...args] = argv;

function changeOf(): Record<string, unknown> {
  switch (command) {
    case 'extend':
      if (args.length !== 1) wrong('extend: the new coverage.to, like 2029-12-31');
      return { coverage: { to: args[0] } };
    case 'add':
    case 'remove':
      if (args.length < 2) wrong(`${command}: a list and one or more dates`);
      return { [command]: { [args[0]!]: args.slice(1) } };
    case 'apply': {
      if (args.length !== 1) wrong('apply: one file');
      try {
        return JSON.parse(readFileSync(args[0]!, 'utf8'));
      } catch (error) {
        return refuse(`${args[0]}: ${(error as Error).message}`);
      }
    }
    default:
      return wrong(command ? `unknown command ${JSON.stringify(command)}` : 'no command');
  }
}

const change = command === 'show' ? undefined : { ...changeOf(), ...(source !== undefined && { source }) };
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const noTable = await useTable({ table: parsed.table, stack: parsed.stack });
if (noTable) refuse(noTable);

try {
  if (!change) {
    console.log(JSON.stringify(await calendarView(), null, 2));
  } else {
    await loadValidators();
    const after = await changeServiceCalendar({ role: 'admin', name: 'npm run calendar' }, systemClock(), change);
    console.log(`changed the calendar of ${tableDescription()}: coverage ${after.coverage.from}..${after.coverage.to}`);
  }
} catch (error) {
  if (error instanceof DomainError)
    refuse(
      `refused, nothing changed: ${error.entries.map((e) => `${e.name}: ${[e.description].flat().join('; ')}`).join('\n')}`,
    );
  refuse(tableFailure(error));
}
