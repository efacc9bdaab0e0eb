import { randomBytes } from 'node:crypto';
import { ROLES, type Role } from '../functions/domain/kernel/principal.ts';
import { putApiKey } from '../functions/store/api-keys.ts';

/**
 * Issues an API key: `npm run keys -- add <name> <role> [levels]` against the table in TABLE_NAME
 * (and DYNAMODB_ENDPOINT for a local one). The key is printed once and stored only as its SHA-256.
 */
const [command, name, role, levels = role === 'broker' ? '1234' : ''] = process.argv.slice(2);
if (command !== 'add' || !name || !ROLES.includes(role as Role)) {
  console.error(`usage: npm run keys -- add <name> <${ROLES.join('|')}> [levels]`);
  process.exit(2);
}
const key = randomBytes(24).toString('hex');
await putApiKey(key, { name, role: role as Role, levels });
console.log(`key for ${name} (${role}${levels ? `, levels ${levels}` : ''}): ${key}`);
