import { existsSync, readFileSync, rmSync } from 'node:fs';
import { stopOrphan } from '../lib/local/dynamodb-local.ts';
import { isAlive } from '../lib/local/preflight.ts';
import { answerHelp } from '../lib/cli-help.ts';
import { LOCAL_FILE } from './local-service.ts';

/**
 * `npm run reset`: forgets everything `npm start` kept in this folder (`.agora/dynamodb`: lots, assets, auctions, keys
 * issued, and the future-dated items a moved clock left behind), so the next `npm start` begins with an empty table
 * and the dev keys. Refused while an `npm start` runs from this folder; a DynamoDB Local left by a killed one is
 * stopped first. Exit codes: 0 done, 1 refused, 2 wrong arguments.
 */
const USAGE = 'usage: npm run reset   (stop npm start first)';
answerHelp(
  "Deletes npm start's local data (.agora/dynamodb): the next npm start begins empty, with the dev keys. Exit codes: 0 done, 1 refused, 2 wrong arguments.",
  USAGE,
);
if (process.argv.length > 2) {
  console.error(`unknown argument ${JSON.stringify(process.argv[2])}\n${USAGE}`);
  process.exit(2);
}
const LOCK = '.agora/lock';
const holder = existsSync(LOCK) ? Number(readFileSync(LOCK, 'utf8').trim()) : undefined;
if (holder && holder !== process.pid && isAlive(holder)) {
  console.error(`npm start (pid ${holder}) runs from this folder: stop it first (Ctrl-C). Nothing was changed.`);
  process.exit(1);
}
const orphan = await stopOrphan('.agora/dynamodb.pid');
if (orphan) console.log(`Stopped DynamoDB Local (pid ${orphan}) left by an npm start that was killed.`);
const DATA = '.agora/dynamodb';
const had = existsSync(DATA);
for (const path of [DATA, LOCK, LOCAL_FILE]) rmSync(path, { recursive: true, force: true });
console.log(
  had ? `Deleted ${DATA}: the next npm start begins empty, with the dev keys.` : `${DATA} was already empty.`,
);
