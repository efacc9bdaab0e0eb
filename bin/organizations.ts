import { readFileSync } from 'node:fs';
import { organizationSchema } from '../functions/domain/kernel/organization.ts';
import { compileCheck } from '../functions/domain/kernel/validation.ts';
import { deleteOrganization, organizationDirectory, putOrganization } from '../functions/store/organizations.ts';

/**
 * Manages the organization directory (interface.md §2.2 fill-in) in the table named by TABLE_NAME
 * (and DYNAMODB_ENDPOINT for a local one):
 *
 *   npm run organizations -- add <file.json>        one organization, or an array of them
 *   npm run organizations -- show <scheme> <id>
 *   npm run organizations -- remove <scheme> <id>
 *
 * An entry needs `name`, `identifier` (`scheme`, `id`, ideally `uri`) and `address`; `contactPoint` is the sender's.
 */
const { contactPoint: _sentByClients, ...entryProperties } = organizationSchema.properties;
const checkEntry = compileCheck({ type: 'object', additionalProperties: false, required: ['name', 'identifier', 'address'], properties: entryProperties });

const [command, ...args] = process.argv.slice(2);
const usage = () => {
  console.error('usage: npm run organizations -- add <file.json> | show <scheme> <id> | remove <scheme> <id>');
  process.exit(2);
};

if (command === 'add' && args.length === 1) {
  const parsed = JSON.parse(readFileSync(args[0], 'utf8'));
  for (const entry of Array.isArray(parsed) ? parsed : [parsed]) {
    try {
      checkEntry(entry);
    } catch (error) {
      console.error(`refused ${JSON.stringify(entry.identifier)}: ${(error as Error).message}`);
      process.exit(1);
    }
    await putOrganization(entry);
    console.log(`stored ${entry.identifier.scheme} ${entry.identifier.id}: ${entry.name}`);
  }
} else if (command === 'show' && args.length === 2) {
  const entry = await organizationDirectory.find(args[0], args[1]);
  console.log(entry ? JSON.stringify(entry, null, 2) : `${args[0]} ${args[1]} is not in the directory`);
  process.exit(entry ? 0 : 1);
} else if (command === 'remove' && args.length === 2) {
  const removed = await deleteOrganization(args[0], args[1]);
  console.log(removed ? `removed ${args[0]} ${args[1]}` : `${args[0]} ${args[1]} was not in the directory`);
} else usage();
