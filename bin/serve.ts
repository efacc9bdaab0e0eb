import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { startDynamoDbLocal } from '../lib/local/dynamodb-local.ts';
import { startGateway } from '../lib/local/gateway.ts';
import { startBots } from '../lib/local/scheduler.ts';
import { createTable } from '../lib/local/table.ts';
import { DEV_KEYS, seedDevKeys } from './dev-keys.ts';
import { DEV_ORGANIZATIONS, seedDevOrganizations } from './dev-organizations.ts';

/**
 * `npm start`: DynamoDB Local (data under .agora/dynamodb, or in memory with AGORA_IN_MEMORY=1), the table,
 * the dev API keys, the local gateway on 127.0.0.1:$PORT (default 6543) and the bots every BOTS_INTERVAL_MS.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const port = Number(process.env.PORT ?? 6543);
const interval = Number(process.env.BOTS_INTERVAL_MS ?? 2000);
const inMemory = process.env.AGORA_IN_MEMORY === '1';
const dbPath = '.agora/dynamodb';
const LOCAL_FILE = '.agora/local.json';
if (!inMemory && !process.env.DYNAMODB_ENDPOINT) mkdirSync(dbPath, { recursive: true });

// DYNAMODB_ENDPOINT: use a DynamoDB (Local) that is already running instead of starting one (bench, ops).
let dynamo = process.env.DYNAMODB_ENDPOINT ? { endpoint: process.env.DYNAMODB_ENDPOINT, stop: () => {} } : undefined;
try {
  dynamo ??= await startDynamoDbLocal(inMemory ? {} : { dbPath });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
process.env.TABLE_NAME ??= 'agora';
await createTable(dynamo.endpoint, process.env.TABLE_NAME);
// Where this DynamoDB Local listens, for the operator CLIs (`npm run keys`) run beside it.
mkdirSync('.agora', { recursive: true });
writeFileSync(LOCAL_FILE, JSON.stringify({ endpoint: dynamo.endpoint, table: process.env.TABLE_NAME }));
await seedDevKeys();
await seedDevOrganizations();
const gateway = await startGateway({ port });
const stopBots = startBots(interval);

console.log(`Agora is serving on ${gateway.url} (DynamoDB Local on ${dynamo.endpoint}, ${inMemory ? 'in memory' : `data in ${dbPath}`})`);
console.log(`API keys (Basic user name, empty password): ${DEV_KEYS.map((k) => `${k.name} (${k.role})`).join(', ')}`);
console.log(`Organization directory: ${DEV_ORGANIZATIONS.map((o) => `${o.identifier.scheme} ${o.identifier.id} (${o.name})`).join(', ')}`);
console.log(`Bots every ${interval} ms. Try:\n  curl -u broker: ${gateway.url}/api/0.1/lots`);

const stop = async () => {
  stopBots();
  rmSync(LOCAL_FILE, { force: true });
  await gateway.close();
  dynamo.stop();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
