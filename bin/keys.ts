import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ROLES, type Role } from '../functions/domain/kernel/principal.ts';
import { deleteApiKey, listApiKeys, putApiKey } from '../functions/store/api-keys.ts';

/**
 * Manages API keys in a table (README "Deploying" / "First keys"):
 *
 *   npm run keys -- add <name> <role> [levels]   issues a key, printed once; stored only as its SHA-256
 *   npm run keys -- list                         name, role, levels, id (the hash's first 12 hex digits), created
 *   npm run keys -- revoke <name|id>             deletes the key(s) of that name, or the one of that id
 *
 * The table: the local one of the running `npm start` by default (it writes .agora/local.json); with
 * DYNAMODB_ENDPOINT and TABLE_NAME, another local one; with TABLE_NAME and no DYNAMODB_ENDPOINT, the deployed one, with
 * the credentials of AWS_PROFILE (or the environment) in AWS_REGION. Revoked keys stop working within a minute (the
 * authorizer's cache).
 */
const [command, ...args] = process.argv.slice(2);

if (!process.env.TABLE_NAME) {
  // The running `npm start` says where its DynamoDB Local listens.
  try {
    const local = JSON.parse(readFileSync('.agora/local.json', 'utf8')) as { endpoint: string; table: string };
    process.env.DYNAMODB_ENDPOINT ??= local.endpoint;
    process.env.TABLE_NAME = local.table;
  } catch {
    console.error('No local table: start `npm start` first, or set TABLE_NAME (and DYNAMODB_ENDPOINT for a local one, AWS_PROFILE for a deployed one).');
    process.exit(1);
  }
}
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const where = process.env.DYNAMODB_ENDPOINT ? `local table ${process.env.TABLE_NAME} at ${process.env.DYNAMODB_ENDPOINT}` : `table ${process.env.TABLE_NAME}${process.env.AWS_PROFILE ? ` (profile ${process.env.AWS_PROFILE})` : ''}`;

const usage = (): never => {
  console.error(`usage: npm run keys -- add <name> <${ROLES.join('|')}> [levels] | list | revoke <name|id>`);
  process.exit(2);
};

async function main() {
  if (command === 'add') {
    const [name, role, levels = role === 'broker' ? '1234' : ''] = args;
    if (!name || !ROLES.includes(role as Role) || !/^\d*$/.test(levels)) usage();
    const key = randomBytes(24).toString('hex');
    await putApiKey(key, { name, role: role as Role, levels });
    console.log(`key for ${name} (${role}${levels ? `, levels ${levels}` : ''}) in ${where}: ${key}`);
    console.log('It is shown only now: the table keeps its SHA-256. Clients send it as the Basic user name with an empty password.');
  } else if (command === 'list' && args.length === 0) {
    const entries = await listApiKeys();
    if (!entries.length) console.log(`no keys in ${where}`);
    for (const e of entries) console.log([e.id, e.name, e.role, e.levels || '-', e.created ?? '-'].join('\t'));
  } else if (command === 'revoke' && args.length === 1) {
    const [wanted] = args;
    const matches = (await listApiKeys()).filter((e) => e.name === wanted || (wanted.length >= 6 && e.hash.startsWith(wanted.toLowerCase())));
    if (!matches.length) {
      console.error(`no key named or with id ${wanted} in ${where}`);
      process.exit(1);
    }
    for (const e of matches) {
      await deleteApiKey(e.hash);
      console.log(`revoked ${e.id} ${e.name} (${e.role})`);
    }
  } else usage();
}

try {
  await main();
} catch (error) {
  const e = error as Error;
  console.error(
    e.name === 'ResourceNotFoundException'
      ? `${where}: no such table (is \`npm start\` running, or is TABLE_NAME the deployed table's name?)`
      : /ECONNREFUSED/.test(String(e.message) + String((e as { cause?: unknown }).cause)) || e.name === 'TimeoutError'
        ? `${where}: nothing answers (start \`npm start\` first, or set TABLE_NAME to the deployed table)`
        : `${where}: ${e.name}: ${e.message}`,
  );
  process.exit(1);
}
