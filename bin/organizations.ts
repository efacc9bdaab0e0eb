import { readFileSync } from 'node:fs';
import { compileCheck } from '../functions/domain/kernel/schema-compiler.ts';
import { schemaOf } from '../functions/domain/protocol/model.ts';
import { organizationModel } from '../functions/domain/protocol/parts.ts';
import { deleteOrganization, organizationDirectory, putOrganization } from '../functions/store/organizations.ts';
import { tableDescription, tableFailure, tableOptions, useTable } from './local-service.ts';
import { answerHelp } from '../lib/cli-help.ts';

/**
 * Manages the organization directory (interface.md §2.2 fill-in) in a table: that of the running `npm start` by
 * default (.agora/local.json); `--table`/`--stack` for a deployed one, TABLE_NAME (and DYNAMODB_ENDPOINT for a local
 * one) for another, as `npm run keys`.
 *
 *   npm run organizations -- add <file.json>        one organization, or an array of them (examples/org.json)
 *   npm run organizations -- show <scheme> <id>
 *   npm run organizations -- remove <scheme> <id>
 *
 * An entry needs `name`, `identifier` (`scheme`, `id`, ideally `uri`) and `address`; `contactPoint` is the sender's.
 * Exit codes: 0 done, 1 refused, not found or failed, 2 wrong arguments. Every entry of a file is checked before any
 * is stored.
 */
const checkEntry = compileCheck(
  schemaOf(organizationModel, {
    only: ['name', 'name_en', 'name_ru', 'identifier', 'additionalIdentifiers', 'address'],
    required: ['name', 'identifier', 'address'],
  }),
);

const USAGE =
  'usage: npm run organizations -- add <file.json> | show <scheme> <id> | remove <scheme> <id>  [--table <name> | --stack <stack>]';
answerHelp(
  'Manages the organization directory (who may be a lot custodian or decision maker). Exit codes: 0 done, 1 refused or failed, 2 wrong arguments.',
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

const { args: argv, table, stack, problem } = tableOptions(process.argv.slice(2));
if (problem) wrong(problem);
const [command, ...args] = argv;
if (!command) wrong('no command');
if (command === 'add' && args.length !== 1) wrong('add: one file (a JSON organization or an array of them)');
else if ((command === 'show' || command === 'remove') && args.length !== 2)
  wrong(`${command}: the identifier's scheme and id, like UA-EDR 00037256`);
else if (!['add', 'show', 'remove'].includes(command))
  wrong(`unknown command ${JSON.stringify(command)}: add, show or remove`);

function readEntries(file: string): Record<string, any>[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return refuse(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return refuse(`${file}: not JSON (${(error as Error).message})`);
  }
  const entries = Array.isArray(parsed) ? parsed : [parsed];
  entries.forEach((entry, i) => {
    try {
      checkEntry(entry);
    } catch (error) {
      refuse(
        `${file}${Array.isArray(parsed) ? `[${i}]` : ''}: refused ${JSON.stringify((entry as any)?.identifier ?? null)}: ${(error as Error).message}`,
      );
    }
  });
  return entries;
}

const entries = command === 'add' ? readEntries(args[0]) : [];
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const noTable = await useTable({ table, stack });
if (noTable) refuse(noTable);

try {
  if (command === 'add') {
    for (const entry of entries) {
      await putOrganization(entry);
      console.log(`stored ${entry.identifier.scheme} ${entry.identifier.id}: ${entry.name}`);
    }
  } else if (command === 'show') {
    const entry = await organizationDirectory.find(args[0], args[1]);
    if (!entry) refuse(`${args[0]} ${args[1]} is not in the directory of ${tableDescription()}`);
    console.log(JSON.stringify(entry, null, 2));
  } else {
    const removed = await deleteOrganization(args[0], args[1]);
    if (!removed) refuse(`${args[0]} ${args[1]} was not in the directory of ${tableDescription()}`);
    console.log(`removed ${args[0]} ${args[1]}`);
  }
} catch (error) {
  refuse(tableFailure(error));
}
