import { randomBytes } from 'node:crypto';
import { ROLES, type Role } from '../functions/domain/kernel/principal.ts';
import { deleteApiKey, listApiKeys, putApiKey } from '../functions/store/api-keys.ts';
import { tableDescription, tableFailure, useTable } from './local-service.ts';

/**
 * Manages API keys in a table (README "Deploying" / "First keys"):
 *
 *   npm run keys -- add <name> <role> [levels]   issues a key, printed once; stored only as its SHA-256
 *   npm run keys -- list                         id (the hash's first 12 hex digits), name, role, levels, created
 *   npm run keys -- revoke <name|id>             deletes the key of that name, or of that id
 *
 * Names are unique. The table: the local one of the running `npm start` by default (.agora/local.json); with
 * DYNAMODB_ENDPOINT and TABLE_NAME, another local one; with TABLE_NAME and no DYNAMODB_ENDPOINT, the deployed one, with
 * the credentials of AWS_PROFILE (or the environment) in AWS_REGION. Revoked keys stop working within a minute (the
 * authorizer's cache). Exit codes: 0 done, 1 refused or failed, 2 wrong arguments.
 */
const USAGE = `usage: npm run keys -- add <name> <${ROLES.join('|')}> [levels] | list | revoke <name|id>`;
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

const [command, ...args] = process.argv.slice(2);
if (!command) wrong('no command');
if (!['add', 'list', 'revoke'].includes(command))
  wrong(`unknown command ${JSON.stringify(command)}: add, list or revoke`);
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
if (command === 'list' && args.length > 0) wrong(`list takes no arguments (got ${args.join(' ')})`);
if (command === 'revoke' && args.length !== 1)
  wrong(args.length ? `revoke: one name or id, got ${args.length}` : 'revoke: which key? a name or an id (see list)');

const noTable = useTable();
if (noTable) refuse(noTable);
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const where = tableDescription();

async function main() {
  if (command === 'add') {
    const [name, role, levels = role === 'broker' ? '1234' : ''] = args;
    const existing = (await listApiKeys()).find((e) => e.name === name);
    if (existing)
      refuse(
        `a key named ${name} exists in ${where} (id ${existing.id}, ${existing.role}): names are unique; revoke it first or choose another name`,
      );
    const key = randomBytes(24).toString('hex');
    await putApiKey(key, { name, role: role as Role, levels });
    console.log(`key for ${name} (${role}${levels ? `, levels ${levels}` : ''}) in ${where}: ${key}`);
    console.log(
      'It is shown only now: the table keeps its SHA-256. Clients send it as the Basic user name with an empty password.',
    );
  } else if (command === 'list') {
    const entries = await listApiKeys();
    if (!entries.length) return console.log(`no keys in ${where}`);
    console.log(['id', 'name', 'role', 'levels', 'created'].join('\t'));
    for (const e of entries) console.log([e.id, e.name, e.role, e.levels || '-', e.created ?? '-'].join('\t'));
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
    // Names made unique only lately: several keys of one name (or an id prefix of several) need the exact id.
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
