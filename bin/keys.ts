import { randomBytes } from 'node:crypto';
import { ROLES, type Role } from '../functions/domain/kernel/principal.ts';
import { formatKyiv } from '../functions/domain/kernel/time.ts';
import { deleteApiKey, listApiKeys, putApiKey } from '../functions/store/api-keys.ts';
import { tableDescription, tableFailure, tableOptions, useTable } from './local-service.ts';
import { answerHelp } from '../lib/cli-help.ts';

/**
 * Manages API keys in a table (docs/operations.md "First keys" and "Rotating a key"):
 *
 *   npm run keys -- add <name> <role> [levels]   a new principal and its first key, printed once; stored as its SHA-256
 *   npm run keys -- rotate <name>                one more key of that principal (same role and levels): its objects
 *                                                stay its own, since an owner is the name; every key keeps working
 *   npm run keys -- list                         id (the hash's first 12 hex digits), name, role, levels, created (Kyiv time)
 *   npm run keys -- revoke <name|id>             deletes the key of that id, or the only key of that name
 *
 * A name is a principal (the `owner` of what it creates); its keys are its credentials, any number of them. The table:
 * `--table <name>` or `--stack <stack>` (the stack's `TableName` output) for a deployed one, with the credentials of
 * AWS_PROFILE (or the environment) in AWS_REGION; else TABLE_NAME (with DYNAMODB_ENDPOINT: a local one); else the
 * running `npm start`'s (.agora/local.json). A revoked key stops working within the authorizer's memo of a key
 * (KEY_MEMO_MS, 10 s). Exit codes: 0 done, 1 refused or failed, 2 wrong arguments.
 */
const USAGE = `usage: npm run keys -- add <name> <${ROLES.join('|')}> [levels] | rotate <name> | list | revoke <name|id>  [--table <name> | --stack <stack>]`;
answerHelp(
  'Issues, rotates, lists and revokes API keys (stored as their SHA-256). Exit codes: 0 done, 1 refused or failed, 2 wrong arguments.',
  USAGE,
);
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A wrong argument: what is wrong, then the usage line. */
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
if (!['add', 'rotate', 'list', 'revoke'].includes(command))
  wrong(`unknown command ${JSON.stringify(command)}: add, rotate, list or revoke`);
if (command === 'add') {
  const [name, role, levels] = args;
  if (!name) wrong('add: the key needs a name');
  if (!NAME.test(name)) wrong(`add: name ${JSON.stringify(name)}: letters, digits, '.', '_' and '-', at most 64`);
  if (!role) wrong(`add: the role of ${name} is missing: one of ${ROLES.join(', ')}`);
  if (!ROLES.includes(role as Role)) wrong(`add: unknown role ${JSON.stringify(role)}: one of ${ROLES.join(', ')}`);
  if (levels !== undefined && !/^[0-9]+$/.test(levels))
    wrong(`add: levels ${JSON.stringify(levels)}: accreditation levels as digits, like 1234`);
  if (args.length > 3) wrong(`add: too many arguments (${args.slice(3).join(' ')})`);
}
if (command === 'rotate' && args.length !== 1)
  wrong(args.length ? `rotate: one name, got ${args.length}` : 'rotate: whose key? a name (see list)');
if (command === 'list' && args.length > 0) wrong(`list takes no arguments (got ${args.join(' ')})`);
if (command === 'revoke' && args.length !== 1)
  wrong(args.length ? `revoke: one name or id, got ${args.length}` : 'revoke: which key? a name or an id (see list)');

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const noTable = await useTable({ table, stack });
if (noTable) refuse(noTable);
const where = tableDescription();

async function main() {
  if (command === 'add') {
    const [name, role, levels = role === 'broker' ? '1234' : ''] = args;
    const existing = (await listApiKeys()).find((e) => e.name === name);
    if (existing)
      refuse(
        `a key named ${name} exists in ${where} (id ${existing.id}, ${existing.role}): names are unique; \`rotate ${name}\` gives it one more key, or choose another name`,
      );
    const key = randomBytes(24).toString('hex');
    await putApiKey(key, { name, role: role as Role, levels });
    console.log(`key for ${name} (${role}${levels ? `, levels ${levels}` : ''}) in ${where}: ${key}`);
    console.log(
      'It is shown only now: the table keeps its SHA-256. Clients send it as the Basic user name with an empty password.',
    );
  } else if (command === 'rotate') {
    const [name] = args;
    const current = (await listApiKeys()).filter((e) => e.name === name);
    if (!current.length) refuse(`no key named ${name} in ${where}: \`add\` it first`);
    // Keys of one principal share its role and levels; the newest key's are the principal's.
    const newest = current.reduce((a, b) => ((b.created ?? '') > (a.created ?? '') ? b : a));
    const key = randomBytes(24).toString('hex');
    await putApiKey(key, { name, role: newest.role, levels: newest.levels });
    console.log(
      `new key for ${name} (${newest.role}${newest.levels ? `, levels ${newest.levels}` : ''}) in ${where}: ${key}`,
    );
    console.log(
      `It is shown only now. The other keys of ${name} keep working (ids ${current.map((e) => e.id).join(', ')}): once its clients use the new one, \`npm run keys -- revoke <id>\`.`,
    );
  } else if (command === 'list') {
    const entries = await listApiKeys();
    if (!entries.length) return console.log(`no keys in ${where}`);
    console.log(['id', 'name', 'role', 'levels', 'created'].join('\t'));
    // Kyiv time, as the logs and the data say it (stored in UTC).
    const created = (at?: string) => (at ? formatKyiv(new Date(at)) : '-');
    for (const e of entries) console.log([e.id, e.name, e.role, e.levels || '-', created(e.created)].join('\t'));
  } else {
    const [wanted] = args;
    const all = await listApiKeys();
    const byName = all.filter((e) => e.name === wanted);
    const matches = byName.length
      ? byName
      : wanted.length >= 6
        ? all.filter((e) => e.hash.startsWith(wanted.toLowerCase()))
        : [];
    if (!matches.length) refuse(`no key named or with id ${wanted} in ${where}`);
    // A principal with several keys (rotation), or an id prefix of several: the exact id says which one.
    if (matches.length > 1)
      refuse(
        `${matches.length} keys match ${wanted} (ids ${matches.map((e) => e.id).join(', ')}): revoke one by its id`,
      );
    await deleteApiKey(matches[0].hash);
    console.log(`revoked ${matches[0].id} ${matches[0].name} (${matches[0].role})`);
  }
}

try {
  await main();
} catch (error) {
  refuse(tableFailure(error));
}
